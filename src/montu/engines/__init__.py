"""The registry of Montu's hardware engines: one line per engine (ENGINES.md §3).

    import montu.engines
    montu.engines.names()                          # ('bie2021', 'yeh', 'verma', 'cilardo', 'antao')
    engine = montu.engines.open("bie2021", backend="sim")
    engine.mod_mul(x, y, n)                        # plain x·y mod n, conversions included
    engine.last_cycles, engine.core_cycles         # the whole call / the core operations alone

An engine is a Python adapter (`montu.engines.<name>`) over its simulator and its Verilated RTL,
and a hardware IP under hw/ip/<name>/ with a FuseSoC core (`core` below). Adding an engine adds
its folder, its adapter module and one `Engine(...)` line here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from montu.errors import MontuError


class UnknownEngine(MontuError, ValueError):
    """An engine name that is not in the registry."""


# The CLI commands that use an engine (ENGINES.md §3: modmul, modexp and the crypto commands).
ALL_COMMANDS = ("modmul", "modinv", "modexp", "genkey", "pubkey", "sign", "verify", "encrypt",
                "decrypt", "derive")
RSA_COMMANDS = ("modmul", "modexp", "pubkey", "sign", "verify", "encrypt", "decrypt")


@dataclass(frozen=True)
class Engine:
    """One registered engine: its name, the paper it builds, its FuseSoC core and top module,
    and the module whose `open(backend, **params)` makes an engine object."""

    name: str
    paper: str
    core: str          # VLNV of the FuseSoC core (hw/ip/<name>/*.core)
    top: str           # the top module of that core
    adapter: str       # Python module with open(backend="sim", **params)
    commands: tuple[str, ...] = ALL_COMMANDS   # the CLI commands the engine can run
    constant_time: bool = True   # its private operations take the same cycles for every key
    fields: tuple[str, ...] = ("gfp", "gf2m")   # the fields its multiplier works in
    # a build of the Montu unit itself (montu_top with this engine's multiplier): it runs every
    # command through montu.Unit(engine=name), as bie2021 does
    unit_build: bool = False

    def can(self, command: str) -> bool:
        return command in self.commands

    def refuse(self, command: str) -> str:
        """The one line that says what the engine can do instead of `command`."""
        return (f"the {self.name} engine cannot run {command}; it runs "
                f"{', '.join(self.commands)} (the bie2021 unit runs every command)")


REGISTRY: dict[str, Engine] = {engine.name: engine for engine in (
    Engine("bie2021", "Bie et al. 2021, reconfigurable dual-field unit", "montu:ip:montu",
           "montu_top", "montu.engines.bie2021"),
    Engine("yeh", "Yeh et al., BSR4 radix-4 split Montgomery RSA chip", "montu:ip:yeh", "yeh_top",
           "montu.engines.yeh", commands=RSA_COMMANDS, constant_time=False, fields=("gfp",)),
    Engine("verma", "Verma et al., EWBR4CMMM on 3m PEs and the Montgomery powering ladder",
           "montu:ip:verma", "verma_top", "montu.engines.verma", commands=RSA_COMMANDS,
           fields=("gfp",)),
    # montu_top with MulCore = 1: STARTMMI/MMX on cilardo_mont (hw/ip/cilardo), the rest the unit's
    Engine("cilardo", "Cilardo & Mazzocca 2008, dual-field FIOS Montgomery multiplier in the unit",
           "montu:ip:montu", "montu_top", "montu.engines.cilardo", unit_build=True),
    Engine("antao", "Antão & Sousa, programmable RNS processor: a ring of PEs under microcode",
           "montu:ip:antao", "antao_top", "montu.engines.antao",
           commands=(*RSA_COMMANDS, "derive"), fields=("gfp",)),
)}


def names() -> tuple[str, ...]:
    """The registered engines, in registry order."""
    return tuple(REGISTRY)


def get(name: str) -> Engine:
    try:
        return REGISTRY[name]
    except KeyError:
        raise UnknownEngine(f"unknown engine {name!r}: choose one of {', '.join(REGISTRY)}") from None


def open(name: str, backend: str = "sim", **params: Any):  # noqa: A001 (the contract's name)
    """An engine object of engine `name` on `backend` ('sim' or 'rtl'), built with `params`."""
    return importlib.import_module(get(name).adapter).open(backend, **params)


def open_for_bits(name: str, bits: int, backend: str = "sim", **overrides: int):
    """An engine object of `name` built large enough for `bits`-bit operands: the adapter's
    `params_for_bits(bits)` picks the build (its default otherwise); `overrides` replace some of
    its parameters (the adapter's `open` names)."""
    adapter = importlib.import_module(get(name).adapter)
    choose = getattr(adapter, "params_for_bits", None)
    return adapter.open(backend, **{**(choose(bits) if choose else {}), **overrides})

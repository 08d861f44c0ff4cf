"""The registry of Montu's hardware engines: one line per engine (ENGINES.md §3).

    import montu.engines
    montu.engines.names()                          # ('bie2021',)
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


@dataclass(frozen=True)
class Engine:
    """One registered engine: its name, the paper it builds, its FuseSoC core and top module,
    and the module whose `open(backend, **params)` makes an engine object."""

    name: str
    paper: str
    core: str          # VLNV of the FuseSoC core (hw/ip/<name>/*.core)
    top: str           # the top module of that core
    adapter: str       # Python module with open(backend="sim", **params)


REGISTRY: dict[str, Engine] = {engine.name: engine for engine in (
    Engine("bie2021", "Bie et al. 2021, reconfigurable dual-field unit", "montu:ip:montu",
           "montu_top", "montu.engines.bie2021"),
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

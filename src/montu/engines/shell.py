"""What every engine object shares over its command/response shell (ENGINES.md §1, §3): sending
commands by name, adding up the cycles of a call, and turning an error response into an
exception that names the error. The engines' own modules add what their papers compute.

    class YehEngine(CommandShell):
        ISA = load_engine("yeh"); error_class = YehError; name = "yeh"
        ...
        self._send(commands, "mod_exp", core={"BSR4": 513, "EXP": nb * 513})

A subclass provides `backend` (a simulator or an RtlModel: `execute_many`) and `_forget()`
(drop what the host believes the engine holds), and sets `last_cycles`, `core_cycles` and
`total_cycles` to 0 in its constructor.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import ClassVar

from montu.isa.encoding import Response, encode
from montu.isa.table import InstructionSet


class CommandShell(ABC):
    """Sending commands to an engine's shell and counting a call's cycles."""

    ISA: ClassVar[InstructionSet]
    error_class: ClassVar[type[Exception]]
    name: ClassVar[str]            # the registry's name of the engine

    backend: object
    last_cycles: int
    core_cycles: int
    total_cycles: int

    @abstractmethod
    def _forget(self) -> None:
        """Drop what the host believes the engine holds (the next call reloads it)."""

    def send(self, name: str, *, data: int = 0, **slots: int | str) -> Response:
        """Send one command (registers by name or index) and return the response as it is.
        A call of its own: last_cycles = its cycles, core_cycles = 0 (the host does not track
        what it changes, so the next API call reloads what it needs)."""
        self._begin()
        self._forget()
        return self._send([(encode(name, isa=self.ISA, **slots), data)], name, check=False)[0]

    def run(self, name: str, *, data: int = 0, **slots: int | str) -> Response:
        """`send`, raising the engine's error naming the error if the engine reports one."""
        self._begin()
        self._forget()
        return self._send([(encode(name, isa=self.ISA, **slots), data)], name)[0]

    def _send(self, commands: Sequence[tuple[int, int]], what: str, *, check: bool = True,
              core: Mapping[str, int] | None = None) -> list[Response]:
        """Send a batch; add its cycles to this call's counters, and to core_cycles `core[name]`
        for every command of instruction `name` that succeeds; raise the engine's error at the
        first error (after forgetting the cached engine state: the erring command changed
        nothing, but the rest of the batch ran)."""
        try:
            responses = self.backend.execute_many(commands)   # type: ignore[attr-defined]
        except BaseException:
            self._forget()
            raise
        spent = sum(r.cycles for r in responses)
        self.last_cycles += spent
        self.total_cycles += spent
        shift = self.ISA.slots["op"].lsb
        core_by_opcode = {self.ISA.by_name[name].opcode: cycles
                          for name, cycles in (core or {}).items()}
        for (insn, _), rsp in zip(commands, responses):
            if not rsp.err:
                self.core_cycles += core_by_opcode.get(insn >> shift, 0)
        for (insn, _), rsp in zip(commands, responses):
            if rsp.err:
                self._forget()
                if check:
                    op = self.ISA.by_opcode.get(insn >> shift)
                    error = {e.code: e for e in self.ISA.errors}.get(rsp.err)
                    raise self.error_class(
                        f"{self.name} engine rejected {op.name if op else hex(insn)} in "
                        f"{what}: {error.name if error else rsp.err} "
                        f"({error.doc if error else 'unknown error code'})", code=rsp.err)
                break
        return responses

    def _begin(self) -> None:
        self.last_cycles = 0
        self.core_cycles = 0

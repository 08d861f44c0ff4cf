"""Cycle-exact model of the antao engine behind its command/response shell (antao.yaml).

    sim = AntaoSimulator(AntaoParams(w=64, pes=4))
    sim.execute(encode("UCADDR"), 0); sim.execute(encode("UCW"), part) ...   # load a program
    sim.execute(encode("PUSH"), word)                                       # its inputs
    sim.execute(encode("RUN"), entry)  -> Response(err, 0, stop PC, 2 + MulShare * run)
    sim.execute(encode("POP"))         -> Response(0, 0, word part, 2)

Opcodes, error codes and cycle formulas come from src/montu/isa/antao.yaml; the machine below
the shell (PEs, ring, accumulators, sequencer) is montu.engines.antao.processor, which counts the
run in steps (MulShare clocks each; the watchdog LIMIT counts steps too). The Verilated
antao_top must give the same response (error, flags, data, cycles) to every command.
"""

from __future__ import annotations

from collections.abc import Iterable

from montu.engines.antao.params import AntaoParams
from montu.engines.antao.processor import FORMAT, Processor
from montu.isa import encoding
from montu.isa.encoding import Command, Response
from montu.isa.table import InstructionSet, load_engine

ENGINE = "antao"
ISA: InstructionSet = load_engine(ENGINE)
WORD_BITS = 64
WORD_MASK = (1 << WORD_BITS) - 1
LIMIT_RESET = 1 << 32


def encode(name: str) -> int:
    """The antao shell's instruction word of `name` (antao.yaml)."""
    return encoding.encode(name, isa=ISA)


class AntaoSimulator:
    """The engine's shell state (microcode pointer, FIFO gearboxes, limit) over a Processor."""

    def __init__(self, params: AntaoParams | None = None, **kwargs: int) -> None:
        self.params = params or AntaoParams(**kwargs)
        self.proc = Processor(self.params)
        self.reset()

    def reset(self) -> None:
        """Power-on state (rst_ni): everything but the microcode memory cleared."""
        self.proc.wipe()
        self.uptr = 0
        self.upart = 0
        self.ipart = 0
        self.in_word = 0
        self.opart = 0
        self.limit = LIMIT_RESET
        self.last_run: tuple[str | None, int, int] | None = None

    # ------------------------------------------------------------------ the shell
    def execute(self, insn: int, data: int = 0) -> Response:
        ins = ISA.by_opcode.get((insn >> ISA.slots["op"].lsb) & 0xFF)
        if ins is None:
            return self._error("E_BAD_OPCODE")
        handler = getattr(self, f"_op_{ins.name.lower()}")
        return handler(ins, data & WORD_MASK)

    def execute_many(self, commands: Iterable[Command | tuple[int, int]]) -> list[Response]:
        out = []
        for command in commands:
            insn, data = (command.insn, command.data) if isinstance(command, Command) else command
            out.append(self.execute(insn, data))
        return out

    def _error(self, name: str) -> Response:
        return Response(ISA.error_code[name], 0, 0, ISA.error_cycles)

    def _ok(self, ins, data: int = 0, **variables: int) -> Response:
        return Response(0, 0, data, ins.cycle_count(ENGINE, **variables))

    def _op_nop(self, ins, data: int) -> Response:
        return self._ok(ins)

    def _op_ucaddr(self, ins, data: int) -> Response:
        if data >= self.params.ucode_depth:
            return self._error("E_RANGE")
        self.uptr, self.upart = data, 0
        return self._ok(ins)

    def _op_ucw(self, ins, data: int) -> Response:
        part_bits = FORMAT.part_bits
        top_bits = FORMAT.width - part_bits * (FORMAT.parts - 1)
        last = self.upart == FORMAT.parts - 1
        if last and data >> top_bits:
            return self._error("E_RANGE")
        shift = self.upart * part_bits
        word = self.proc.ucode[self.uptr]
        word = (word & ~(((1 << part_bits) - 1) << shift)) | (data << shift)
        self.proc.ucode[self.uptr] = word
        if last:
            self.uptr, self.upart = (self.uptr + 1) % self.params.ucode_depth, 0
        else:
            self.upart += 1
        return self._ok(ins)

    def _op_push(self, ins, data: int) -> Response:
        p = self.params
        if len(self.proc.in_fifo) >= p.in_depth:
            return self._error("E_FULL")
        last = self.ipart == p.fifo_parts - 1
        top_bits = p.w - WORD_BITS * (p.fifo_parts - 1)
        if last and data >> top_bits:
            return self._error("E_RANGE")
        word = self.in_word | (data << (WORD_BITS * self.ipart))
        if last:
            self.proc.in_fifo.append(word)
            self.in_word, self.ipart = 0, 0
        else:
            self.in_word, self.ipart = word, self.ipart + 1
        return self._ok(ins)

    def _op_pop(self, ins, data: int) -> Response:
        p = self.params
        if not self.proc.out_fifo:
            return self._error("E_EMPTY")
        word = (self.proc.out_fifo[0] >> (WORD_BITS * self.opart)) & WORD_MASK
        if self.opart == p.fifo_parts - 1:
            self.proc.out_fifo.popleft()
            self.opart = 0
        else:
            self.opart += 1
        return self._ok(ins, word)

    def _op_limit(self, ins, data: int) -> Response:
        self.limit = data
        return self._ok(ins)

    def _op_status(self, ins, data: int) -> Response:
        status = (len(self.proc.out_fifo) << 16) | len(self.proc.in_fifo)
        return self._ok(ins, status)

    def _op_run(self, ins, data: int) -> Response:
        if data >= self.params.ucode_depth:
            return self._error("E_RANGE")
        error, pc, run = self.proc.run(data, self.limit)
        self.last_run = (error, pc, run)
        return Response(ISA.error_code[error] if error else 0, 0, pc,
                        ins.cycle_count(ENGINE, run=run, MulShare=self.params.mul_share))

    def _op_wipe(self, ins, data: int) -> Response:
        self.proc.wipe()
        self.uptr = self.upart = self.ipart = self.opart = self.in_word = 0
        return self._ok(ins, Depth=self.params.depth)

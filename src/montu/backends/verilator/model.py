"""RtlModel: the real RTL (Verilated montu_top) behind the simulator's interface.

    model = RtlModel(word_bits=64, lanes=2, max_bits=512, num_regs=16)   # builds once, then cached
    RtlModel(lanes=2, pipelined=True)        # montu_top with Pipelined = 1 (a separate build)
    RtlModel.engine("yeh", {"NBits": 1024})  # an engine's top (montu:ip:yeh), same ports
    model.execute(encode("SETMMI", imm=8))        -> Response(err, flags, data, cycles)
    model.execute_many([(insn, data), ...])       -> [Response, ...]   (one ctypes call)

Every response is checked against the contract: the harness counts the posedges from the
accepting posedge to rsp_valid_o itself, and a disagreement with rsp_cycles_o raises
RtlProtocolError. A command that is not accepted or answered within `budget` cycles raises
RtlTimeoutError; the unit must then be reset() before it takes another command.
"""

from __future__ import annotations

import ctypes
import functools
import weakref
from array import array
from collections.abc import Iterable, Sequence
from pathlib import Path

from montu import hw
from montu.config import DEFAULT_ENGINE
from montu.isa import Response, decode_slots, load
from montu.isa.table import InstructionSet, load_engine
from montu.backends.verilator.build import BuildResult, RtlConfig, build
from montu.backends.verilator.errors import RtlAssertionError, RtlError, RtlProtocolError, RtlTimeoutError

DEFAULT_BUDGET = 4_000_000   # cycles the unit may take to accept, and then to answer, one command
RESET_CYCLES = 4             # cycles rst_ni is held low

ABI_VERSION = 1
_OK, _ACCEPT_TIMEOUT, _RESPONSE_TIMEOUT, _SPURIOUS, _FATAL, _FINISHED = range(6)

_P = ctypes.c_void_p


@functools.cache
def _load_library(path: Path) -> ctypes.CDLL:
    lib = ctypes.CDLL(str(path))
    lib.montu_rtl_abi_version.restype = ctypes.c_int
    if lib.montu_rtl_abi_version() != ABI_VERSION:
        raise RtlError(f"{path}: harness ABI {lib.montu_rtl_abi_version()}, model.py expects {ABI_VERSION}")
    lib.montu_rtl_word_bits.restype = ctypes.c_uint
    lib.montu_rtl_data_words.restype = ctypes.c_uint
    lib.montu_rtl_create.restype = _P
    lib.montu_rtl_destroy.argtypes = [_P]
    lib.montu_rtl_set_budget.argtypes = [_P, ctypes.c_uint64]
    lib.montu_rtl_reset.argtypes = [_P, ctypes.c_uint]
    lib.montu_rtl_cycle_count.argtypes = [_P]
    lib.montu_rtl_cycle_count.restype = ctypes.c_uint64
    lib.montu_rtl_ticks.argtypes = [_P]
    lib.montu_rtl_ticks.restype = ctypes.c_uint64
    lib.montu_rtl_status.argtypes = [_P]
    lib.montu_rtl_status.restype = ctypes.c_uint
    lib.montu_rtl_message.argtypes = [_P]
    lib.montu_rtl_message.restype = ctypes.c_char_p
    lib.montu_rtl_trace_open.argtypes = [_P, ctypes.c_char_p]
    lib.montu_rtl_trace_open.restype = ctypes.c_int
    lib.montu_rtl_exec_many.argtypes = [_P, ctypes.c_size_t] + [_P] * 7 + [ctypes.POINTER(ctypes.c_size_t)]
    lib.montu_rtl_exec_many.restype = ctypes.c_int
    return lib


def describe(insn: int, data: int = 0, isa: InstructionSet | None = None) -> str:
    """An instruction word in assembler form, e.g. `RMMI ra=3 (insn 0x0300c000)`; `isa`: the
    table it belongs to (default: the unit's)."""
    slots = decode_slots(insn)
    ins = (isa or load()).by_opcode.get(slots["op"])
    if ins is None:
        return f"unknown opcode 0x{slots['op']:02x} (insn 0x{insn:08x})"
    fields = " ".join(f"{name}={slots[name]}" for name in ins.uses)
    text = f"{ins.name}{' ' + fields if fields else ''} (insn 0x{insn:08x}"
    return text + (f", data 0x{data:x})" if data else ")")


class _SingleCommand:
    """Preallocated in/out slots for execute(): one command without building arrays each time."""

    def __init__(self, handle: int) -> None:
        self.insn = ctypes.c_uint32()
        self.data = ctypes.c_uint64()
        self.err = ctypes.c_uint8()
        self.flags = ctypes.c_uint8()
        self.rdata = ctypes.c_uint64()
        self.rsp_cycles = ctypes.c_uint32()
        self.counted = ctypes.c_uint32()
        self.done = ctypes.c_size_t()
        self.pointers = tuple(ctypes.cast(ctypes.byref(v), _P) for v in (
            self.insn, self.data, self.err, self.flags, self.rdata, self.rsp_cycles, self.counted))
        self.pointers += (ctypes.byref(self.done),)


class RtlModel:
    """The Verilated Montu unit, driven command by command; same interface as montu.backends.sim.Simulator."""

    def __init__(self, word_bits: int = 64, lanes: int = 2, max_bits: int = 4096, num_regs: int = 32,
                 pipelined: bool = False, *, budget: int = DEFAULT_BUDGET, assertions: bool = True,
                 trace: str | Path | None = None, core: str = hw.UNIT_CORE,
                 parameters: dict[str, int] | None = None, engine: str = DEFAULT_ENGINE) -> None:
        self.config = RtlConfig(word_bits, lanes, max_bits, num_regs, pipelined=bool(pipelined),
                                assertions=assertions, trace=trace is not None, core=core,
                                parameters=tuple(sorted((parameters or {}).items())),
                                engine=engine)
        self.isa = load() if self.config.is_unit else load_engine(core.split(":")[2])
        self.word_bits = word_bits
        self.lanes = lanes
        self.max_bits = max_bits
        self.num_regs = num_regs
        self.pipelined = bool(pipelined)
        self.build_info: BuildResult = build(self.config)
        self._lib = _load_library(self.build_info.library)
        if self._lib.montu_rtl_word_bits() != word_bits:
            raise RtlError(f"{self.build_info.library} was built for Word={self._lib.montu_rtl_word_bits()}")
        self._limbs = self._lib.montu_rtl_data_words()
        handle = self._lib.montu_rtl_create()
        if not handle:
            raise RtlError("could not create the Verilated unit (out of memory?)")
        self._handle = handle
        self._finalizer = weakref.finalize(self, self._lib.montu_rtl_destroy, handle)
        self.budget = budget
        if trace is not None and self._lib.montu_rtl_trace_open(handle, str(trace).encode()) != 0:
            raise RtlError(f"could not open the VCD trace {trace}")
        self._broken: str | None = None
        self._one = _SingleCommand(handle)
        self.reset()

    @classmethod
    def engine(cls, name: str, parameters: dict[str, int] | None = None, **options) -> RtlModel:
        """The Verilated top of engine `name` (FuseSoC core montu:ip:<name>, the unit's ports)
        with its -G `parameters`; options: budget, assertions, trace."""
        core = f"montu:ip:{name}"
        if not any(known.startswith(core + ":") or known == core for known in hw.core_names()):
            raise RtlError(f"no FuseSoC core {core} for engine {name!r}")
        return cls(core=core, parameters=parameters, **options)

    # ---- the simulator's interface -------------------------------------------------------------

    def reset(self) -> None:
        """Pulse rst_ni low for a few cycles: the unit's power-on state."""
        self._lib.montu_rtl_reset(self._handle, RESET_CYCLES)
        self._broken = None

    @property
    def cycle_count(self) -> int:
        """The unit's cycle counter (cycle_count_o)."""
        return self._lib.montu_rtl_cycle_count(self._handle)

    def execute(self, insn: int, data: int = 0) -> Response:
        """Send one command and return its response."""
        if self._limbs != 1 or self._broken is not None:
            return self.execute_many(((insn, data),))[0]
        if not 0 <= insn < 1 << 32:
            raise ValueError(f"instruction word {insn:#x} does not fit 32 bits")
        if not 0 <= data < 1 << self.word_bits:
            raise ValueError(f"data {data:#x} does not fit the {self.word_bits}-bit word")
        one = self._one
        one.insn.value = insn
        one.data.value = data
        status = self._lib.montu_rtl_exec_many(self._handle, 1, *one.pointers)
        if status != _OK or one.counted.value != one.rsp_cycles.value:
            self._check_batch(status, one.done.value, [(insn, data)], [one.counted.value],
                              [one.rsp_cycles.value])
        return Response(one.err.value, one.flags.value, one.rdata.value, one.rsp_cycles.value)

    def execute_many(self, commands: Iterable[tuple[int, int]]) -> list[Response]:
        """Send the commands back to back (one call into the harness) and return every response."""
        if not isinstance(commands, Sequence):
            commands = list(commands)
        if self._broken is not None:
            raise RtlError(f"the unit needs reset() after: {self._broken}")
        n = len(commands)
        if n == 0:
            return []
        insns, data = self._pack(commands)
        err = array("B", bytes(n))
        flags = array("B", bytes(n))
        rdata = array("Q", bytes(8 * n * self._limbs))
        rsp_cycles = array("I", bytes(4 * n))
        counted = array("I", bytes(4 * n))
        done = ctypes.c_size_t(0)
        status = self._lib.montu_rtl_exec_many(
            self._handle, n, insns.buffer_info()[0], data.buffer_info()[0], err.buffer_info()[0],
            flags.buffer_info()[0], rdata.buffer_info()[0], rsp_cycles.buffer_info()[0],
            counted.buffer_info()[0], ctypes.byref(done))
        done_count = done.value

        if self._limbs == 1:
            words = rdata.tolist()
        else:
            words = [sum(rdata[i * self._limbs + j] << (64 * j) for j in range(self._limbs))
                     for i in range(done_count)]
        responses = list(map(Response, err[:done_count].tolist(), flags[:done_count].tolist(),
                             words[:done_count], rsp_cycles[:done_count].tolist()))
        if status != _OK or counted[:done_count] != rsp_cycles[:done_count]:
            self._check_batch(status, done_count, commands, counted, rsp_cycles)
        return responses

    def _check_batch(self, status: int, done_count: int, commands: Sequence[tuple[int, int]],
                     counted: Sequence[int], rsp_cycles: Sequence[int]) -> None:
        """Raise for the first command that broke the contract or did not complete."""
        n = len(commands)
        for i in range(done_count):
            if counted[i] != rsp_cycles[i]:
                raise RtlProtocolError(
                    f"command {i} of {n}, {describe(*commands[i], isa=self.isa)}: rsp_cycles_o = {rsp_cycles[i]} "
                    f"but rsp_valid_o rose {counted[i]} posedges after the accepting posedge")
        if status != _OK:
            self._raise_status(status, commands[done_count], done_count, n)

    def _pack(self, commands: Sequence[tuple[int, int]]) -> tuple[array, array]:
        """The instruction words and data words as C arrays (uint32, uint64 limbs), range-checked."""
        insn_list = [c[0] for c in commands]
        data_list = [c[1] for c in commands]
        try:
            insns = array("I", insn_list)
        except OverflowError:
            i = next(i for i, x in enumerate(insn_list) if not 0 <= x < 1 << 32)
            raise ValueError(f"command {i}: instruction word {insn_list[i]:#x} does not fit 32 bits") from None
        if min(data_list) < 0 or max(data_list) >> self.word_bits:
            i = next(i for i, x in enumerate(data_list) if not 0 <= x < 1 << self.word_bits)
            raise ValueError(f"command {i}: data {data_list[i]:#x} does not fit the {self.word_bits}-bit word")
        if self._limbs == 1:
            return insns, array("Q", data_list)
        mask = (1 << 64) - 1
        return insns, array("Q", [(x >> (64 * j)) & mask for x in data_list for j in range(self._limbs)])

    # ---- extras of the RTL backend -------------------------------------------------------------

    @property
    def budget(self) -> int:
        """Cycles a command may wait to be accepted, and then to be answered, before timing out."""
        return self._budget

    @budget.setter
    def budget(self, cycles: int) -> None:
        if cycles < 1:
            raise ValueError(f"the cycle budget must be positive (got {cycles})")
        self._budget = cycles
        self._lib.montu_rtl_set_budget(self._handle, cycles)

    @property
    def ticks(self) -> int:
        """Posedges the harness has applied since the model was created (including resets)."""
        return self._lib.montu_rtl_ticks(self._handle)

    @property
    def status_lines(self) -> dict[str, int]:
        """busy_o, done_o and err_o as they are now."""
        s = self._lib.montu_rtl_status(self._handle)
        return {"busy": s & 1, "done": (s >> 1) & 1, "err": (s >> 4) & 0xF}

    def _raise_status(self, status: int, command: tuple[int, int], index: int, n: int) -> None:
        where = f"{describe(*command, isa=self.isa)} (command {index} of {n})"
        message = self._lib.montu_rtl_message(self._handle).decode(errors="replace")
        self._broken = where
        if status == _ACCEPT_TIMEOUT:
            raise RtlTimeoutError(f"unit did not accept {where} within {self._budget} cycles "
                                  f"(cmd_ready_o stayed low)")
        if status == _RESPONSE_TIMEOUT:
            raise RtlTimeoutError(f"unit did not respond within {self._budget} cycles to {where}")
        if status == _SPURIOUS:
            raise RtlProtocolError(f"before {where}: {message}")
        if status in (_FATAL, _FINISHED):
            raise RtlAssertionError(f"during {where}: {message}")
        raise RtlError(f"harness status {status} during {where}: {message}")

    def __repr__(self) -> str:
        if not self.config.is_unit:
            return f"RtlModel.engine({self.config.core.split(':')[2]!r}, {self.config.generics})"
        return (f"RtlModel(word_bits={self.word_bits}, lanes={self.lanes}, max_bits={self.max_bits}, "
                f"num_regs={self.num_regs}{', pipelined=True' if self.pipelined else ''}"
                f"{'' if self.config.engine == DEFAULT_ENGINE else f', engine={self.config.engine!r}'})")

"""The RTL backend (montu.backends.verilator.RtlModel): the Verilated montu_top driven in-process.

One small configuration (Word=64, Lanes=2, MaxBits=512, NumRegs=16) is built once per module
(cached across runs in ~/.cache/montu/rtl or $MONTU_CACHE_DIR) and reset before each test.
The differential stream against the simulator is 12,000 commands (a few seconds); a longer one is
opt-in: MONTU_RTL_STREAM=n.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from montu.isa import Response, encode, load
from montu.backends.verilator import RtlAssertionError, RtlBuildError, RtlModel, RtlProtocolError, RtlTimeoutError
from montu.backends.verilator.build import RtlConfig, build, find_verilator, rtl_dir
from montu.backends.verilator.model import describe
from montu.backends.verilator.workload import ops_per_second, random_commands  # noqa: F401  (benchmark helper)
from verilator_env import missing_tool

WORD, LANES, MAX_BITS, NUM_REGS = 64, 2, 512, 16
MAX_K = MAX_BITS // 64

ISA = load()
E = ISA.error_code


def expected_cycles(name: str, k: int) -> int:
    W = k * 64 // WORD
    return ISA.by_name[name].cycle_count(k=k, W=W, Word=WORD, Lanes=LANES, NumRegs=NUM_REGS,
                                         MaxWords=MAX_BITS // WORD, Pipelined=0, gf2m=0)


def ok(name: str, k: int = 1, data: int = 0, flags: int = 0) -> Response:
    return Response(err=E["E_OK"], flags=flags, data=data, cycles=expected_cycles(name, k))


def error(code: str, flags: int = 0) -> Response:
    return Response(err=E[code], flags=flags, data=0, cycles=ISA.error_cycles)


@pytest.fixture(scope="module")
def rtl_model() -> RtlModel:
    try:
        find_verilator()
    except RtlBuildError as exc:
        missing_tool(f"no Verilator: {exc}")
    assert (rtl_dir() / "montu_top.sv").is_file(), f"no montu_top.sv in {rtl_dir()}"
    return RtlModel(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS)


@pytest.fixture
def unit(rtl_model: RtlModel) -> RtlModel:
    """The module's model, reset, wiped and at full length (k = MAX_K)."""
    rtl_model.budget = 4_000_000
    rtl_model.reset()
    assert rtl_model.execute(encode("WIPE")).err == E["E_OK"]
    assert rtl_model.execute(encode("SETMMI", imm=MAX_K)) == ok("SETMMI")
    return rtl_model


def write(unit: RtlModel, reg: int, value: int, words: int) -> list[Response]:
    mask = (1 << WORD) - 1
    return unit.execute_many([(encode("WMMI", rd=reg), (value >> (WORD * i)) & mask) for i in range(words)])


def read(unit: RtlModel, reg: int, words: int) -> int:
    responses = unit.execute_many([(encode("RMMI", ra=reg), 0)] * words)
    assert all(r.err == E["E_OK"] and r.cycles == expected_cycles("RMMI", MAX_K) for r in responses)
    return sum(r.data << (WORD * i) for i, r in enumerate(responses))


def test_write_then_read_returns_every_register_word(unit: RtlModel) -> None:
    rng = random.Random(1)
    values = {reg: rng.getrandbits(MAX_BITS) for reg in (0, 5, NUM_REGS - 1)}
    for reg, value in values.items():
        assert write(unit, reg, value, MAX_K) == [ok("WMMI", MAX_K)] * MAX_K
    for reg, value in values.items():
        assert read(unit, reg, MAX_K) == value


def test_word_pointers_wrap_and_shorter_lengths_keep_the_upper_words(unit: RtlModel) -> None:
    value = random.Random(2).getrandbits(MAX_BITS)
    write(unit, 3, value, MAX_K)
    write(unit, 3, 0xABCD, 1)                   # wptr wrapped to 0: overwrites word 0
    assert read(unit, 3, MAX_K) == (value >> WORD << WORD) | 0xABCD
    assert read(unit, 3, 1) == 0xABCD           # rptr wrapped to 0 as well

    assert unit.execute(encode("SETMMI", imm=2)) == ok("SETMMI")
    write(unit, 3, 0, 2)                        # k = 2: only the low 128 bits change
    assert unit.execute(encode("SETMMI", imm=MAX_K)) == ok("SETMMI")   # also resets the pointers
    assert read(unit, 3, MAX_K) == value >> 128 << 128


def test_errors_report_the_code_and_change_nothing(unit: RtlModel) -> None:
    write(unit, 1, 0x1111, 1)                   # wptr = 1
    bad_opcode = next(op for op in range(256) if op not in ISA.by_opcode)
    assert unit.execute(bad_opcode << 24) == error("E_BAD_OPCODE")
    assert unit.execute(encode("WMMI", rd=NUM_REGS), 0xDEAD) == error("E_BAD_REG")
    assert unit.execute(encode("WMMI", rd=31), 0xDEAD) == error("E_BAD_REG")
    assert unit.execute(encode("RMMI", ra=NUM_REGS)) == error("E_BAD_REG")
    assert unit.execute(encode("SETMMI", imm=0)) == error("E_BAD_LENGTH")
    assert unit.execute(encode("SETMMI", imm=MAX_K + 1)) == error("E_BAD_LENGTH")
    # The failed WMMIs did not move wptr and the failed SETMMIs did not change k or the pointers:
    assert write(unit, 1, 0x2222, 1) == [ok("WMMI", MAX_K)]
    assert read(unit, 1, 2) == 0x2222 << WORD | 0x1111
    assert unit.execute(encode("NOP")) == ok("NOP")


def test_harness_count_equals_rsp_cycles_and_the_table(unit: RtlModel) -> None:
    # execute_many raises RtlProtocolError when the posedges the harness counted between accept
    # and rsp_valid_o differ from rsp_cycles_o; here the values are also checked against the table.
    commands = [(encode("NOP"), 0), (encode("SETMMI", imm=MAX_K), 0), (encode("WMMI", rd=2), 7),
                (encode("RMMI", ra=2), 0), (0xFF000000, 0), (encode("RMMI", ra=20), 0)]
    expected = [ok("NOP").cycles, ok("SETMMI").cycles, ok("WMMI").cycles, ok("RMMI", MAX_K).cycles,
                ISA.error_cycles, ISA.error_cycles]
    assert [r.cycles for r in unit.execute_many(commands * 50)] == expected * 50


def test_cycle_counter_advances(unit: RtlModel) -> None:
    before = unit.cycle_count
    responses = unit.execute_many([(encode("NOP"), 0)] * 10 + [(encode("RMMI", ra=0), 0)] * 10)
    after = unit.cycle_count
    assert after - before >= sum(r.cycles for r in responses) > 0
    assert unit.cycle_count == after   # reading it does not clock the unit


def test_timeout_names_the_command_and_reset_recovers(unit: RtlModel) -> None:
    unit.budget = 1                  # RMMI takes 2 cycles
    with pytest.raises(RtlTimeoutError, match=r"did not respond within 1 cycles to RMMI ra=4"):
        unit.execute(encode("RMMI", ra=4))
    unit.budget = 4_000_000
    with pytest.raises(Exception, match="needs reset"):
        unit.execute(encode("NOP"))
    unit.reset()
    assert unit.execute(encode("NOP")) == ok("NOP")


def test_arguments_out_of_range_are_refused(unit: RtlModel) -> None:
    with pytest.raises(ValueError, match="32 bits"):
        unit.execute(1 << 32)
    with pytest.raises(ValueError, match="64-bit word"):
        unit.execute(encode("WMMI", rd=0), 1 << 64)
    assert unit.execute_many([]) == []


def test_same_stream_after_reset_gives_the_same_responses(unit: RtlModel) -> None:
    stream = random_commands(random.Random(3), 1500, word_bits=WORD, max_bits=MAX_BITS, num_regs=NUM_REGS)
    first = unit.execute_many(stream)
    unit.reset()
    assert unit.execute_many(stream) == first


STREAM_LENGTH = max(10_000, int(os.environ.get("MONTU_RTL_STREAM", "12000")))


def test_random_stream_matches_the_simulator(unit: RtlModel) -> None:
    """A long random stream (valid and invalid commands, MINV with odd, even and non-invertible
    operands included): every response (err, flags, data, cycles) equals the simulator's, and
    its cycles are within the documented worst case (the error cycles for an error)."""
    from montu.isa import decode_slots
    from montu.backends.sim import Simulator

    sim = Simulator(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS)
    unit.reset()
    sim.reset()
    stream = random_commands(random.Random(4), STREAM_LENGTH, word_bits=WORD, max_bits=MAX_BITS,
                             num_regs=NUM_REGS)
    assert len(stream) >= 10_000
    rtl = unit.execute_many(stream)
    seen: dict[str, int] = {}
    for i, (insn, data) in enumerate(stream):
        ins = ISA.by_opcode.get(decode_slots(insn)["op"])
        k, gf2m = sim.k, sim.gf2m                        # before the command (SETMMI changes them)
        even_modulus = (ins is not None and ins.name == "MINV"
                        and decode_slots(insn)["rb"] < NUM_REGS and not sim.regs[decode_slots(insn)["rb"]] & 1)
        expected = sim.execute(insn, data)
        if rtl[i] != expected:
            recent = "\n  ".join(describe(*c) for c in stream[max(0, i - 8):i])
            pytest.fail(f"command {i}, {describe(insn, data)}: RTL {rtl[i]} != simulator {expected}\n"
                        f"preceding commands:\n  {recent}")
        if expected.err:
            limit = ISA.error_cycles if expected.err != E["E_NO_INVERSE"] else \
                ins.worst_case_cycles(k=k, W=k * 64 // WORD, Word=WORD, Lanes=LANES, NumRegs=NUM_REGS,
                                      MaxWords=MAX_BITS // WORD, Pipelined=0, gf2m=gf2m)
        else:
            limit = ins.worst_case_cycles(k=k, W=k * 64 // WORD, Word=WORD, Lanes=LANES,
                                          NumRegs=NUM_REGS, MaxWords=MAX_BITS // WORD, Pipelined=0, gf2m=gf2m)
        assert rtl[i].cycles <= limit, f"command {i}, {describe(insn, data)}: {rtl[i].cycles} > {limit}"
        if ins is not None and ins.name == "MINV":
            kind = ("ok" if not expected.err else "no inverse" if expected.err == E["E_NO_INVERSE"]
                    else "error")
            seen[kind] = seen.get(kind, 0) + 1
            if kind == "ok" and even_modulus:
                seen["ok, even modulus"] = seen.get("ok, even modulus", 0) + 1
    minimum = {"ok": 50, "no inverse": 50, "ok, even modulus": 10, "error": 5}   # MINV outcomes
    assert all(seen.get(kind, 0) >= n for kind, n in minimum.items()), seen


def mlin_commands(rng: random.Random, n: int) -> list[tuple[int, int]]:
    """n commands of MLIN-centred episodes: a length and field, an odd modulus (random with the top
    bit set, 3, 1 or 2^L - 1), four operands (mostly below N; sometimes 0, N - 1, N or 2^L - 1),
    SETMOD (skipped in one episode in ten: E_NO_MODULUS), then a run of MLIN (all 49 constant
    pairs, now and then a bad one: E_BAD_IMM), MADD, MSUB and MDBL on those registers (aliasing
    included; rarely rd = the modulus register, which invalidates it), results read back."""
    mask = (1 << WORD) - 1
    commands = [(encode("WIPE"), 0)]
    while len(commands) < n:
        k = rng.randrange(1, MAX_K + 1)
        bits, words = 64 * k, k * 64 // WORD
        top = (1 << bits) - 1
        m, *regs = rng.sample(range(NUM_REGS), 5)
        modulus = rng.choice([rng.getrandbits(bits) | 1 | (1 << (bits - 1))] * 4 + [3, 1, top])
        commands.append((encode("SETMMI", f=int(rng.random() < 0.3), imm=k), 0))

        def write(reg: int, value: int) -> None:
            commands.extend((encode("WMMI", rd=reg), (value >> (WORD * i)) & mask) for i in range(words))

        def read(reg: int) -> None:
            commands.extend([(encode("RMMI", ra=reg), 0)] * words)

        write(m, modulus)
        for reg in regs:
            r = rng.random()
            write(reg, rng.randrange(modulus) if r < 0.7 else
                  rng.choice([0, modulus - 1, modulus, top]))
        if rng.random() < 0.9:
            commands.append((encode("SETMOD", ra=m), 0))
        for _ in range(rng.randrange(10, 30)):
            name = rng.choice(["MLIN"] * 6 + ["MADD", "MSUB", "MDBL"])
            ra, rb = (m if rng.random() < 0.05 else rng.choice(regs) for _ in range(2))
            rd = m if rng.random() < 0.02 else rng.choice(regs)
            if name == "MLIN":
                if rng.random() < 0.9:
                    imm = (rng.randrange(-3, 4) & 0xF) | ((rng.randrange(-3, 4) & 0xF) << 4)
                else:
                    imm = rng.randrange(256)
                commands.append((encode("MLIN", rd=rd, ra=ra, rb=rb, imm=imm), 0))
            elif name == "MDBL":
                commands.append((encode(name, rd=rd, ra=ra), 0))
            else:
                commands.append((encode(name, rd=rd, ra=ra, rb=rb), 0))
            if rng.random() < 0.6:
                read(rd)
        for reg in regs:
            read(reg)
    return commands[:n]


def test_mlin_stream_matches_the_simulator(unit: RtlModel) -> None:
    """MLIN-centred random episodes (every constant pair, edge operands and moduli, both fields,
    every length): every response (err, flags, data, cycles) equals the simulator's."""
    from montu.isa import decode_slots
    from montu.backends.sim import Simulator

    sim = Simulator(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS)
    unit.reset()
    sim.reset()
    stream = mlin_commands(random.Random(5), STREAM_LENGTH)
    rtl = unit.execute_many(stream)
    seen: dict[str, int] = {}
    pairs: set[int] = set()
    for i, (insn, data) in enumerate(stream):
        expected = sim.execute(insn, data)
        if rtl[i] != expected:
            recent = "\n  ".join(describe(*c) for c in stream[max(0, i - 8):i])
            pytest.fail(f"command {i}, {describe(insn, data)}: RTL {rtl[i]} != simulator {expected}\n"
                        f"preceding commands:\n  {recent}")
        slots = decode_slots(insn)
        if slots["op"] == ISA.by_name["MLIN"].opcode:
            kind = {E["E_OK"]: "ok", E["E_BAD_IMM"]: "bad imm", E["E_NO_MODULUS"]: "no modulus"}[expected.err]
            seen[kind] = seen.get(kind, 0) + 1
            if kind == "ok":
                pairs.add(slots["imm"])
    assert seen.get("ok", 0) >= 500 and seen.get("bad imm", 0) >= 20 and seen.get("no modulus", 0) >= 20, seen
    assert len(pairs) == 49, f"only {len(pairs)} of the 49 constant pairs ran"


def test_build_is_cached(rtl_model: RtlModel) -> None:
    again = build(rtl_model.config)
    assert not again.built and again.library == rtl_model.build_info.library and again.seconds < 5


def test_missing_rtl_is_a_clear_build_error(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MONTU_RTL_DIR", str(tmp_path))
    with pytest.raises(RtlBuildError, match="no montu_top.sv"):
        build(RtlConfig(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS))


def test_importing_the_package_builds_nothing(tmp_path) -> None:
    env = {**os.environ, "MONTU_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run([sys.executable, "-c", "import montu.backends.verilator"], check=True, env=env)
    assert not (tmp_path / "cache").exists()


# ---- the harness's own safety nets, on a deliberately faulty stand-in for montu_top -------------

FAULTY_UNIT = """
// A deliberately faulty montu_top for testing the harness's checks (not the Montu unit).
// op 0x00: correct, 1 cycle; 0x01: claims rsp_cycles 3 but answers after 2; 0x02: $fatal;
// 0x03: never answers; 0x04: answers, then raises rsp_valid_o again on its own.
module montu_top #(parameter int unsigned Word = 64, Lanes = 2, MaxBits = 4096, NumRegs = 32) (
  input  logic clk_i, rst_ni,
  input  logic cmd_valid_i, output logic cmd_ready_o, input logic [31:0] cmd_insn_i,
  input  logic [Word-1:0] cmd_data_i,
  output logic rsp_valid_o, input logic rsp_ready_i, output logic [Word-1:0] rsp_data_o,
  output logic [3:0] rsp_err_o, output logic [3:0] rsp_flags_o, output logic [31:0] rsp_cycles_o,
  output logic busy_o, output logic done_o, output logic [3:0] err_o, output logic [63:0] cycle_count_o);
  logic busy_q, valid_q, again_q;
  logic [31:0] left_q, claim_q;
  logic [63:0] cycles_q;
  assign cmd_ready_o = !busy_q;
  assign rsp_valid_o = valid_q;
  assign rsp_data_o = '0;
  assign rsp_err_o = '0;
  assign rsp_flags_o = '0;
  assign rsp_cycles_o = claim_q;
  assign busy_o = busy_q;
  assign done_o = valid_q;
  assign err_o = '0;
  assign cycle_count_o = cycles_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 0; valid_q <= 0; again_q <= 0; left_q <= 0; claim_q <= 0; cycles_q <= 0;
    end else begin
      cycles_q <= cycles_q + 1;
      if (cmd_valid_i && cmd_ready_o) begin
        busy_q <= 1;
        again_q <= cmd_insn_i[31:24] == 8'h04;
        unique case (cmd_insn_i[31:24])
          8'h01: begin left_q <= 1; claim_q <= 3; end
          8'h02: $fatal(1, "opcode 2 is forbidden");
          8'h03: begin left_q <= 32'hFFFF_FFFF; claim_q <= 0; end
          default: begin left_q <= 0; claim_q <= 1; end
        endcase
      end else if (busy_q && !valid_q) begin
        if (left_q == 0) valid_q <= 1;
        else left_q <= left_q - 1;
      end else if (valid_q && rsp_ready_i) begin
        valid_q <= again_q;
        again_q <= 0;
        busy_q <= again_q;
      end
    end
  end
endmodule
"""


@pytest.fixture(scope="module")
def faulty_unit(tmp_path_factory) -> RtlModel:
    try:
        find_verilator()
    except RtlBuildError as exc:
        missing_tool(f"no Verilator: {exc}")
    directory = tmp_path_factory.mktemp("faulty_rtl")
    (directory / "montu_top.sv").write_text(FAULTY_UNIT)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MONTU_RTL_DIR", str(directory))
        return RtlModel(word_bits=WORD, lanes=LANES, max_bits=MAX_BITS, num_regs=NUM_REGS, budget=1000)


def test_harness_catches_a_wrong_rsp_cycles(faulty_unit: RtlModel) -> None:
    faulty_unit.reset()
    with pytest.raises(RtlProtocolError, match=r"command 1 of 2, .*rsp_cycles_o = 3 but rsp_valid_o rose 2"):
        faulty_unit.execute_many([(0x00000000, 0), (0x01000000, 0)])
    with pytest.raises(RtlProtocolError, match=r"rsp_cycles_o = 3 but rsp_valid_o rose 2"):
        faulty_unit.execute(0x01000000)
    assert faulty_unit.execute(0) == Response(0, 0, 0, 1)


def test_harness_catches_fatal_hang_and_stray_response(faulty_unit: RtlModel) -> None:
    faulty_unit.reset()
    with pytest.raises(RtlAssertionError, match=r"montu_top.sv:\d+: \$stop or \$fatal"):
        faulty_unit.execute(0x02000000)
    faulty_unit.reset()
    with pytest.raises(RtlTimeoutError, match=r"did not respond within 1000 cycles to RMMI ra=0 .*command 1 of 3"):
        faulty_unit.execute_many([(0, 0), (0x03000000, 0), (0, 0)])
    faulty_unit.reset()
    with pytest.raises(RtlProtocolError, match=r"before NOP .*: rsp_valid_o was high"):
        faulty_unit.execute_many([(0x04000000, 0), (0, 0)])
    faulty_unit.reset()
    assert faulty_unit.execute_many([(0, 0)] * 3) == [Response(0, 0, 0, 1)] * 3

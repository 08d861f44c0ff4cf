"""The antao engine's cycle-exact model (montu.engines.antao.simulator / processor) against the
specification in antao.yaml and antao_ucode.yaml: each shell command and its errors, each
microinstruction field's arithmetic against Python integers, the interlocks' clocks, the
sequencer's loops and branches, every run error (after which the engine still works), and
random programs, valid or not, that always end."""

from __future__ import annotations

import random

import pytest

from montu.engines.antao.assembler import assemble
from montu.engines.antao.params import AntaoParams
from montu.engines.antao.simulator import ISA, AntaoSimulator, encode
from montu.isa.ucode import load_format

PARAMS = AntaoParams(w=64, pes=4, depth=64, ucode_depth=256, in_depth=64, out_depth=8)
E = ISA.error_code
F = load_format()
L = PARAMS.latency
MASK = (1 << 64) - 1
# four channel constants per base: m = 2^64 - c (any c < 2^16 works for the arithmetic)
C1 = [59, 83, 95, 179]
C2 = [189, 257, 279, 323]


def t(rsp) -> tuple[int, int, int, int]:
    return (rsp.err, rsp.flags, rsp.data, rsp.cycles)


def fresh() -> AntaoSimulator:
    return AntaoSimulator(PARAMS)


def load(sim: AntaoSimulator, source: str, **names: int):
    program = assemble(source, PARAMS, **names)
    assert sim.execute(encode("UCADDR"), 0).err == 0
    for word in program.words:
        for part in F.parts_of(word):
            assert sim.execute(encode("UCW"), part).err == 0
    return program


def push(sim: AntaoSimulator, *words: int) -> None:
    for word in words:
        assert sim.execute(encode("PUSH"), word).err == 0


def run(sim: AntaoSimulator, program, entry: str | None = None):
    return sim.execute(encode("RUN"), 0 if entry is None else program.entry(entry))


def pop_all(sim: AntaoSimulator) -> list[int]:
    out = []
    while True:
        r = sim.execute(encode("POP"))
        if r.err:
            assert r.err == E["E_EMPTY"]
            return out
        out.append(r.data)


SETUP = """
.var A
.var B
.var D
setup:
  loop P
    shin
  endloop
  storec.b1
  loop P
    shin
  endloop
  storec.b2
  loop P
    shin
  endloop
  store A
  loop P
    shin
  endloop
  store B
  halt
"""


def with_channels(sim: AntaoSimulator, a: list[int], b: list[int], body: str, **names: int):
    program = load(sim, SETUP + "main:\n" + body, **names)
    push(sim, *reversed(C1), *reversed(C2), *reversed(a), *reversed(b))
    assert run(sim, program, "setup").err == 0
    return program


def moduli(c: list[int]) -> list[int]:
    return [(1 << 64) - v for v in c]


# ------------------------------------------------------------------------------ the shell
def test_shell_commands_take_their_table_cycles_and_errors_change_nothing() -> None:
    sim = fresh()
    assert t(sim.execute(encode("NOP"))) == (0, 0, 0, 1)
    assert sim.execute(0x7F << 24).err == E["E_BAD_OPCODE"]
    assert sim.execute(encode("UCADDR"), PARAMS.ucode_depth).err == E["E_RANGE"]
    assert t(sim.execute(encode("UCADDR"), 5)) == (0, 0, 0, 1)
    assert sim.execute(encode("UCW"), MASK).err == 0
    assert sim.execute(encode("UCW"), 1 << 16).err == E["E_RANGE"]      # part 1 holds bits 79:64
    assert sim.proc.ucode[5] == MASK and sim.upart == 1
    assert sim.execute(encode("UCW"), 0xFFFF).err == 0
    assert sim.proc.ucode[5] == (1 << 80) - 1 and sim.uptr == 6
    assert t(sim.execute(encode("POP"))) == (E["E_EMPTY"], 0, 0, ISA.error_cycles)
    for i in range(PARAMS.in_depth):
        assert sim.execute(encode("PUSH"), i).err == 0
    assert sim.execute(encode("PUSH"), 1).err == E["E_FULL"]
    assert sim.execute(encode("STATUS")).data == PARAMS.in_depth
    assert sim.execute(encode("RUN"), PARAMS.ucode_depth).err == E["E_RANGE"]
    assert sim.execute(encode("LIMIT"), 7).err == 0 and sim.limit == 7
    assert t(sim.execute(encode("WIPE"))) == (0, 0, 0, PARAMS.depth + 2)
    assert sim.execute(encode("STATUS")).data == 0 and sim.proc.ucode[5] == (1 << 80) - 1


def test_a_96_bit_channel_moves_each_fifo_word_as_two_data_words() -> None:
    sim = AntaoSimulator(PARAMS.with_(w=96))
    assert sim.execute(encode("PUSH"), MASK).err == 0
    assert sim.execute(encode("PUSH"), 1 << 32).err == E["E_RANGE"]    # beyond bit 95
    assert sim.execute(encode("PUSH"), 0xABCD).err == 0
    assert list(sim.proc.in_fifo) == [(0xABCD << 64) | MASK]


# ------------------------------------------------------------------------------ arithmetic
def test_channel_arithmetic_in_both_bases_equals_python() -> None:
    rng = random.Random(1)
    for base, c in (("b1", C1), ("b2", C2)):
        ms = moduli(c)
        a = [rng.randrange(m) for m in ms]
        b = [rng.randrange(m) for m in ms]
        a[0], b[1] = 0, ms[1] - 1
        sim = fresh()
        program = with_channels(sim, a, b, f"""
          mul.{base} D, A, B
          halt
        sum:
          add.{base} D, A, B
          halt
        diff:
          sub.{base} D, A, B
          halt
        mac:
          macz.{base} A, B
          mac.{base} A, B
          op.{base} d=D ysel=ZERO zsel=A a=A accin wr=RED
          halt
        """)
        d = program.symbols["D"]
        for entry, expect in (("main", lambda x, y, m: x * y % m),
                              ("sum", lambda x, y, m: (x + y) % m),
                              ("diff", lambda x, y, m: (x - y) % m),
                              ("mac", lambda x, y, m: (2 * x * y + x) % m)):
            assert run(sim, program, entry).err == 0
            assert [sim.proc.ram[e][d] for e in range(4)] == [expect(x, y, m) for x, y, m in zip(a, b, ms)], entry


def test_horner_with_the_fifo_word_and_pop() -> None:
    sim = fresh()
    ms = moduli(C1)
    radix = [(1 << 64) % m for m in ms]
    program = with_channels(sim, radix, [0] * 4, """
      op.b1 d=D ysel=ZERO wr=RED
      loop 3
        mul.b1 D, D, A zsel=IN pop
      endloop
      halt
    """)
    limbs = [MASK, 12345, 1 << 63]
    push(sim, *limbs)
    assert run(sim, program, "main").err == 0
    value = (limbs[0] << 128) | (limbs[1] << 64) | limbs[2]
    assert [sim.proc.ram[e][program.symbols["D"]] for e in range(4)] == [value % m for m in ms]
    assert not sim.proc.in_fifo


def test_the_ring_rotates_and_the_alpha_accumulator_sees_every_value_once() -> None:
    sim = fresh()
    a = [0xF << 60, 0x3 << 60, 0x8 << 60, 0x1 << 60]
    program = with_channels(sim, a, [0] * 4, """
      loop P ring=LOAD a=A alpha=HALF
        op ring=HOP alpha=ACC
      endloop
      halt
    one_hop:
      loop 1 ring=LOAD a=A
        hop
      endloop
      store D
      halt
    """)
    assert run(sim, program, "main").err == 0
    r = PARAMS.alpha_bits
    assert sim.proc.r == a                                           # P hops: back home
    assert sim.proc.aacc == (1 << (r - 1)) + sum(v >> (64 - r) for v in a)
    assert run(sim, program, "one_hop").err == 0
    assert [sim.proc.ram[e][program.symbols["D"]] for e in range(4)] == [a[3], a[0], a[1], a[2]]


def test_the_output_accumulator_sums_limbs_and_subtracts_n_in_constant_time() -> None:
    sim = fresh()
    a = [MASK, MASK, 5, 7]
    program = with_channels(sim, a, a, """
      op oacc=RST
      loop P+1
        op oacc=LDN
      endloop
      op oacc=CLR
      macz A, B                                  ; ACC = a_e^2, raw
      loop P ring=ACC
        op ring=HOP oacc=ADD
      endloop
      loop P+1
        op oacc=LIMB
      endloop
      loop 2
        loop P+1
          op oacc=SUB
        endloop
        op oacc=COMMIT
      endloop
      loop P+1
        op oacc=OUT
      endloop
      halt
    """)
    total = sum(v * v for v in a)
    n = total // 3 + 1                       # total - 2n >= 0 and total - 3n < 0
    push(sim, *[(n >> (64 * i)) & MASK for i in range(5)])
    assert run(sim, program, "main").err == 0
    words = pop_all(sim)
    assert sum(v << (64 * i) for i, v in enumerate(words)) == total - 2 * n


# ------------------------------------------------------------------------------ timing
def test_interlocks_stall_exactly_until_the_write_lands() -> None:
    sim = fresh()
    program = with_channels(sim, [1, 2, 3, 4], [5, 6, 7, 8], """
      mul D, A, B
      mul A, D, B                   ; reads D: issues at L
      halt
    free:
      mul D, A, B
      mul B, A, A                   ; independent: back to back
      halt
    acc:
      macz A, B                     ; ACC written at stage S
      racc                          ; waits until S
      halt
    """)
    assert run(sim, program, "main").cycles == 2 + (L + 2) + L
    assert run(sim, program, "free").cycles == 2 + 3 + L
    assert run(sim, program, "acc").cycles == 2 + (PARAMS.s + 2) + L


def test_loops_and_the_exponent_bit_branch() -> None:
    sim = fresh()
    program = with_channels(sim, [1, 1, 1, 1], [1, 1, 1, 1], """
      lcld
      loop 4
        eld
      endloop
      op.b1 d=D ysel=ZERO wr=RED
      loop LCR
        bit0 zero
        add.b1 D, D, D              ; D = 2D + 1 per one bit, 2D per zero bit
        add.b1 D, D, A
        jmp next
      zero:
        add.b1 D, D, D
        nop
      next:
        nop
      endloop
      halt
    """)
    e = 0b1011001
    aligned = e << (PARAMS.e_bits - 7)
    push(sim, 7, *[(aligned >> (64 * i)) & MASK for i in reversed(range(PARAMS.e_words))])
    rsp = run(sim, program, "main")
    assert rsp.err == 0
    assert sim.proc.ram[0][program.symbols["D"]] == e


# ------------------------------------------------------------------------------ run errors
def _raw(sim: AntaoSimulator, words: list[int]) -> None:
    assert sim.execute(encode("UCADDR"), 0).err == 0
    for word in words:
        for part in F.parts_of(word):
            assert sim.execute(encode("UCW"), part).err == 0


@pytest.mark.parametrize("words, error, stop_pc", [
    ([F.encode({"zsel": 6})], "E_UCODE", 0),
    ([F.encode({"wr": 3})], "E_UCODE", 0),
    ([F.encode({"seq": 7})], "E_UCODE", 0),
    ([F.encode({"seq": "LOOP", "imm": 1 << 8})], "E_UCODE", 0),           # len 0
    ([F.encode({"seq": "LOOP", "imm": (2 << 8) | 1}), F.encode({"seq": "LOOP", "imm": (2 << 8) | 2}),
      F.encode({"seq": "LOOP", "imm": (2 << 8) | 1}), 0, 0], "E_PC", 1),    # inner body ends late
    ([F.encode({"seq": "JMP", "imm": 300})], "E_PC", 0),
    ([F.encode({"pop": 1})], "E_IN", 0),
    ([F.encode({"seq": "ELD"})], "E_IN", 0),
])
def test_run_errors_stop_the_run_and_the_engine_still_works(words, error, stop_pc) -> None:
    sim = fresh()
    _raw(sim, words)
    rsp = sim.execute(encode("RUN"), 0)
    assert (rsp.err, rsp.data) == (E[error], stop_pc)
    program = load(sim, "mul.b1 0, 1, 2\nhalt")
    assert run(sim, program).err == 0


def test_the_loop_stack_and_the_pc_and_the_output_fifo_have_limits() -> None:
    sim = fresh()
    loop = lambda length: F.encode({"seq": "LOOP", "imm": (2 << 8) | length})
    _raw(sim, [loop(5), loop(3), loop(1), 0, 0, 0, 0])
    assert sim.execute(encode("RUN"), 0).err == E["E_STACK"]
    _raw(sim, [0] * PARAMS.ucode_depth)                  # runs off the end of the memory
    assert t(sim.execute(encode("RUN"), 0)) == (E["E_PC"], 0, PARAMS.ucode_depth - 1,
                                                2 + PARAMS.ucode_depth + L)
    program = load(sim, "loop 9\nop oacc=OUT\nendloop\nhalt")
    rsp = run(sim, program)
    assert rsp.err == E["E_OUT"] and len(sim.proc.out_fifo) == PARAMS.out_depth


def test_the_watchdog_stops_a_long_run() -> None:
    sim = fresh()
    program = load(sim, "loop 255\nloop 255\nnop\nendloop\nnop\nendloop\nhalt")
    assert sim.execute(encode("LIMIT"), 1000).err == 0
    assert t(run(sim, program)) == (E["E_LIMIT"], 0, 2, 2 + 1000 + L)
    assert sim.execute(encode("LIMIT"), 1 << 32).err == 0
    assert run(sim, program).err == 0


def test_random_programs_valid_or_not_always_end() -> None:
    rng = random.Random(7)
    sim = fresh()
    sim.execute(encode("LIMIT"), 200_000)
    for trial in range(60):
        words = [rng.getrandbits(80) if rng.random() < 0.3 else
                 F.encode({"seq": rng.choice(["NEXT", "LOOP", "BIT", "JMP", "HALT"]),
                           "imm": rng.getrandbits(16) & 0xF3FF, "xsel": rng.randrange(4),
                           "wr": rng.randrange(3), "ring": rng.randrange(6),
                           "oacc": rng.randrange(10), "d": rng.randrange(64), "a": rng.randrange(64)})
                 for _ in range(rng.randrange(1, 40))]
        _raw(sim, words)
        for _ in range(rng.randrange(4)):
            sim.execute(encode("PUSH"), rng.getrandbits(64))
        rsp = sim.execute(encode("RUN"), 0)
        assert rsp.err in E.values() and rsp.cycles >= 2 + L
        assert rsp.cycles <= 2 + 200_000 + L


@pytest.mark.parametrize("params", [AntaoParams(w=64, pes=4), AntaoParams(w=96, pes=22, depth=512),
                                    AntaoParams(w=96, pes=6, mul_share=3),
                                    AntaoParams(w=96, pes=22, depth=512, mul_share=12)],
                         ids=["W64-P4", "W96-P22", "W96-P6-share3", "W96-P22-share12"])
def test_a_product_costs_5L_2P_3_in_a_chain_and_a_pair_4P_5L_2(params: AntaoParams) -> None:
    """The per-product clocks docs/engines.md quotes: each more dependent `mm` adds 5L + 2P + 3,
    each more `mm2` pair 4P + 5L + 2 (the difference of two runs on lib.rns); steps of MulShare
    clocks each."""
    from montu.engines.antao import host

    def run_cycles(body: str) -> int:
        sim = AntaoSimulator(params)
        program = assemble(host.program_source("lib") + "t:\n" + body + "halt\n", params,
                           LIMBS=params.pes)
        assert sim.execute(encode("UCADDR"), 0).err == 0
        for word in program.words:
            for part in F.parts_of(word):
                sim.execute(encode("UCW"), part)
        return sim.execute(encode("RUN"), program.entry("t")).cycles

    lat, pes, n = params.latency, params.pes, params.mul_share
    assert (run_cycles("mm A, X, Y\nmm A, A, Y\n") - run_cycles("mm A, X, Y\n")
            == n * (5 * lat + 2 * pes + 3))
    assert (run_cycles("mm2 A, X, Y, BM, X, X\nmm2 A, A, BM, BM, BM, BM\n")
            - run_cycles("mm2 A, X, Y, BM, X, X\n") == n * (4 * pes + 5 * lat + 2))


@pytest.mark.parametrize("share", [2, 3, 16])
def test_mul_share_stretches_only_the_run_and_changes_no_value(share: int) -> None:
    """MulShare = N: the run's steps are N clocks each, so a RUN answers after 2 + N * run
    cycles with the same data, errors and state as with N = 1; the other commands keep their
    cycles; the watchdog counts steps (E_LIMIT at step `limit`, 2 + N * (limit + L) cycles)."""
    words = [random.Random(share).getrandbits(64) for _ in range(3)]
    sims = [fresh(), AntaoSimulator(PARAMS.with_(mul_share=share))]
    source = ("loop 3\nop xsel=IN ysel=ONE d=1 wr=RED pop\nop xsel=A ysel=B a=1 b=1 zsel=A "
              "d=2 wr=RED accwr=1\nop ring=ACC\nop ring=HOP alpha=ACC\nendloop\n"
              "op oacc=OUT\nhalt")
    answers = []
    for sim in sims:
        program = load(sim, source)
        push(sim, *words)
        answers.append((run(sim, program), sim.execute(encode("STATUS")),
                        [list(ram) for ram in sim.proc.ram], list(sim.proc.acc), sim.proc.aacc,
                        list(sim.proc.out_fifo)))
    (plain, plain_status, *plain_state), (shared, shared_status, *shared_state) = answers
    assert shared_state == plain_state
    assert shared_status == plain_status and shared_status.cycles == 1
    assert (shared.err, shared.data) == (plain.err, plain.data) == (0, 6)
    assert shared.cycles == 2 + share * (plain.cycles - 2) > plain.cycles
    program = load(sims[1], "loop 255\nloop 255\nnop\nendloop\nnop\nendloop\nhalt")
    assert sims[1].execute(encode("LIMIT"), 1000).err == 0
    assert t(run(sims[1], program)) == (E["E_LIMIT"], 0, 2, 2 + share * (1000 + L))

"""The simulator's semantics of every instruction, its errors and its timing model."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from montu.arith import gf2m
from montu.isa import encode, load
from montu.backends.sim import Simulator

ISA = load()
ERR = ISA.error_code
FLAG = ISA.flag_bit


def load_reg(sim: Simulator, reg: int, value: int) -> None:
    for j in range(sim.words):
        assert sim.execute(encode("WMMI", rd=reg), (value >> (sim.word_bits * j)) & ((1 << sim.word_bits) - 1)).err == 0


def read_reg(sim: Simulator, reg: int) -> int:
    return sum(sim.execute(encode("RMMI", ra=reg)).data << (sim.word_bits * j) for j in range(sim.words))


def setup(k: int, field: int = 0, word_bits: int = 64) -> Simulator:
    sim = Simulator(word_bits=word_bits)
    assert sim.execute(encode("SETMMI", imm=k, f=field)).err == 0
    return sim


@settings(max_examples=40, deadline=None)
@given(k=st.sampled_from([1, 2, 3, 8, 9, 32, 64]), word_bits=st.sampled_from([32, 64]), data=st.data())
def test_montgomery_multiplication_gfp(k, word_bits, data):
    L = 64 * k
    n = data.draw(st.integers(1, (1 << L) - 1)) | 1
    x = data.draw(st.integers(0, n - 1))
    y = data.draw(st.integers(0, n - 1))
    sim = setup(k, word_bits=word_bits)
    load_reg(sim, 1, n)
    load_reg(sim, 2, x)
    load_reg(sim, 3, y)
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    rsp = sim.execute(encode("STARTMMI", rd=4, ra=2, rb=3))
    assert rsp.err == 0
    assert read_reg(sim, 4) == x * y * pow(2, -L, n) % n
    assert rsp.cycles == ISA.by_name["STARTMMI"].cycle_count(
        k=k, W=L // word_bits, Word=word_bits, Lanes=2, NumRegs=32, MaxWords=4096 // word_bits,
        Pipelined=0, gf2m=0)


def _startmmi(sim: Simulator, k: int, field: int = 0) -> tuple[int, int]:
    """(result, cycles) of one STARTMMI at length 64k on `sim`: 3 * 5 * R^-1 mod n."""
    n = (1 << (64 * k - 1)) | 0x1D
    assert sim.execute(encode("SETMMI", imm=k, f=field)).err == 0
    load_reg(sim, 1, n)
    load_reg(sim, 2, 3)
    load_reg(sim, 3, 5)
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    rsp = sim.execute(encode("STARTMMI", rd=4, ra=2, rb=3))
    assert rsp.err == 0
    return read_reg(sim, 4), rsp.cycles


@pytest.mark.parametrize("lanes", [2, 4])
@pytest.mark.parametrize("word_bits", [32, 64])
@pytest.mark.parametrize("k", [1, 2, 4, 9, 32])
def test_pipelined_startmmi_cycles_follow_the_formula(lanes, word_bits, k):
    sim = Simulator(word_bits=word_bits, lanes=lanes, pipelined=True)
    default = Simulator(word_bits=word_bits, lanes=lanes)
    assert sim.pipelined and not default.pipelined
    z, cycles = _startmmi(sim, k)
    assert z == _startmmi(default, k)[0]   # the same result; only the time differs
    W = 64 * k // word_bits
    assert cycles == ISA.by_name["STARTMMI"].cycle_count(
        k=k, W=W, Word=word_bits, Lanes=lanes, NumRegs=32, MaxWords=4096 // word_bits,
        Pipelined=1, gf2m=0)
    assert sim.execute(encode("MMX", rd=5, ra=2, rb=0, imm=1)).cycles == cycles   # MMX shares it


@pytest.mark.parametrize("k, expected", [(4, 57), (32, 1072)])
def test_pipelined_startmmi_cycles_by_hand(k, expected):
    # Lanes = 2, W words: (W - 1) * max(W, 11) + 2W + 16 (W = 4: 57; W = 32: 31 * 32 + 64 + 16)
    sim = Simulator(word_bits=64, lanes=2, pipelined=True)
    assert _startmmi(sim, k)[1] == expected
    assert _startmmi(sim, k, field=1)[1] == expected   # GF(2^m) takes the same time


def test_pipelined_needs_two_or_four_lanes():
    with pytest.raises(ValueError, match="Pipelined needs Lanes = 2 or 4"):
        Simulator(lanes=1, pipelined=True)
    assert Simulator(lanes=1).cycles_of("STARTMMI") > 0   # without it, one lane is fine


@pytest.mark.parametrize("m", sorted(gf2m.NIST_POLYNOMIALS))
def test_montgomery_multiplication_gf2m(m):
    rng = random.Random(m)
    f = gf2m.NIST_POLYNOMIALS[m]
    k = -(-(m + 1) // 64)
    L = 64 * k
    sim = setup(k, field=1)
    load_reg(sim, 1, f)
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    r_inv = gf2m.inv(gf2m.powmod(2, L, f), f)
    for _ in range(5):
        a, b = rng.getrandbits(m), rng.getrandbits(m)
        load_reg(sim, 2, a)
        load_reg(sim, 3, b)
        assert sim.execute(encode("STARTMMI", rd=4, ra=2, rb=3)).err == 0
        assert read_reg(sim, 4) == gf2m.mulmod(gf2m.mulmod(a, b, f), r_inv, f)


@settings(max_examples=60, deadline=None)
@given(k=st.sampled_from([1, 2, 5]), data=st.data())
def test_integer_and_modular_word_serial_ops(k, data):
    L = 64 * k
    mask = (1 << L) - 1
    n = data.draw(st.integers(3, mask)) | 1
    a = data.draw(st.integers(0, n - 1))
    b = data.draw(st.integers(0, n - 1))
    sim = setup(k)
    load_reg(sim, 1, n)
    load_reg(sim, 2, a)
    load_reg(sim, 3, b)
    sim.execute(encode("SETMOD", ra=1))
    expected = {
        "MADD": ((a + b) % n, None), "MSUB": ((a - b) % n, None), "ADD": ((a + b) & mask, (a + b) >> L),
        "SUB": ((a - b) & mask, int(a < b)), "SHL1": ((a << 1) & mask, a >> (L - 1)),
        "SHR1": (a >> 1, a & 1), "SHLW": ((a << 64) & mask, None), "SHRW": (a >> 64, None),
        "MOV": (a, None), "LDZ": (0, None), "LDONE": (1, None), "MDBL": (2 * a % n, None),
    }
    for name, (value, carry) in expected.items():
        rsp = sim.execute(encode(name, rd=5, ra=2, rb=3))
        assert rsp.err == 0
        assert read_reg(sim, 5) == value, name
        if carry is not None:
            assert (rsp.flags >> FLAG["C"]) & 1 == carry, name
    rsp = sim.execute(encode("CMP", ra=2, rb=3))
    assert (rsp.flags >> FLAG["EQ"]) & 1 == (a == b)
    assert (rsp.flags >> FLAG["LT"]) & 1 == (a < b)


def test_signed_add_sub_sets_sign_of_twos_complement_result():
    sim = setup(1)
    load_reg(sim, 1, 5)
    load_reg(sim, 2, 7)
    rsp = sim.execute(encode("SSUB", rd=3, ra=1, rb=2))
    assert read_reg(sim, 3) == (5 - 7) % 2**64
    assert (rsp.flags >> FLAG["NEG"]) & 1 == 1 and (rsp.flags >> FLAG["C"]) & 1 == 1
    rsp = sim.execute(encode("SADD", rd=3, ra=3, rb=2))
    assert read_reg(sim, 3) == 5 and (rsp.flags >> FLAG["NEG"]) & 1 == 0


def test_gf2m_mode_turns_the_carry_chain_off():
    sim = setup(1, field=1)
    load_reg(sim, 1, 0b1011)
    load_reg(sim, 2, 0b0110)
    for name in ("ADD", "SUB", "SADD", "SSUB"):
        rsp = sim.execute(encode(name, rd=3, ra=1, rb=2))
        assert read_reg(sim, 3) == 0b1101 and rsp.flags & 1 == 0


def test_gf2m_modular_doubling_multiplies_by_x():
    f = gf2m.NIST_POLYNOMIALS[163]
    sim = setup(3, field=1)
    load_reg(sim, 1, f)
    sim.execute(encode("SETMOD", ra=1))
    a = (1 << 162) | 0b101
    load_reg(sim, 2, a)
    sim.execute(encode("MDBL", rd=2, ra=2))
    assert read_reg(sim, 2) == gf2m.mulmod(a, 2, f)


def test_cswap_swaps_only_when_the_chosen_flag_is_set():
    sim = setup(1)
    load_reg(sim, 1, 11)
    load_reg(sim, 2, 22)
    load_reg(sim, 3, 1 << 63)
    sim.execute(encode("SHR1", rd=4, ra=3))       # C = 0
    sim.execute(encode("CSWAP", ra=1, rb=2, imm=FLAG["C"]))
    assert (read_reg(sim, 1), read_reg(sim, 2)) == (11, 22)
    sim.execute(encode("SHL1", rd=4, ra=3))       # C = 1
    first = sim.execute(encode("CSWAP", ra=1, rb=2, imm=FLAG["C"]))
    assert (read_reg(sim, 1), read_reg(sim, 2)) == (22, 11)
    sim.execute(encode("SHR1", rd=4, ra=3))
    second = sim.execute(encode("CSWAP", ra=1, rb=2, imm=FLAG["C"]))
    assert first.cycles == second.cycles


def test_errors_in_precedence_order_and_nothing_changes():
    sim = setup(2)
    load_reg(sim, 1, 12345)
    before = (list(sim.regs), sim.k, sim.flags, sim.wptr, sim.rptr)
    assert sim.execute(0xFF << 24).err == ERR["E_BAD_OPCODE"]
    assert sim.execute(encode("SETMMI", imm=0)).err == ERR["E_BAD_LENGTH"]
    assert sim.execute(encode("SETMMI", imm=65)).err == ERR["E_BAD_LENGTH"]
    assert sim.execute(encode("STARTMMI", rd=2, ra=1, rb=1)).err == ERR["E_NO_MODULUS"]
    load_reg(sim, 3, 10)
    before = (list(sim.regs), sim.k, sim.flags, sim.wptr, sim.rptr)
    assert sim.execute(encode("SETMOD", ra=3)).err == ERR["E_EVEN_MODULUS"]
    assert sim.execute(encode("STARTMMI", rd=2, ra=1, rb=1)).err == ERR["E_NO_MODULUS"]
    assert (list(sim.regs), sim.k, sim.flags, sim.wptr, sim.rptr) == before
    assert sim.execute(encode("NOP")).err == 0


def test_bad_register_with_sixteen_registers():
    sim = Simulator(num_regs=16)
    rsp = sim.execute(encode("MOV", rd=16, ra=0))
    assert rsp.err == ERR["E_BAD_REG"] and rsp.cycles == ISA.error_cycles
    assert sim.execute(encode("MOV", rd=15, ra=0)).err == 0
    # a slot the instruction does not use is not checked
    assert sim.execute(encode("LDZ", rd=1, ra=20, rb=31)).err == 0


def test_writing_the_modulus_register_invalidates_it():
    sim = setup(1)
    load_reg(sim, 1, 97)
    sim.execute(encode("SETMOD", ra=1))
    assert sim.execute(encode("STARTMMI", rd=2, ra=1, rb=1)).err == 0
    sim.execute(encode("MOV", rd=1, ra=2))
    assert sim.execute(encode("STARTMMI", rd=2, ra=1, rb=1)).err == ERR["E_NO_MODULUS"]


def test_wipe_clears_every_register_and_state():
    sim = setup(4)
    for r in range(sim.num_regs):
        load_reg(sim, r, (r + 1) * 0x1234567)
    sim.execute(encode("SETMOD", ra=0))
    assert sim.execute(encode("WIPE")).err == 0
    assert sim.k == 1 and sim.flags == 0 and sim.modulus_reg is None
    sim.execute(encode("SETMMI", imm=64))
    assert all(read_reg(sim, r) == 0 for r in range(sim.num_regs))


def test_words_above_the_length_are_kept():
    sim = setup(2)
    load_reg(sim, 1, (7 << 64) | 5)
    sim.execute(encode("SETMMI", imm=1))
    sim.execute(encode("LDZ", rd=1))
    sim.execute(encode("SETMMI", imm=2))
    assert read_reg(sim, 1) == 7 << 64


def test_minv_inverts_for_odd_and_even_moduli_and_counts_passes():
    import math

    rng = random.Random(11)
    for k in (1, 4, 8):
        sim = setup(k)
        for _ in range(20):
            x = rng.getrandbits(64 * k) | 2
            y = rng.randrange(1, x)
            load_reg(sim, 1, x)
            load_reg(sim, 2, y)
            load_reg(sim, 3, 0xDEAD)
            rsp = sim.execute(encode("MINV", rd=3, ra=2, rb=1))
            if math.gcd(x, y) == 1:
                assert rsp.err == 0 and read_reg(sim, 3) == pow(y, -1, x)
            else:
                assert rsp.err == ERR["E_NO_INVERSE"] and read_reg(sim, 3) == 0xDEAD
            W = k
            if (x | y) & 1:
                assert rsp.cycles >= 64 + W + 5  # at least the load, the Hensel step and a pass
            else:
                assert rsp.cycles == W + 2       # both even: refused while the operands load


def test_minv_rejects_zero_and_both_even_before_any_pass():
    sim = setup(2)
    refused = dict(k=2, W=2, Word=64, Lanes=2, NumRegs=32, MaxWords=64, gf2m=0, passes=0, fixes=0,
                   ok=0)
    base = ISA.by_name["MINV"].cycle_count(**refused, Pipelined=0)
    # the pipelined build registers the load words on the way in: one cycle more
    assert ISA.by_name["MINV"].cycle_count(**refused, Pipelined=1) == base + 1 == 2 + 3
    for x, y in ((0, 5), (7, 0), (10, 4)):
        load_reg(sim, 1, x)
        load_reg(sim, 2, y)
        rsp = sim.execute(encode("MINV", rd=3, ra=2, rb=1))
        assert rsp.err == ERR["E_NO_INVERSE"] and rsp.cycles == base
    assert sim.execute(encode("NOP")).err == 0


def test_minv_gf2m_matches_polynomial_inverse():
    rng = random.Random(5)
    f = gf2m.NIST_POLYNOMIALS[233]
    sim = setup(4, field=1)
    load_reg(sim, 1, f)
    for _ in range(5):
        a = rng.getrandbits(233) or 1
        load_reg(sim, 2, a)
        assert sim.execute(encode("MINV", rd=3, ra=2, rb=1)).err == 0
        assert read_reg(sim, 3) == gf2m.inv(a, f)


@settings(max_examples=300, deadline=None)
@given(k=st.sampled_from([1, 2, 3]), gf=st.sampled_from([0, 1]), data=st.data())
def test_minv_pass_counts_stay_within_the_documented_bounds(k, gf, data):
    from montu.backends.sim.inversion import run_inversion

    L = 64 * k
    x = data.draw(st.integers(1, (1 << L) - 1))
    y = data.draw(st.integers(1, (1 << L) - 1))
    run = run_inversion(y, x, gf2m_mode=bool(gf), word_bits=64)
    from montu.isa import evaluate_formula

    bounds = dict(ISA.by_name["MINV"].bounds)
    assert run.passes <= evaluate_formula(bounds["passes"], {"k": k})
    assert run.fixes <= evaluate_formula(bounds["fixes"], {"gf2m": gf})


def test_minv_one_bit_mode_is_alg3_step_by_step_and_slower():
    from montu.backends.sim.inversion import run_inversion

    rng = random.Random(21)
    for gf in (False, True):
        for _ in range(20):
            x = rng.getrandbits(256) | 1 | (1 << 255)
            y = rng.getrandbits(255) or 1
            fast = run_inversion(y, x, gf2m_mode=gf, word_bits=64)
            paper = run_inversion(y, x, gf2m_mode=gf, word_bits=64, one_bit=True)
            assert paper.inverse == fast.inverse
            assert paper.passes >= fast.passes
    sim = setup(1)
    load_reg(sim, 1, 101)
    load_reg(sim, 2, 7)
    a = sim.execute(encode("MINV", rd=3, ra=2, rb=1))
    b = sim.execute(encode("MINV", rd=4, ra=2, rb=1, imm=1))
    assert a.err == b.err == 0 and read_reg(sim, 3) == read_reg(sim, 4) == pow(7, -1, 101)


def _mlin_imm(ca: int, cb: int) -> int:
    return (ca & 0xF) | ((cb & 0xF) << 4)


@settings(max_examples=60, deadline=None)
@given(k=st.sampled_from([1, 2, 4, 9]), ca=st.integers(-3, 3), cb=st.integers(-3, 3), data=st.data())
def test_mlin_is_the_small_linear_combination_mod_n(k, ca, cb, data):
    """MLIN: rd = ca·ra + cb·rb mod N, fully reduced, for every constant pair and operands < N
    (extremes included), in 2W + 1 cycles, flags unchanged; rd may be ra."""
    L = 64 * k
    n = data.draw(st.one_of(st.just((1 << L) - 1), st.integers(3, (1 << L) - 1))) | 1
    a = data.draw(st.one_of(st.just(0), st.just(n - 1), st.integers(0, n - 1)))
    b = data.draw(st.one_of(st.just(0), st.just(n - 1), st.integers(0, n - 1)))
    sim = setup(k)
    for reg, value in ((1, n), (2, a), (3, b)):
        load_reg(sim, reg, value)
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    flags = sim.flags
    rsp = sim.execute(encode("MLIN", rd=4, ra=2, rb=3, imm=_mlin_imm(ca, cb)))
    assert rsp.err == 0 and rsp.flags == flags
    assert rsp.cycles == 2 * (L // 64) + 1
    assert read_reg(sim, 4) == (ca * a + cb * b) % n
    assert sim.execute(encode("MLIN", rd=2, ra=2, rb=3, imm=_mlin_imm(ca, cb))).err == 0
    assert read_reg(sim, 2) == (ca * a + cb * b) % n


def test_mlin_in_gf2m_takes_the_constants_mod_2():
    rng = random.Random(5)
    f = gf2m.NIST_POLYNOMIALS[283]
    sim = setup(5, field=1)
    a, b = rng.getrandbits(283), rng.getrandbits(283)
    for reg, value in ((1, f), (2, a), (3, b)):
        load_reg(sim, reg, value)
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    for ca in range(-3, 4):
        for cb in range(-3, 4):
            assert sim.execute(encode("MLIN", rd=4, ra=2, rb=3, imm=_mlin_imm(ca, cb))).err == 0
            assert read_reg(sim, 4) == (a if ca % 2 else 0) ^ (b if cb % 2 else 0)


def test_mlin_rejects_constants_beyond_three_and_changes_nothing():
    sim = setup(1)
    load_reg(sim, 1, 101)
    load_reg(sim, 2, 7)
    load_reg(sim, 4, 55)
    assert sim.execute(encode("MLIN", rd=4, ra=2, rb=2, imm=_mlin_imm(1, 1))).err == ERR["E_NO_MODULUS"]
    assert sim.execute(encode("SETMOD", ra=1)).err == 0
    for imm in (_mlin_imm(4, 0), _mlin_imm(0, 4), _mlin_imm(-4, 1), _mlin_imm(1, -8), 0x77):
        rsp = sim.execute(encode("MLIN", rd=4, ra=2, rb=2, imm=imm))
        assert rsp.err == ERR["E_BAD_IMM"] and rsp.cycles == ISA.error_cycles
        assert read_reg(sim, 4) == 55
    assert sim.execute(encode("MLIN", rd=4, ra=2, rb=2, imm=_mlin_imm(3, 3))).err == 0
    assert read_reg(sim, 4) == 42

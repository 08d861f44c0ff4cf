"""The antao engine through the engine contract (montu.engines.open("antao")) on its cycle-exact
model: Algorithm 1 bit-exact with the golden model (montu.arith.antao) — the residues of every
step, not only the result —, modular multiplication and exponentiation against Python, EC point
multiplication on P-224 and P-256 against the affine oracle, the constant-time ladders measured,
the errors, and user microprograms."""

from __future__ import annotations

import random
from operator import mul

import pytest

import montu.engines
from montu.arith import antao as golden
from montu.arith.antao_alg1 import Tally, montgomery_constants
from montu.arith.antao_ec import P256, P256_GENERATOR, Curve, ec_scalar_mult_oracle
from montu.arith.antao_rns import alpha_hat, to_rns
from montu.arith.field import Field
from montu.engines.antao import AntaoError, AntaoModulusError, AssemblyError, host, params_for_bits

P224 = Curve(p=2**224 - 2**96 + 1, a=2**224 - 2**96 + 1 - 3,
             b=0xB4050A850C04B3ABF54132565044B0B7D7BFD8BA270B39432355FFB4)
P224_GENERATOR = (0xB70E0CBD6BB4BF7F321390B94A03C1D356C21122343280D6115C1D21,
                  0xBD376388B5F723FB4C22DFE6CD4375A05A07476444D5819985007E34)


def modulus(rng: random.Random, bits: int) -> int:
    return rng.getrandbits(bits) | 1 | (1 << (bits - 1))


def test_the_engine_is_registered_with_its_commands() -> None:
    entry = montu.engines.get("antao")
    assert entry.core == "montu:ip:antao" and entry.top == "antao_top"
    assert entry.can("derive") and entry.can("sign") and not entry.can("modinv")
    assert entry.fields == ("gfp",) and entry.constant_time


@pytest.mark.parametrize("bits, w", [(192, 64), (512, 96), (1024, 64)])
def test_algorithm_1_is_bit_exact_with_the_golden_model_step_by_step(bits: int, w: int) -> None:
    """rns_mont_mul runs the montmul entry: the residues the PEs leave of s1 (step 1's input),
    q1 (step 1), xi2 (step 4), u2 (step 3) and u1 (step 5) equal the golden model's, and the CRT
    gives the golden mont_mul's u."""
    rng = random.Random(bits)
    engine = montu.engines.open("antao", bits=bits, w=w)
    sim, bases = engine.backend, engine.bases
    b1, b2, r = bases.base1, bases.base2, bases.alpha_bits
    symbols = host.modexp_program(engine.params).symbols
    for trial in range(4):
        n = modulus(rng, bits)
        x, y = [(0, 4 * n - 1), (4 * n - 1, 4 * n - 1), (1, 1)][trial] if trial < 3 else \
            (rng.randrange(4 * n), rng.randrange(4 * n))
        u = engine.rns_mont_mul(x, y, n)
        assert u == golden.mont_mul(x, y, n, bases)[0]
        c = montgomery_constants(n, bases)
        xr, yr = to_rns(x, bases), to_rns(y, bases)
        s1 = [a * b % m for a, b, m in zip(xr.residues1, yr.residues1, b1)]
        q1 = [s * lam % m for s, lam, m in zip(s1, c.lambda1, b1)]
        expect = golden.mont_mul_rns(xr, yr, c, Tally())
        q2 = [(sum(map(mul, q1, row)) + alpha_hat(q1, w, r, 0) * aw) * lam % m
              for row, aw, lam, m in zip(c.lambda2, c.alpha1_weight, c.lambda3, b2)]
        u2 = [(a * b % m + q) * lam % m
              for a, b, q, lam, m in zip(xr.residues2, yr.residues2, q2, c.lambda4, b2)]
        xi2 = [v * lam % m for v, lam, m in zip(u2, c.lambda5, b2)]
        ram = sim.proc.ram
        held = {name: [ram[e][symbols[name]] for e in range(len(b1))]
                for name in ("S1", "Q1", "XI2", "A1", "A2")}
        assert held["S1"] == s1 and held["Q1"] == q1 and held["XI2"] == xi2
        assert held["A2"] == u2 == list(expect.residues2)
        assert held["A1"] == list(expect.residues1)


def test_mod_mul_and_mod_exp_equal_python_on_edge_and_random_operands() -> None:
    rng = random.Random(5)
    engine = montu.engines.open("antao", bits=521)
    for bits in (3, 64, 65, 300, 521):
        n = modulus(rng, bits) if bits > 3 else 7
        for x, y in ((0, n - 1), (1, 1), (n - 1, n - 1), (rng.randrange(n), rng.randrange(n))):
            assert engine.mod_mul(x, y, n) == x * y % n
        for e in (0, 1, 2, (1 << bits) - 1, rng.getrandbits(bits)):
            base = rng.randrange(n)
            assert engine.mod_exp(base, e, n) == pow(base, e, n)
            assert engine.mod_exp(base, e, n, ladder=False) == pow(base, e, n)


def test_the_ladder_takes_the_same_cycles_for_every_exponent() -> None:
    rng = random.Random(9)
    engine = montu.engines.open("antao", bits=512)
    n = modulus(rng, 512)
    exponents = [0, 1, (1 << 512) - 1 if (1 << 512) - 1 < (1 << 512) else 1, 1 << 511,
                 *(rng.getrandbits(512) for _ in range(20))]
    cycles = set()
    for e in exponents:
        assert engine.mod_exp(3, e, n) == pow(3, e, n)
        cycles.add(engine.core_cycles)
    assert len(cycles) == 1, cycles
    plain = set()
    for e in (1 << 511, (1 << 512) - 1):
        engine.mod_exp(3, e, n, ladder=False)
        plain.add(engine.core_cycles)
    assert len(plain) == 2            # square-and-multiply follows the bits (public exponents only)


@pytest.mark.parametrize("curve, point", [(P224, P224_GENERATOR), (P256, P256_GENERATOR)],
                         ids=["P-224", "P-256"])
def test_ec_point_multiplication_equals_the_oracle_in_constant_cycles(curve: Curve, point) -> None:
    rng = random.Random(curve.p.bit_length())
    engine = montu.engines.open("antao", **params_for_bits(curve.p.bit_length()))
    order_like = 1 << curve.p.bit_length()
    cycles = set()
    extra = 16 if curve is P256 else 2        # >= 20 scalars on P-256 for the constant-time check
    scalars = [1, 2, 3, order_like - 1, *(rng.randrange(order_like) for _ in range(extra))]
    for i, k in enumerate(scalars):
        got = engine.scalar_mult(curve, k, point)
        if i < 6:     # the oracle is slow in Python; the rest only for the cycles
            assert got == ec_scalar_mult_oracle(k, point, curve)
        cycles.add(engine.core_cycles)
    assert len(cycles) == 1, cycles
    assert engine.scalar_mult(curve, 0, point) is None
    named = "P-256" if curve is P256 else "P-224"
    assert engine.scalar_mult(named, 1) == point      # a montu.ec curve name: its generator


def test_bad_input_is_refused_with_a_message_and_the_engine_stays_usable() -> None:
    engine = montu.engines.open("antao", bits=256)
    n = (1 << 255) | 12345
    with pytest.raises(AntaoModulusError, match="odd"):
        engine.mod_exp(2, 3, n + 1)
    with pytest.raises(AntaoModulusError, match="longer than this antao build"):
        engine.mod_mul(1, 1, (1 << 400) | 1)
    with pytest.raises(AntaoError, match=r"base must be in \[0, n\)"):
        engine.mod_exp(n, 3, n)
    with pytest.raises(AntaoError, match="exponent must be below"):
        engine.mod_exp(2, 1 << 256, n)
    with pytest.raises(AntaoError, match=r"x must be in \[0, 4N\)"):
        engine.rns_mont_mul(4 * n, 1, n)
    with pytest.raises(AntaoError, match="GF\\(p\\) only"):
        engine.mod_mul(1, 1, n, field=Field.GF2M)
    with pytest.raises(AntaoError, match="not on the curve"):
        engine.scalar_mult(P256, 3, (1, 2))
    with pytest.raises(AntaoError, match="GF\\(p\\) only"):
        engine.scalar_mult("sect283k1", 3)
    with pytest.raises(TypeError, match="must be an int"):
        engine.mod_mul(1.0, 1, n)
    assert engine.mod_exp(2, 10, n) == 1024


def test_a_run_error_raises_and_a_user_program_runs() -> None:
    engine = montu.engines.open("antao")
    program = engine.assemble("""
        .var X
        main:
          op d=X xsel=IN ysel=ONE wr=RED pop     ; X = IN mod m1 in every PE
          loop P ring=LOAD a=X alpha=HALF
            op ring=HOP alpha=ACC
          endloop
          halt
    """)
    engine.run(program, [0], entry="main")
    with pytest.raises(AntaoError, match="E_IN"):
        engine.run(program, [], entry="main")
    with pytest.raises(AssemblyError):
        engine.assemble("mul 1, 2")
    n = (1 << 200) | 1
    assert engine.mod_exp(7, 5, n) == pow(7, 5, n)      # reloads its own program and constants


def test_mul_share_is_a_checked_parameter_passed_only_when_it_shares() -> None:
    from montu.engines.antao.params import AntaoParams

    for bad in (0, 17):
        with pytest.raises(ValueError, match="MulShare must be in 1..16"):
            AntaoParams(mul_share=bad)
    assert "MulShare" not in AntaoParams().generics
    assert AntaoParams(mul_share=4).generics["MulShare"] == 4


def test_the_mult18x18d_count_follows_the_rtl() -> None:
    """The count of params.mult18x18d, by hand from the RTL: antao_mul's ceil(W/18)^2 limb
    products (limbs of ceil(W / ceil(W/18)) bits: 16 for W = 64 and 96, 17 for W = 68), the
    reduction's folds (hi(SUM), W + 8 bits, and hi(V1), W/4 + 9 bits, times c of W/4 bits, in
    18-bit pieces) per PE, and ALPHA x D[LP] (8 x W bits) once. Shared (MulShare
    = N > 1), a product of KA x KB limbs in B blocks takes min(ceil(KA/B) * KB, ceil(KB/B) * KA)
    multipliers (antao_mul_share: a block of one operand's limbs times all of the other per
    clock): B = N for X * Y (Pipelined: its last block is added in the next step), B = N - 1 for
    the folds and ALPHA x D[LP] (InStep: needed in their own step, the last clock only adds). 92
    for the P-224 build is Yosys's figure in docs/engines.md (tests/hw/test_antao_cocotb.py
    compares the count with Yosys on small builds)."""
    from montu.engines.antao.params import EC224, AntaoParams

    assert EC224.mult18x18d == 4 * (16 + 4 * 1 + 2 * 1) + 4 == 92
    # W = 68: X * Y in 4 x 4 limbs of 17 bits; fold 1 (76 x 17 bits) in 5 pieces; ALPHA x D 4
    assert AntaoParams(w=68, pes=4).mult18x18d == 4 * (16 + 5 * 1 + 2 * 1) + 4 == 96
    assert AntaoParams(w=96, pes=6).mult18x18d == 6 * (36 + 6 * 2 + 2 * 2) + 6 == 318
    # fold 1: 6 x 2 limbs in 2 blocks (6); fold 2: 2 x 2 in 2 (2); ALPHA x D: 1 x 6 in 2 (3)
    assert AntaoParams(w=96, pes=6, mul_share=3).mult18x18d == 6 * (12 + 6 + 2) + 3 == 123
    # MulShare = 2: the folds and ALPHA x D take every limb product (one block)
    assert AntaoParams(w=96, pes=6, mul_share=2).mult18x18d == 6 * (18 + 12 + 4) + 6 == 210
    assert AntaoParams(w=96, pes=11, mul_share=5).mult18x18d == 11 * (12 + 4 + 2) + 2 == 200
    assert AntaoParams(w=96, pes=11, mul_share=6).mult18x18d == 11 * (6 + 4 + 2) + 2 == 134
    # a block holds at least one limb: past N = KA the count stops falling (6 x 6 limbs: 6)
    assert AntaoParams(w=96, pes=22, mul_share=12).mult18x18d == 22 * (6 + 2 + 2) + 1 == 221


@pytest.mark.parametrize("bits, share", [(192, 1), (224, 1), (256, 1), (384, 1), (512, 2), (640, 2),
                                         (1024, 3), (1152, 3)])
def test_builds_take_the_smallest_mul_share_that_fits_the_ecp5_85(bits: int, share: int) -> None:
    """params_for_bits / build_for_bits: the EC builds (64- or 68-bit channels) fit as they are;
    the RSA builds take the smallest MulShare whose MULT18X18D fit 156 with a 10 % margin."""
    from montu.engines.antao.params import DSP_BUDGET, ECP5_85_MULT18X18D

    params = montu.engines.open("antao", **params_for_bits(bits)).params
    assert params.mul_share == share
    assert params.mult18x18d <= DSP_BUDGET < ECP5_85_MULT18X18D
    if share > 1:
        assert params.with_(mul_share=share - 1).mult18x18d > DSP_BUDGET
    explicit = montu.engines.open("antao", **params_for_bits(bits), mul_share=1).params
    assert explicit.mul_share == 1 and explicit.pes == params.pes


@pytest.mark.parametrize("bits, w, pes", [(160, 64, 3), (192, 68, 3), (224, 64, 4), (256, 68, 4),
                                          (257, 88, 3), (384, 52, 8), (512, 68, 8), (1024, 52, 20),
                                          (2048, 96, 22)])
def test_builds_take_the_channel_width_of_the_fewest_clocks(bits: int, w: int, pes: int) -> None:
    """Up to 256 bits the paper's 64-bit channels, unless 68-bit channels (four 17-bit limbs: the
    same 16 MULT18X18D for X * Y) take the modulus with fewer PEs; above, the width whose build
    fits the DSP budget with the shortest ladder step (2048 bits: none fits, the paper's 96)."""
    params = montu.engines.open("antao", **params_for_bits(bits)).params
    assert (params.w, params.pes) == (w, pes)


def test_a_build_no_mul_share_fits_is_left_unshared() -> None:
    """2048-bit RSA needs 22 PEs of 96 bits: at least 22 * 10 + 1 = 221 MULT18X18D with any
    MulShare, more than the ECP5-85 has, so the build keeps MulShare = 1 (the paper's
    architecture, the fewest cycles): sharing would only make a build that cannot fit slower."""
    from montu.engines.antao.params import ECP5_85_MULT18X18D, MAX_MUL_SHARE

    params = montu.engines.open("antao", **params_for_bits(2048)).params
    assert params.pes == 22 and params.mul_share == 1
    assert min(params.with_(mul_share=n).mult18x18d
               for n in range(1, MAX_MUL_SHARE + 1)) == 221 > ECP5_85_MULT18X18D


def test_a_shared_build_computes_the_same_values_in_mul_share_times_the_run_cycles() -> None:
    """The 512-bit RSA build with its MulShare (2) against the same build without: the same
    values, and every RUN's cycles 2 + 2 * (run) where the unshared build's are 2 + run."""
    rng = random.Random(11)
    shared = montu.engines.open("antao", **params_for_bits(512))
    plain = montu.engines.open("antao", **params_for_bits(512), mul_share=1)
    assert (shared.params.mul_share, plain.params.mul_share) == (2, 1)
    n = modulus(rng, 512)
    x, y = rng.randrange(n), rng.randrange(n)
    assert shared.mod_mul(x, y, n) == plain.mod_mul(x, y, n) == x * y % n
    assert shared.core_cycles - 2 == 2 * (plain.core_cycles - 2)
    assert shared.last_cycles > plain.last_cycles


def _ladder_cycles(bits: int, w: int) -> int:
    """Core cycles of the constant-time modexp (ladder) on the `bits`-bit build of width `w`."""
    from montu.engines.antao import build_for_bits

    engine = montu.engines.open("antao", **vars(build_for_bits(bits, w)))
    n = modulus(random.Random(bits), bits)
    assert engine.mod_exp(3, n - 2, n) == pow(3, n - 2, n)
    return engine.core_cycles


def test_the_rsa_width_is_the_fastest_fitting_one_on_the_simulator() -> None:
    """rsa_channel_bits ranks widths by AntaoParams.pair_clocks; the simulator's modexp agrees:
    at 512 bits, over every width that fits the DSP budget, the chosen one runs in the fewest
    cycles, and fewer pair clocks always mean fewer cycles."""
    from montu.engines.antao import build_for_bits
    from montu.engines.antao.engine import RSA_WIDTHS, rsa_channel_bits
    from montu.engines.antao.params import DSP_BUDGET

    fitting = []
    for w in RSA_WIDTHS:
        try:
            build = build_for_bits(512, w)
        except ValueError:
            continue
        if build.mult18x18d <= DSP_BUDGET:
            fitting.append((build.pair_clocks, w))
    assert len(fitting) >= 10
    cycles = {w: _ladder_cycles(512, w) for _, w in fitting}
    chosen = rsa_channel_bits(512)
    assert cycles[chosen] == min(cycles.values())
    # fewer clocks per pair, fewer cycles (equal pair clocks differ only in the setup's few)
    assert all(cycles[w1] < cycles[w2] for c1, w1 in fitting for c2, w2 in fitting if c1 < c2)


def test_the_1024_bit_width_beats_the_papers_96_bits() -> None:
    """The 1024-bit build (52-bit channels) against 72 and the paper's 96 (simulator cycles)."""
    from montu.engines.antao.engine import rsa_channel_bits

    chosen = rsa_channel_bits(1024)
    assert chosen == 52
    assert _ladder_cycles(1024, chosen) < _ladder_cycles(1024, 72) < _ladder_cycles(1024, 96)

"""The Python EC stack's unit programs as C tables for the firmware: one description, two users.

`montu.ec` builds its straight-line command programs once per curve (the window and comb over
GF(p), the López–Dahab ladder over GF(2^m), the on-curve checks, the affine additions of public
points, and ECDSA's programs modulo n). The Python driver sends them with `Unit.send_many`; this
module writes the very same instruction words into `fw/include/montu_ec_programs.h` together with
the register numbers, the curve constants and the positions of the compares the firmware reads
(`fw/lib/ec.c`, `fw/lib/ec_binary.c` and `fw/lib/ecdsa.c` run them).

The binary ladder repeats one block per scalar bit; it is written as its pieces (start, step,
last swap, y recovery), and `_ladder_pieces` checks that start + steps × step + last + recovery is
exactly `binary.ladder_program`'s command list for every length the firmware runs.

    python3 -m montu.soc.programs          # rewrite the header
    python3 -m montu.soc.programs --check  # exit 1 if it is out of date (tests run this)
"""

from __future__ import annotations

import argparse
import sys

from montu.arith import gf2m
from montu.ec import binary, comb, comb_tables, ecdsa, prime, window
from montu.ec.curves import Curve, get_curve
from montu.ec.program import Program, Registers
from montu.paths import repo_root

HEADER = repo_root() / "fw" / "include" / "montu_ec_programs.h"
PRIME_CURVES = {"P-256": "p256"}          # curve -> the C names' infix
BINARY_CURVES = {"sect283k1": "sect283k1"}
WINDOW_REGS = ("R2", "TX0", "TY0", "IDX", "SGN", "XA", "YA")
COMB_REGS = ("START_Z",)
ON_CURVE_REGS = ("R2", "XP", "YP", "A", "B")
PRIME_ADD_REGS = ("A", "XA", "YA", "XB", "YB")
BINARY_REGS = ("R2", "A", "B", "XP", "YP", "XA", "YA", "ZA", "XB", "YB", "F0")
ECDSA_REGS = ("R2", "K", "BETA", "E", "R", "D", "S", "X")
COMB_CANDIDATES = 2          # x candidates r + j·n below p (P-256: one or two)
BINARY_CANDIDATES = 5        # below 2^m (cofactor 4: four or five)


def _words(value: int, words: int) -> str:
    return "{" + ", ".join(f"0x{(value >> (64 * i)) & (2**64 - 1):016x}ull" for i in range(words)) + "}"


def _insns(name: str, commands: list[tuple[int, int]]) -> list[str]:
    if any(data for _, data in commands):
        raise ValueError(f"{name}: a program with data words cannot be a table of instruction words")
    lines = [f"static const uint32_t {name}[{len(commands)}] = {{"]
    for start in range(0, len(commands), 6):
        lines.append("  " + ", ".join(f"0x{insn:08x}u" for insn, _ in commands[start:start + 6]) + ",")
    lines.append("};")
    return lines


def _regs(prefix: str, regs: Registers, names: tuple[str, ...], **renamed: str) -> list[str]:
    """`#define prefix_NAME number` for each name (renamed: C name -> register name)."""
    pairs = [(name, name) for name in names if name not in renamed] + list(renamed.items())
    return [f"#define {prefix}_{c_name} {regs[reg]}" for c_name, reg in pairs]


def _constant(name: str, value: int, words: int) -> str:
    return f"static const uint64_t {name}[{words}] = {_words(value, words)};"


def _one_position(name: str, positions: list[int]) -> int:
    if len(positions) != 1:
        raise ValueError(f"{name}: expected one exceptional-addition check")
    return positions[0]


def _positions(name: str, positions: list[int]) -> str:
    return (f"static const uint16_t {name}[{len(positions)}] = "
            "{" + ", ".join(str(p) for p in positions) + "};")


def _same_registers(*registers: Registers) -> None:
    """Every program family keeps R² in R1 (the firmware's sessions load it there)."""
    if any(regs["R2"] != 1 for regs in registers):
        raise ValueError("the firmware expects R² in R1 for every program family")


# ---------------------------------------------------------------------------------------------
# GF(p): the window (variable base), the comb (k·G), the on-curve check, affine additions
# ---------------------------------------------------------------------------------------------

def _prime_shared() -> list[str]:
    lines = ["/* Registers of the window and comb programs (montu.ec.comb.REGS; R0 is the modulus) */"]
    lines += _regs("MONTU_EC_REG", comb.REGS, WINDOW_REGS, START_Z=comb.START_Z)
    lines += [f"#define MONTU_EC_TABLE_BITS {comb.TABLE_BITS}", f"#define MONTU_EC_WIDTH {window.WIDTH}", "",
              "/* The on-curve check over GF(p) (montu.ec.prime; its last command compares y² with",
              " * x³ + a·x + b: EQ = on the curve) and its registers */"]
    lines += _regs("MONTU_EC_ONC_REG", prime.REGS, ON_CURVE_REGS)
    lines += [*_insns("montu_ec_on_curve", prime._on_curve_program().commands), ""]  # noqa: SLF001
    cmp_x, cmp_y, add, dbl = prime._add_programs()  # noqa: SLF001
    lines += ["/* P + Q of public affine points over GF(p) (montu.ec.prime._add_programs, run as",
              " * montu.ec.session.add_affine does: CMP of x, CMP of y, then the addition or the doubling;",
              " * plain values in and out, MINV on public values) */"]
    lines += _regs("MONTU_EC_PRIME_REG", prime.REGS, PRIME_ADD_REGS)
    lines += [*_insns("montu_ec_prime_cmp_x", cmp_x.commands),
              *_insns("montu_ec_prime_cmp_y", cmp_y.commands),
              *_insns("montu_ec_prime_add", add.commands),
              *_insns("montu_ec_prime_dbl", dbl.commands), ""]
    compare, compares = comb.x_compare_program(COMB_CANDIDATES)
    lines += ["/* After the projective comb: CMP of X with c·Z² for candidates c in TX0, TX1 (EQ at",
              " * either position: x = c; montu.ec.comb.x_compare_program) */",
              f"#define MONTU_EC_COMB_CANDIDATES {COMB_CANDIDATES}",
              _positions("montu_ec_comb_x_compares", compares),
              *_insns("montu_ec_comb_x_compare", compare.commands), ""]
    return lines


def _prime_curve(name: str, c: str) -> list[str]:
    curve = get_curve(name)
    if not window.supported(curve) or not comb.supported(curve) or not comb.has_stored_table(curve):
        raise ValueError(f"{name}: the window and stored comb programs do not support this curve")
    words = -(-curve.modulus.bit_length() // 64)
    length_bits = 64 * words
    main, window_compares = window.main_program(curve)
    fixed, comb_compares = comb.comb_program(curve, length_bits)
    projective, projective_compares = comb.projective_program(curve, length_bits)
    table = comb_tables.TABLES[curve.name]
    upper = c.upper()
    return [f"/* {curve.name} */",
            f"#define MONTU_EC_{upper}_WORDS {words}",
            f"#define MONTU_EC_{upper}_DIGITS {window.digits(curve)}",
            f"#define MONTU_EC_{upper}_COLUMNS {comb.columns(curve)}",
            f"#define MONTU_EC_{upper}_CHECK {_one_position(name, window_compares)}"
            "  /* main program: CMP(H, 0), EQ = exceptional */",
            f"#define MONTU_EC_{upper}_COMB_CHECK {_one_position(name, comb_compares)}"
            "  /* comb program: CMP(Z, 0), EQ = exceptional */",
            f"#define MONTU_EC_{upper}_PROJECTIVE_CHECK {_one_position(name, projective_compares)}"
            "  /* projective comb: the same */",
            _constant(f"montu_ec_{c}_p", curve.modulus, words),
            _constant(f"montu_ec_{c}_n", curve.n, words),
            _constant(f"montu_ec_{c}_gx", curve.gx, words),
            _constant(f"montu_ec_{c}_gy", curve.gy, words),
            _constant(f"montu_ec_{c}_a", curve.a, words),
            _constant(f"montu_ec_{c}_b", curve.b, words),
            "/* the comb table T[0..7] of G (affine, plain: montu.ec.comb_tables) */",
            f"static const uint64_t montu_ec_{c}_comb_x[{len(table)}][{words}] = {{",
            *[f"  {_words(x, words)}," for x, _ in table], "};",
            f"static const uint64_t montu_ec_{c}_comb_y[{len(table)}][{words}] = {{",
            *[f"  {_words(y, words)}," for _, y in table], "};",
            *_insns(f"montu_ec_{c}_table", window.table_program(curve).commands),
            *_insns(f"montu_ec_{c}_main", main.commands),
            *_insns(f"montu_ec_{c}_comb", fixed.commands),
            *_insns(f"montu_ec_{c}_comb_projective", projective.commands), ""]


# ---------------------------------------------------------------------------------------------
# GF(2^m): the López–Dahab ladder in pieces, the on-curve check, affine additions
# ---------------------------------------------------------------------------------------------

def _ladder_step(curve: Curve) -> tuple[Program, Program]:
    """One ladder step (SHL1 of F0, the two CSWAPs, Madd + Mdouble) and the last swap."""
    step = Program(binary.REGS)
    step.shift_flag("F0")
    step.cswap("XA", "XB")
    step.cswap("ZA", "ZB")
    binary._step(step, curve.b == 1)  # noqa: SLF001
    last = Program(binary.REGS)
    last.shift_flag("F0")
    last.cswap("XA", "XB")
    last.cswap("ZA", "ZB")
    return step, last


def _ladder_pieces(curve: Curve, steps: int, length_bits: int, recover_y: bool,
                   randomized: bool) -> tuple[list, list]:
    """(start, end) of `binary.ladder_program`: the commands before the first step and after the
    last swap; checks that start + steps × step + last + end is the whole program."""
    if steps + 1 > length_bits:
        raise ValueError(f"{curve.name}: the ladder's flags need more than one register (F0)")
    whole = binary.ladder_program(curve, steps, length_bits, recover_y, randomized).commands
    step, last = _ladder_step(curve)
    middle = len(step.commands) * steps + len(last.commands)
    start_count = next(i for i, command in enumerate(whole) if command == step.commands[0])
    start, end = whole[:start_count], whole[start_count + middle:]
    if start + step.commands * steps + last.commands + end != whole:
        raise ValueError(f"{curve.name}: the ladder program is not start + steps × step + end")
    return start, end


def _binary_shared(curve: Curve) -> list[str]:
    cmp_x, cmp_y, add, dbl = binary._add_programs()  # noqa: SLF001
    compare, compares, infinity = binary._x_compare_program(BINARY_CANDIDATES)  # noqa: SLF001
    candidates = binary._CANDIDATE_REGS[:BINARY_CANDIDATES]  # noqa: SLF001
    step, last = _ladder_step(curve)
    return ["/* GF(2^m) programs (montu.ec.binary; R0 is the reduction polynomial f, values in",
            " * Montgomery form R = x^L inside the programs, plain outside) and their registers */",
            *_regs("MONTU_EC_BIN_REG", binary.REGS, BINARY_REGS, START_Z=binary.START_Z),
            "/* the on-curve check: its last command compares y² + x·y with x³ + a·x² + b (EQ) */",
            *_insns("montu_ec_bin_on_curve", binary._on_curve_program().commands),  # noqa: SLF001
            "/* P + Q of public affine points: CMP x, CMP y, addition or doubling (add_affine) */",
            *_insns("montu_ec_bin_cmp_x", cmp_x.commands), *_insns("montu_ec_bin_cmp_y", cmp_y.commands),
            *_insns("montu_ec_bin_add", add.commands), *_insns("montu_ec_bin_dbl", dbl.commands),
            "/* One ladder step (flag, swaps, Madd + Mdouble) and the last swap (montu.ec.binary) */",
            *_insns("montu_ec_bin_ladder_step", step.commands),
            *_insns("montu_ec_bin_ladder_last", last.commands),
            "/* After an x-only ladder: Z compared with 0 (EQ: the point at infinity) */",
            *_insns("montu_ec_bin_is_zero", binary._is_zero_program().commands),  # noqa: SLF001
            "/* After an x-only ladder: CMP of X with c·Z for the plain candidates c in the registers",
            " * below (EQ at a position of montu_ec_bin_x_compares: x = c), then CMP of Z with 0 at",
            " * MONTU_EC_BIN_X_INFINITY (EQ: the point at infinity; binary._x_compare_program) */",
            f"#define MONTU_EC_BIN_CANDIDATES {BINARY_CANDIDATES}",
            f"#define MONTU_EC_BIN_X_INFINITY {infinity}",
            f"static const uint8_t montu_ec_bin_candidate_regs[{BINARY_CANDIDATES}] = "
            "{" + ", ".join(str(binary.REGS[reg]) for reg in candidates) + "};",
            _positions("montu_ec_bin_x_compares", compares),
            *_insns("montu_ec_bin_x_compare", compare.commands), ""]


def _binary_curve(name: str, c: str) -> list[str]:
    curve = get_curve(name)
    if curve.b != 1:
        raise ValueError(f"{name}: the firmware's ladder is the one for b = 1 (no √b)")
    m = gf2m.degree(curve.modulus)
    words = -(-(m + 1) // 64)
    length_bits = 64 * words
    steps = curve.n.bit_length()
    upper = c.upper()
    mul_start, recovery = _ladder_pieces(curve, steps, length_bits, True, False)
    x_start, x_end = _ladder_pieces(curve, steps - 1, length_bits, False, False)
    random_start, random_end = _ladder_pieces(curve, steps, length_bits, False, True)
    if x_start != mul_start or x_end or random_end:
        raise ValueError(f"{name}: unexpected ladder pieces")
    return [f"/* {curve.name}: k·P is start + STEPS × step + last + recovery for a scalar of STEPS + 1",
            " * bits (k + n or k + 2n); n·Q (the subgroup check) is start + (STEPS − 1) steps + last,",
            " * then montu_ec_bin_is_zero; the signature check's k·G is random_start + STEPS steps",
            " * + last, then montu_ec_bin_x_compare */",
            f"#define MONTU_EC_{upper}_WORDS {words}",
            f"#define MONTU_EC_{upper}_M {m}",
            f"#define MONTU_EC_{upper}_STEPS {steps}",
            f"#define MONTU_EC_{upper}_COFACTOR {curve.h}",
            _constant(f"montu_ec_{c}_f", curve.modulus, words),
            _constant(f"montu_ec_{c}_n", curve.n, words),
            _constant(f"montu_ec_{c}_gx", curve.gx, words),
            _constant(f"montu_ec_{c}_gy", curve.gy, words),
            _constant(f"montu_ec_{c}_a", curve.a, words),
            _constant(f"montu_ec_{c}_b", curve.b, words),
            *_insns(f"montu_ec_{c}_ladder_start", mul_start),
            *_insns(f"montu_ec_{c}_ladder_random_start", random_start),
            *_insns(f"montu_ec_{c}_ladder_recovery", recovery), ""]


# ---------------------------------------------------------------------------------------------
# ECDSA modulo n (montu.ec.ecdsa)
# ---------------------------------------------------------------------------------------------

def _last_register(regs: Registers) -> int:
    numbers = sorted({regs[name] for name in regs._number})  # noqa: SLF001
    if numbers != list(range(1, len(numbers) + 1)):
        raise ValueError("expected registers R1 .. Rn")
    return numbers[-1]


def _ecdsa_shared() -> list[str]:
    check, (constant, relation) = ecdsa._signature_check_program()  # noqa: SLF001
    field_check, (field_constant,) = ecdsa._field_constant_check_program()  # noqa: SLF001
    return ["/* ECDSA modulo n (montu.ec.ecdsa; R0 = n, plain values in and out) and its registers */",
            *_regs("MONTU_EC_MODN_REG", ecdsa.REGS, ECDSA_REGS),
            f"#define MONTU_EC_MODN_REG_LAST {_last_register(ecdsa.REGS)}  /* they use R1 .. LAST */",
            "/* w = s⁻¹, u1 = e·w into K, u2 = r·w into D */",
            *_insns("montu_ec_verify_scalars", ecdsa._verify_scalars_program().commands),  # noqa: SLF001
            "/* The check before release: R² of n right (EQ at CONSTANT) and s·k = e + r·d (EQ at",
            " * RELATION) */",
            f"#define MONTU_EC_SIGNATURE_CHECK_CONSTANT {constant}",
            f"#define MONTU_EC_SIGNATURE_CHECK_RELATION {relation}",
            *_insns("montu_ec_signature_check", check.commands),
            "/* R² of the field modulus right (run in the field's session; EQ at the position) */",
            f"#define MONTU_EC_FIELD_CHECK_CONSTANT {field_constant}",
            *_insns("montu_ec_field_constant_check", field_check.commands), ""]


def _ecdsa_curve(name: str, c: str) -> list[str]:
    curve = get_curve(name)
    reductions = ecdsa._reductions(curve)  # noqa: SLF001
    sign = ecdsa._sign_program(reductions)  # noqa: SLF001
    check = ecdsa._verify_check_program(reductions)  # noqa: SLF001
    return [f"/* {curve.name}: s = k⁻¹(e + r·d) with the blinded MINV; r = x mod n "
            f"({reductions} reductions) */",
            f"#define MONTU_EC_{c.upper()}_N_WORDS {-(-curve.n.bit_length() // 64)}",
            *_insns(f"montu_ec_{c}_sign", sign.commands),
            "/* EQ: x mod n = r */",
            *_insns(f"montu_ec_{c}_verify_check", check.commands), ""]


def render() -> str:
    _same_registers(comb.REGS, prime.REGS, binary.REGS, ecdsa.REGS)
    lines = ["/* GENERATED by `python3 -m montu.soc.programs` from montu.ec (the Python stack's own",
             " * programs); do not edit. Included by fw/lib/ec.c, ec_binary.c and ecdsa.c only. */",
             "#ifndef MONTU_EC_PROGRAMS_H", "#define MONTU_EC_PROGRAMS_H", "", "#include <stdint.h>", ""]
    lines += _prime_shared()
    for name, c in PRIME_CURVES.items():
        lines += _prime_curve(name, c)
    lines += _binary_shared(get_curve(next(iter(BINARY_CURVES))))
    for name, c in BINARY_CURVES.items():
        lines += _binary_curve(name, c)
    lines += _ecdsa_shared()
    for name, c in {**PRIME_CURVES, **BINARY_CURVES}.items():
        lines += _ecdsa_curve(name, c)
    lines += ["#endif", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the header is current")
    args = parser.parse_args(argv)
    text = render()
    current = HEADER.read_text() if HEADER.exists() else None
    if current == text:
        return 0
    if args.check:
        print(f"out of date (run python3 -m montu.soc.programs): {HEADER}", file=sys.stderr)
        return 1
    HEADER.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

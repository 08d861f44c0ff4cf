"""The antao microcode assembler: what it writes (field by field, from antao_ucode.yaml), and every
kind of source it refuses, with a message that names the line."""

from __future__ import annotations

import pytest

from montu.engines.antao import host
from montu.engines.antao.assembler import AssemblyError, assemble, expand_macros
from montu.engines.antao.params import AntaoParams
from montu.isa.ucode import load_format, loop_length

PARAMS = AntaoParams(w=64, pes=4, depth=64, ucode_depth=256)
F = load_format()


def fields(word: int) -> dict[str, int]:
    return F.decode(word)


def enc(field: str, name: str) -> int:
    return F.by_name[field].value_of[name]


def test_mnemonics_set_their_fields_and_options_override_them() -> None:
    program = assemble("""
        .var X
        .var Y
        .var T 3
        mul.b2 T, X, Y
        sub T+2, X, Y
        rmac T+i alpha=ACC
        op.b1 d=T xsel=ALPHA b=Y accin wr=RED
        halt
    """, PARAMS)
    mul, sub, rmac, op, halt = map(fields, program.words)
    assert program.symbols == {"X": 0, "Y": 1, "T": 2}
    assert (mul["d"], mul["a"], mul["b"], mul["base"]) == (2, 0, 1, enc("base", "B2"))
    assert (mul["xsel"], mul["ysel"], mul["wr"]) == (enc("xsel", "A"), enc("ysel", "B"), enc("wr", "RED"))
    assert (sub["d"], sub["zsel"], sub["ysel"], sub["base"]) == (4, enc("zsel", "NEGB"), enc("ysel", "ONE"), 0)
    assert (rmac["b"], rmac["bi"], rmac["ring"], rmac["alpha"]) == (2, 1, enc("ring", "HOP"), enc("alpha", "ACC"))
    assert rmac["accin"] == rmac["accwr"] == 1 and rmac["xsel"] == enc("xsel", "R")
    assert (op["xsel"], op["accin"], op["d"], op["b"], op["base"]) == (enc("xsel", "ALPHA"), 1, 2, 1, 0)
    assert halt["seq"] == enc("seq", "HALT")


def test_loops_branches_labels_and_parameters() -> None:
    program = assemble("""
        .def TWICE P*2
        start:
          loop TWICE
            nop
            loop LCR ring=SHIN
              nop
              bit1 out
              nop
        out:  nop
            endloop
            nop
          endloop
          jmp end
          nop
        end: halt
    """, PARAMS)
    words = [fields(w) for w in program.words]
    outer, inner = words[0], words[2]
    assert outer["seq"] == enc("seq", "LOOP") and outer["imm"] >> 8 == 2 * PARAMS.pes
    assert loop_length(outer) == 7 and loop_length(inner) == 4
    assert inner["imm"] >> 8 == 0 and inner["ring"] == enc("ring", "SHIN")   # count from LCR
    bit = words[4]
    assert bit["seq"] == enc("seq", "BIT") and bit["imm"] == (1 << 12) | 1
    assert words[8]["seq"] == enc("seq", "JMP") and words[8]["imm"] == 1
    assert program.labels == {"start": 0, "out": 6, "end": 10}


def test_long_loop_bodies_use_lenx() -> None:
    body = "\n".join(["  nop"] * 300)
    program = assemble(f"loop 2\n{body}\nendloop\nhalt", PARAMS.with_(ucode_depth=512))
    assert loop_length(fields(program.words[0])) == 300


def test_macros_expand_with_their_arguments() -> None:
    lines = [text for _, text in expand_macros(""".macro twice D S
  add {D}1, {S}1, {S}1
  add {D}2, {S}2, {S}2
.endm
twice A, B
""")]
    assert lines == ["add A1, B1, B1", "add A2, B2, B2"]


@pytest.mark.parametrize("source, fragment", [
    ("frob 1", "unknown mnemonic 'frob'"),
    ("mul 1, 2", "takes 3 operand(s)"),
    ("mul 64, 0, 0", "outside the RAM"),
    ("mul X, 0, 0", "unknown name 'X'"),
    ("op zsel=SIDEWAYS", "unknown name 'SIDEWAYS'"),
    ("op lenx=3", "unknown field 'lenx'"),
    ("op nope=1", "unknown field 'nope'"),
    ("op xsel=7", "does not fit"),
    ("loop 0\nnop\nendloop", "outside 1..255"),
    ("loop 300\nnop\nendloop", "outside 1..255"),
    ("loop 2\nendloop", "empty loop body"),
    ("loop 2\nnop", "loop without endloop"),
    ("endloop", "endloop without loop"),
    ("loop 2\nloop 2\nloop 2\nnop\nendloop\nnop\nendloop\nnop\nendloop", "nest at most 2"),
    ("loop 2\nnop\nloop 2\nnop\nendloop\nendloop", "ends on the outer loop's last word"),
    ("back: nop\njmp back", "forward only"),
    ("jmp nowhere", "unknown label"),
    ("loop 2\nbit1 out\nnop\nendloop\nout: halt", "leaves its loop"),
    (".var A 100", "the RAM has 64 left"),
    (".var A\n.var A", "defined twice"),
    ("x: nop\nx: nop", "defined twice"),
    (".macro m A\nl: nop\n.endm", "no labels inside a macro"),
    (".macro m A\nnop", ".macro without .endm"),
    (".macro m A\nnop\n.endm\nm", "takes 1 argument"),
    (".macro m\nm\n.endm\nm", "nest deeper"),
])
def test_the_assembler_refuses_with_a_message_naming_the_line(source: str, fragment: str) -> None:
    with pytest.raises(AssemblyError) as info:
        assemble(source, PARAMS)
    assert fragment in str(info.value)


def test_a_program_longer_than_the_microcode_memory_is_refused() -> None:
    with pytest.raises(AssemblyError, match="UcodeDepth is 256"):
        assemble("\n".join(["nop"] * 257), PARAMS)


def test_the_shipped_programs_assemble_for_the_papers_builds() -> None:
    for params in (AntaoParams(), AntaoParams(w=96, pes=6, e_words=6)):
        modexp = host.modexp_program(params)
        assert {"setup", "montmul", "modmul", "modexp", "ladder"} <= set(modexp.labels)
    ec = host.ec_program(AntaoParams(ucode_depth=2048))
    assert {"setup", "ecsetup", "ecmul"} <= set(ec.labels)
    with pytest.raises(AssemblyError, match="UcodeDepth"):
        host.ec_program(AntaoParams(ucode_depth=1024))   # ec.rns needs the EC builds' 2048

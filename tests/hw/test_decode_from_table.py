"""montu_top's decoder takes each instruction's register use, modulus need and imm rules from the
generated montu_pkg (op_attr() and the imm rule functions, from instructions.yaml) and does not
hand-code them again; only the routing (which engine runs an instruction) stays in montu_top."""

from __future__ import annotations

import re

from montu.isa import load
from montu.paths import repo_root

RTL = repo_root() / "hw" / "ip" / "montu" / "rtl"


def _top() -> str:
    text = (RTL / "montu_top.sv").read_text(encoding="utf-8")
    return re.sub(r"//[^\n]*", "", text)   # comments may name anything


def test_decode_uses_the_generated_attributes_and_imm_rules():
    top = _top()
    assert "op_attr(" in top
    for rule in load().imm_rules:
        assert f"{rule.name}_ok(" in top, f"montu_top does not check imm rule {rule.name} via montu_pkg"


def test_montu_top_hand_codes_no_register_use_modulus_or_imm_rule():
    top = _top()
    # register use: a local uses_rd / uses_ra / uses_rb flag assigned a constant
    assert not re.search(r"\buses_r[dab]\s*=\s*1'b", top), "register use hand-coded in montu_top"
    # modulus need: set per opcode instead of from op_attr().needs_modulus
    assert not re.search(r"\bmodular\s*=\s*1'b1", top), "modulus need hand-coded in montu_top"
    # imm rules: opcodes compared in the imm checks, or the rules' bounds restated
    for line in top.splitlines():
        if re.search(r"\bbad_(imm|len|reg)\b\s*=", line) or "table_end" in line:
            assert not re.search(r"\bOp[A-Z][a-z0-9]+\b", line), f"imm/register rule names an opcode: {line.strip()}"
    assert not re.search(r"\b(windowed|bad_ca|bad_cb)\b", top)
    assert not re.search(r"d_imm\s*(==|>|<|>=|<=)\s*8'd", top), "imm bound hand-coded in montu_top"

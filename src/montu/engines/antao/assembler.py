"""The antao microcode assembler: readable source -> 80-bit microinstructions (antao_ucode.yaml).

Source, one microinstruction per line (`;` starts a comment):

    .var  NAME [COUNT]          reserve COUNT (default 1) RAM words, addresses from 0 up
    .macro NAME P1 P2 ...       a macro: the lines up to .endm, with {P1} ... replaced by the
    .endm                       arguments of a use `NAME A1, A2, ...` (no labels inside)
    .def  NAME EXPR             a named constant (expressions: integers, + - * //, names)
    NAME:                       a label (an entry point for RUN, or a branch target)
    MNEMONIC[.b1|.b2] OPERANDS [FIELD=VALUE | FLAG ...]
    loop COUNT [FIELD=VALUE ...]   ...   endloop      a counted loop (COUNT: EXPR or LCR)
    bit1 LABEL / bit0 LABEL / jmp LABEL                 forward branches

Operands are RAM addresses: `NAME`, `NAME+EXPR`, and a trailing `+i` adds the loop index (sets
the field's di/ai/bi bit). Mnemonics are presets of fields (MNEMONICS below); FIELD=VALUE sets or
overrides any field by its name in antao_ucode.yaml (values by encoding name or number), a bare
flag (accin, accwr, pop, di, ai, bi) sets it to 1. Build parameters are names in expressions:
P (PEs), W, DEPTH, plus any the caller passes (`assemble(source, params, LIMBS=…)`).

The assembler refuses what the hardware would refuse or that could not be meant: unknown names,
addresses beyond Depth, backward or out-of-loop branches, loops nested deeper than the
sequencer's stack, an inner loop that ends where its outer loop ends, counts > 255 (use LCR), a
program longer than UcodeDepth.
"""

from __future__ import annotations

import ast
import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from montu.engines.antao.params import LOOP_DEPTH, AntaoParams
from montu.isa.ucode import MicroFormat, load_format

FORMAT: MicroFormat = load_format()
FLAGS = ("accin", "accwr", "pop", "di", "ai", "bi")

# mnemonic -> (positional operand fields, preset fields)
MNEMONICS: dict[str, tuple[tuple[str, ...], dict[str, int | str]]] = {
    "nop": ((), {}),
    "op": ((), {}),                                                        # fields only
    "mul": (("d", "a", "b"), {"xsel": "A", "ysel": "B", "wr": "RED"}),     # d = a*b mod m
    "add": (("d", "a", "b"), {"xsel": "A", "ysel": "ONE", "zsel": "B", "wr": "RED"}),
    "sub": (("d", "a", "b"), {"xsel": "A", "ysel": "ONE", "zsel": "NEGB", "wr": "RED"}),
    "mac": (("a", "b"), {"xsel": "A", "ysel": "B", "accin": 1, "accwr": 1}),   # ACC += a*b
    "macz": (("a", "b"), {"xsel": "A", "ysel": "B", "accwr": 1}),              # ACC = a*b
    "rmac": (("b",), {"xsel": "R", "ysel": "B", "accin": 1, "accwr": 1, "ring": "HOP"}),
    "store": (("d",), {"wr": "RAW"}),                                       # d = R (raw)
    "rld": (("a",), {"ring": "LOAD"}),
    "hop": ((), {"ring": "HOP"}),
    "racc": ((), {"ring": "ACC"}),
    "shin": ((), {"ring": "SHIN"}),
    "storec": ((), {"ring": "STOREC"}),
    "eld": ((), {"seq": "ELD"}),
    "lcld": ((), {"seq": "LCLD"}),
    "halt": ((), {"seq": "HALT"}),
}
BRANCHES = {"bit1": ("BIT", 1), "bit0": ("BIT", 0), "jmp": ("JMP", 0)}
MAX_LOOP_COUNT = 255
MAX_LOOP_LEN = (1 << 14) - 1
MAX_OFFSET = 0xFFF


class AssemblyError(ValueError):
    """A source line the assembler refuses (the message names the line)."""


@dataclass(frozen=True)
class Program:
    """An assembled microprogram: its words (from address 0), labels and RAM symbols."""

    words: tuple[int, ...]
    labels: Mapping[str, int]
    symbols: Mapping[str, int]
    lines: tuple[int, ...]                 # source line of each word
    params: AntaoParams
    names: Mapping[str, int] = field(default_factory=dict)   # every .def and parameter

    def entry(self, label: str) -> int:
        try:
            return self.labels[label]
        except KeyError:
            raise AssemblyError(f"the program has no label {label!r}") from None


_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
           ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}


def _eval(text: str, names: Mapping[str, int], where: str) -> int:
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        raise AssemblyError(f"{where}: cannot read the expression {text!r}") from None

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in names:
                raise AssemblyError(f"{where}: unknown name {node.id!r}")
            return names[node.id]
        if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
            return _BINOPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise AssemblyError(f"{where}: {text!r} is not an integer expression")

    return ev(tree)


@dataclass
class _Pending:
    values: dict[str, int | str]
    line: int
    branch: str | None = None          # label of a bit/jmp
    loop_open: bool = False


MAX_MACRO_DEPTH = 8


def expand_macros(source: str) -> list[tuple[int, str]]:
    """The source's lines with every macro use replaced by its body: (source line, text)."""
    macros: dict[str, tuple[list[str], list[str]]] = {}
    lines: list[tuple[int, str]] = []
    current: tuple[str, list[str], list[str], int] | None = None
    for number, raw in enumerate(source.splitlines(), start=1):
        text = raw.split(";", 1)[0].strip()
        head = text.split(None, 1)[0] if text else ""
        if head == ".macro":
            parts = text.split()
            if current is not None or len(parts) < 2:
                raise AssemblyError(f"line {number}: .macro NAME PARAMS (macros do not nest)")
            current = (parts[1], parts[2:], [], number)
            continue
        if head == ".endm":
            if current is None:
                raise AssemblyError(f"line {number}: .endm without .macro")
            macros[current[0]] = (current[1], current[2])
            current = None
            continue
        if current is not None:
            if re.match(r"^[A-Za-z_]\w*:", text):
                raise AssemblyError(f"line {number}: no labels inside a macro")
            current[2].append(text)
            continue
        lines.append((number, text))
    if current is not None:
        raise AssemblyError(f"line {current[3]}: .macro without .endm")

    def expand(number: int, text: str, depth: int) -> list[tuple[int, str]]:
        head, _, rest = text.partition(" ")
        if head not in macros:
            return [(number, text)]
        if depth >= MAX_MACRO_DEPTH:
            raise AssemblyError(f"line {number}: macros nest deeper than {MAX_MACRO_DEPTH}")
        params, body = macros[head]
        args = [a for a in rest.replace(",", " ").split()]
        if len(args) != len(params):
            raise AssemblyError(f"line {number}: {head} takes {len(params)} argument(s), got {len(args)}")
        out = []
        for line in body:
            for name, value in zip(params, args, strict=True):
                line = line.replace("{" + name + "}", value)
            out.extend(expand(number, line, depth + 1))
        return out

    expanded: list[tuple[int, str]] = []
    for number, text in lines:
        expanded.extend(expand(number, text, 0) if text else [])
    return expanded


def assemble(source: str, params: AntaoParams, **names: int) -> Program:
    """Assemble `source` for a build with `params`; `names` are extra constants."""
    env: dict[str, int] = {"P": params.pes, "W": params.w, "DEPTH": params.depth, **names}
    symbols: dict[str, int] = {}
    labels: dict[str, int] = {}
    pending: list[_Pending] = []
    loops: list[tuple[int, int]] = []          # (index of the LOOP word, line)
    closed: list[tuple[int, int]] = []         # (LOOP word index, end word index)
    next_var = 0
    for number, text in expand_macros(source):
        where = f"line {number}"
        while re.match(r"^[A-Za-z_]\w*:", text):
            label, text = text.split(":", 1)
            if label in labels or label in symbols:
                raise AssemblyError(f"{where}: {label!r} is defined twice")
            labels[label] = len(pending)
            text = text.strip()
        if not text:
            continue
        head, *rest = text.split(None, 1)
        args = rest[0] if rest else ""
        if head == ".var":
            parts = args.split()
            if not parts or len(parts) > 2:
                raise AssemblyError(f"{where}: .var NAME [COUNT]")
            count = _eval(parts[1], env, where) if len(parts) == 2 else 1
            if parts[0] in symbols or parts[0] in env:
                raise AssemblyError(f"{where}: {parts[0]!r} is defined twice")
            if count < 1 or next_var + count > params.depth:
                raise AssemblyError(f"{where}: .var {parts[0]} needs {count} words; the RAM has "
                                    f"{params.depth - next_var} left (Depth {params.depth})")
            symbols[parts[0]] = next_var
            env[parts[0]] = next_var
            next_var += count
            continue
        if head == ".def":
            parts = args.split(None, 1)
            if len(parts) != 2:
                raise AssemblyError(f"{where}: .def NAME EXPR")
            if parts[0] in env:
                raise AssemblyError(f"{where}: {parts[0]!r} is defined twice")
            env[parts[0]] = _eval(parts[1], env, where)
            continue
        mnemonic, _, base = head.partition(".")
        values: dict[str, int | str] = {}
        if base:
            if base not in ("b1", "b2"):
                raise AssemblyError(f"{where}: unknown base suffix .{base} (use .b1 or .b2)")
            values["base"] = "B1" if base == "b1" else "B2"
        tokens = args.replace(",", " ").split()
        if mnemonic == "endloop":
            if not loops:
                raise AssemblyError(f"{where}: endloop without loop")
            start, _ = loops.pop()
            end = len(pending) - 1
            length = end - start
            if length < 1:
                raise AssemblyError(f"{where}: an empty loop body")
            if length > MAX_LOOP_LEN:
                raise AssemblyError(f"{where}: a loop body of {length} words (at most {MAX_LOOP_LEN})")
            pending[start].values["imm"] = int(pending[start].values.get("imm", 0)) | (length & 0xFF)
            pending[start].values["lenx"] = length >> 8
            for other_start, other_end in closed:
                if other_start > start and other_end == end:
                    raise AssemblyError(f"{where}: the inner loop ends on the outer loop's last word; "
                                        "add a word after the inner endloop")
            closed.append((start, end))
            continue
        if mnemonic == "loop":
            if not tokens:
                raise AssemblyError(f"{where}: loop COUNT")
            count_text, tokens = tokens[0], tokens[1:]
            if count_text == "LCR":
                count = 0
            else:
                count = _eval(count_text, env, where)
                if not 1 <= count <= MAX_LOOP_COUNT:
                    raise AssemblyError(f"{where}: loop count {count} outside 1..{MAX_LOOP_COUNT} "
                                        "(load larger counts into LCR)")
            if len(loops) == LOOP_DEPTH:
                raise AssemblyError(f"{where}: loops nest at most {LOOP_DEPTH} deep")
            values.update(seq="LOOP", imm=count << 8)
            _fields(tokens, values, env, where)
            loops.append((len(pending), number))
            pending.append(_Pending(values, number, loop_open=True))
            continue
        if mnemonic in BRANCHES:
            if not tokens:
                raise AssemblyError(f"{where}: {mnemonic} LABEL")
            seq, polarity = BRANCHES[mnemonic]
            values.update(seq=seq, imm=polarity << 12)
            _fields(tokens[1:], values, env, where)
            pending.append(_Pending(values, number, branch=tokens[0]))
            continue
        if mnemonic not in MNEMONICS:
            raise AssemblyError(f"{where}: unknown mnemonic {mnemonic!r}")
        operand_fields, preset = MNEMONICS[mnemonic]
        values.update(preset)
        positional = [t for t in tokens if "=" not in t and t not in FLAGS]
        if len(positional) != len(operand_fields):
            raise AssemblyError(f"{where}: {mnemonic} takes {len(operand_fields)} operand(s) "
                                f"({', '.join(operand_fields) or 'none'}), got {len(positional)}")
        for name, token in zip(operand_fields, positional, strict=True):
            _address(name, token, values, env, params, where)
        _fields([t for t in tokens if t not in positional], values, env, where, params)
        pending.append(_Pending(values, number))
    if loops:
        raise AssemblyError(f"line {loops[-1][1]}: loop without endloop")
    if len(pending) > params.ucode_depth:
        raise AssemblyError(f"the program has {len(pending)} words; UcodeDepth is {params.ucode_depth}")
    # branches: forward, inside the innermost loop that contains the branch
    for index, item in enumerate(pending):
        if item.branch is None:
            continue
        where = f"line {item.line}"
        if item.branch not in labels:
            raise AssemblyError(f"{where}: unknown label {item.branch!r}")
        target = labels[item.branch]
        offset = target - index - 1
        if offset < 0:
            raise AssemblyError(f"{where}: branches go forward only ({item.branch} is behind)")
        if offset > MAX_OFFSET:
            raise AssemblyError(f"{where}: branch offset {offset} > {MAX_OFFSET}")
        inner = [(s, e) for s, e in closed if s < index <= e]
        if inner:
            s, e = max(inner)
            if target > e:
                raise AssemblyError(f"{where}: the branch to {item.branch} leaves its loop")
        item.values["imm"] = int(item.values["imm"]) | offset
    words = []
    for item in pending:
        try:
            words.append(FORMAT.encode(item.values))
        except ValueError as exc:
            raise AssemblyError(f"line {item.line}: {exc}") from None
    return Program(tuple(words), labels, symbols, tuple(p.line for p in pending), params, env)


def _address(name: str, token: str, values: dict[str, int | str], env: Mapping[str, int],
             params: AntaoParams | None, where: str) -> None:
    indexed = token.endswith("+i")
    expr = token[:-2] if indexed else token
    address = _eval(expr, env, where)
    limit = params.depth if params is not None else 1 << FORMAT.by_name[name].bits
    if not 0 <= address < limit:
        raise AssemblyError(f"{where}: address {token} = {address} is outside the RAM (Depth {limit})")
    values[name] = address
    if indexed:
        values[f"{name}i"] = 1


def _fields(tokens: list[str], values: dict[str, int | str], env: Mapping[str, int], where: str,
            params: AntaoParams | None = None) -> None:
    for token in tokens:
        if token in FLAGS:
            values[token] = 1
            continue
        if "=" not in token:
            raise AssemblyError(f"{where}: unexpected {token!r}")
        name, value = token.split("=", 1)
        if name in ("d", "a", "b"):
            _address(name, value, values, env, params, where)
            continue
        fmt = FORMAT.by_name.get(name)
        if fmt is None or name == "lenx":
            raise AssemblyError(f"{where}: unknown field {name!r}")
        if value in fmt.value_of:
            values[name] = value
        else:
            values[name] = _eval(value, env, where)

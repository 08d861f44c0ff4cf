"""Command streams for differential testing and benchmarking of any backend with the simulator's
interface (`execute`, `execute_many`): montu.backends.sim.Simulator, montu.backends.verilator.RtlModel."""

from __future__ import annotations

import random
import time
from typing import Protocol, Sequence

from montu.isa import Response, encode, load


class Backend(Protocol):
    def execute_many(self, commands: Sequence[tuple[int, int]]) -> list[Response]: ...


def random_commands(rng: random.Random, n: int, *, word_bits: int, max_bits: int,
                    num_regs: int) -> list[tuple[int, int]]:
    """n random (insn, data) commands for differential tests. Starts with WIPE (so the result does
    not depend on what reset leaves in the registers), then alternates two kinds of episode:

    - chaos: any instruction of the table with random fields, bad opcodes, bad registers, bad
      lengths, junk in unused slots, WIPEs, word writes and reads at random;
    - arithmetic: a valid length and field, a freshly written odd modulus (top bit set) and
      operands below it (sometimes 0, 1 or even with a high bit set), SETMOD, a run of modular and
      integer instructions and MINVs that leave the modulus register alone, and every result read
      back in full. A MINV inverts an operand modulo the SETMOD modulus or modulo another operand
      (odd or even, the same one included): invertible and non-invertible cases both occur.
    """
    commands = [(encode("WIPE"), 0)]
    while len(commands) < n:
        if rng.random() < 0.5:
            commands += _chaos(rng, rng.randrange(20, 80), word_bits, max_bits, num_regs)
        else:
            commands += _arithmetic(rng, word_bits, max_bits, num_regs)
    return commands[:n]


def _chaos(rng: random.Random, n: int, word_bits: int, max_bits: int,
           num_regs: int) -> list[tuple[int, int]]:
    isa = load()
    slots = isa.slots
    names = [i.name for i in isa.instructions if i.name not in ("WMMI", "RMMI", "WIPE")]
    bad_opcodes = [op for op in range(1 << slots["op"].width) if op not in isa.by_opcode]
    max_k = max_bits // 64
    reg_limit = 1 << slots["rd"].width

    def reg() -> int:
        return rng.randrange(num_regs) if rng.random() < 0.9 else rng.randrange(reg_limit)

    def word() -> int:
        if rng.random() < 0.1:
            return rng.choice([0, 1, (1 << word_bits) - 1, 1 << (word_bits - 1)])
        return rng.getrandbits(word_bits)

    commands: list[tuple[int, int]] = []
    for _ in range(n):
        r = rng.random()
        if r < 0.30:
            commands.append((encode("WMMI", rd=reg()), word()))
        elif r < 0.50:
            commands.append((encode("RMMI", ra=reg()), 0))
        elif r < 0.54:   # mostly legal lengths, sometimes 0 or too long
            k = rng.randrange(1, max_k + 1) if rng.random() < 0.85 else rng.choice([0, max_k + 1, 255])
            commands.append((encode("SETMMI", f=rng.randrange(2), imm=k), 0))
        elif r < 0.57:
            commands.append((rng.choice(bad_opcodes) << slots["op"].lsb | rng.getrandbits(slots["op"].lsb), 0))
        elif r < 0.575:
            commands.append((encode("WIPE"), 0))
        else:
            name = rng.choice(names)
            ins = isa.by_name[name]
            fields = {"rd": reg(), "ra": reg(), "rb": reg(), "f": rng.randrange(2), "imm": rng.getrandbits(8)}
            if name == "SETMMI" and fields["imm"] > max_k + 1:
                fields["imm"] = rng.randrange(max_k + 2)
            if name in ("SHLX", "MMX") and rng.random() < 0.8:   # mostly a legal window width
                fields["imm"] = rng.randrange(1, 6)
            if name == "MLIN" and rng.random() < 0.8:            # mostly legal constants
                fields["imm"] = _mlin_imm(rng)
            if rng.random() < 0.8:  # unused slots stay 0; otherwise they carry junk the unit ignores
                fields = {k: v for k, v in fields.items() if k in ins.uses}
            commands.append((encode(name, **fields), 0))
    return commands


def _mlin_imm(rng: random.Random) -> int:
    """MLIN's imm with legal constants ca, cb in −3 … 3 (4-bit two's complement each)."""
    return (rng.randint(-3, 3) & 0xF) | ((rng.randint(-3, 3) & 0xF) << 4)


def _arithmetic(rng: random.Random, word_bits: int, max_bits: int,
                num_regs: int) -> list[tuple[int, int]]:
    isa = load()
    k = rng.randrange(1, max_bits // 64 + 1)
    bits = 64 * k
    words = bits // word_bits
    mask = (1 << word_bits) - 1
    gf2m = rng.randrange(2)
    m, *operands = rng.sample(range(num_regs), 5)
    modulus = rng.getrandbits(bits) | 1 | (1 << (bits - 1))
    commands = [(encode("SETMMI", f=gf2m, imm=k), 0)]

    def write(reg: int, value: int) -> None:
        commands.extend((encode("WMMI", rd=reg), (value >> (word_bits * i)) & mask) for i in range(words))

    def read(reg: int) -> None:
        commands.extend([(encode("RMMI", ra=reg), 0)] * words)

    write(m, modulus)
    for reg in operands:   # below the modulus (as integers and as polynomials: degree < L-1)
        r = rng.random()
        if r < 0.15:       # an even modulus for MINV (like λ(n) of RSA)
            write(reg, (rng.randrange(modulus >> 2) | (1 << (bits - 3))) & ~1)
        else:
            write(reg, rng.randrange(modulus >> 1) if r < 0.9 else rng.choice([0, 1]))
    commands.append((encode("SETMOD", ra=m), 0))
    names = ["STARTMMI", "STARTMMI", "MADD", "MSUB", "MDBL", "CMP", "MOV", "LDONE", "CSWAP",
             "MINV", "MINV", "SHLX", "MMX", "MMX", "MLIN", "MLIN"]
    for _ in range(rng.randrange(5, 25)):
        name = rng.choice(names)
        rd, ra, rb = (rng.choice(operands) for _ in range(3))
        if name == "MINV" and rng.random() < 0.4:
            rb = m         # modulo the (odd) SETMOD modulus; otherwise modulo an operand
        ins = isa.by_name[name]
        fields = {"rd": rd, "ra": ra, "rb": rb, "imm": rng.randrange(4)}
        if name == "SHLX":
            fields["imm"] = rng.randrange(1, 6)
        if name == "MLIN":
            fields["imm"] = _mlin_imm(rng)
        if name == "MMX":    # a table of 2^w registers that exists (it may hold the modulus)
            fields["imm"] = w = rng.randrange(1, 4)
            fields["rb"] = rng.randrange(num_regs - (1 << w) + 1)
        commands.append((encode(name, **{f: v for f, v in fields.items() if f in ins.uses}), 0))
        if "rd" in ins.uses and rng.random() < 0.5:
            read(rd)
    for reg in operands:
        read(reg)
    return commands


def simple_mix(n: int, *, word_bits: int, max_bits: int) -> list[tuple[int, int]]:
    """A plain workload: at full length, write two operands word by word, ADD them, compare, read
    the sum back; repeated until n commands."""
    words = max_bits // word_bits
    commands = [(encode("SETMMI", imm=max_bits // 64), 0)]
    mask = (1 << word_bits) - 1
    i = 0
    while len(commands) < n:
        commands += [(encode("WMMI", rd=1), (i * 0x9E3779B97F4A7C15 + j) & mask) for j in range(words)]
        commands += [(encode("WMMI", rd=2), (i * 0xC2B2AE3D27D4EB4F + j) & mask) for j in range(words)]
        commands += [(encode("ADD", rd=3, ra=1, rb=2), 0), (encode("CMP", ra=3, rb=1), 0), (encode("NOP"), 0)]
        commands += [(encode("RMMI", ra=3), 0)] * words
        i += 1
    return commands[:n]


def ops_per_second(model: Backend, n: int, *, commands: Sequence[tuple[int, int]] | None = None,
                   batch: int = 4096) -> float:
    """Commands per second `model` executes over n commands of `simple_mix` (or of `commands`),
    sent in execute_many batches of `batch`. Not a test: a benchmark helper."""
    word_bits = getattr(model, "word_bits", 64)
    max_bits = getattr(model, "max_bits", 512)
    stream = list(commands) if commands is not None else simple_mix(n, word_bits=word_bits, max_bits=max_bits)
    start = time.perf_counter()
    for i in range(0, len(stream), batch):
        model.execute_many(stream[i:i + batch])
    return len(stream) / (time.perf_counter() - start)

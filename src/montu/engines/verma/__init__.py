"""The verma engine: Verma, Dutta, Vig, "RSA Cryptosystem Based on Early Word Based Montgomery
Modular Multiplication" (EWBR4CMMM common-multiplicand radix-4 Montgomery multiplication and the
Montgomery powering ladder), GF(p) only.

    montu.engines.open("verma", backend="sim", k=1024, w=48)   # -> VermaEngine (engine.py)
    VermaSimulator(k_max=1024, w=48)                           # the cycle-exact model (simulator.py)
    encode("CMMM", ra="X", rb="ONE", f=1)                      # instruction words of verma.yaml

The instruction set is src/montu/isa/verma.yaml; the hardware is hw/ip/verma (core montu:ip:verma,
top verma_top); the golden model is montu.arith.verma.
"""

from montu.engines.verma.engine import (VermaEngine, VermaError, VermaModulusError, open,
                                        params_for_bits)
from montu.engines.verma.simulator import (ISA, CmmmPass, Sizes, VermaSimulator, decode_slots,
                                           encode, mpl_passes, sizes)

__all__ = ["ISA", "CmmmPass", "Sizes", "VermaEngine", "VermaError", "VermaModulusError",
           "VermaSimulator", "decode_slots", "encode", "mpl_passes", "open", "params_for_bits",
           "sizes"]

# The build `montu synth --engine verma` places and routes by default: the paper's K = 1024 with
# W = 48 (its DSP48E adder width); the paper's second build is K = 2048.
SYNTH_BUILDS = ({"K": 1024, "W": 48},)

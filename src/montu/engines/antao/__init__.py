"""The antao engine: Antão & Sousa, "An RNS-based architecture targeting hardware accelerators
for modular arithmetic" — a ring of processing elements, one per RNS channel of both bases,
under vertical microcode broadcast to every PE, with the alpha and output accumulators and the
host FIFOs (GF(p) only).

    montu.engines.open("antao", backend="sim", bits=1024)    # -> AntaoEngine (engine.py)
    AntaoSimulator(AntaoParams(w=64, pes=4))                  # the cycle-exact model (simulator.py)
    assemble(source, params)                                  # microprograms (assembler.py)

The shell's instruction set is src/montu/isa/antao.yaml, the microinstruction format
src/montu/isa/antao_ucode.yaml; the programs are programs/*.rns; the hardware is hw/ip/antao
(core montu:ip:antao, top antao_top); the golden model is montu.arith.antao.
"""

from montu.engines.antao.assembler import AssemblyError, Program, assemble
from montu.engines.antao.engine import (AntaoEngine, AntaoError, AntaoModulusError, build_for_bits,
                                        open, params_for_bits)
from montu.engines.antao.params import EC224, RSA512, AntaoParams
from montu.engines.antao.simulator import ISA, AntaoSimulator, encode

__all__ = ["EC224", "ISA", "RSA512", "AntaoEngine", "AntaoError", "AntaoModulusError",
           "AntaoParams", "AntaoSimulator", "AssemblyError", "Program", "assemble",
           "build_for_bits", "encode", "open", "params_for_bits"]

# The builds `montu synth --engine antao` places and routes: those `montu bench engines` runs P-224
# and P-256 on (4 PEs each: 64-bit channels, the paper's EC width, and 68-bit channels for P-256,
# which take it with 4 PEs, not 5, on the same MULT18X18D per product). The RSA builds (96-bit
# channels: 36 MULT18X18D per PE for X·Y alone) need more multipliers than the ECP5-85's 156
# unless their products share blocks over several clocks: params_for_bits gives them the
# smallest MulShare whose multipliers fit (3 and 6 for 512 and 1024 bits; the 2048-bit build fits
# with none and stays at 1; AntaoParams.mult18x18d). Yosys: the 512-bit build then uses about
# 40 % of the device's LUT sites, the 1024-bit one about 60 % (docs/engines.md).
SYNTH_BUILDS = tuple(open(**params_for_bits(bits)).params.generics for bits in (224, 256))

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
from montu.engines.antao.engine import (ROUTED_BUILDS, AntaoEngine, AntaoError, AntaoModulusError,
                                        build_for_bits, open, params_for_bits)
from montu.engines.antao.params import EC224, RSA512, AntaoParams
from montu.engines.antao.simulator import ISA, AntaoSimulator, encode

__all__ = ["EC224", "ISA", "ROUTED_BUILDS", "RSA512", "AntaoEngine", "AntaoError",
           "AntaoModulusError", "AntaoParams", "AntaoSimulator", "AssemblyError", "Program",
           "assemble", "build_for_bits", "encode", "open", "params_for_bits"]

# The builds `montu synth --engine antao` places and routes: those `montu bench engines` runs P-224,
# P-256 and the 512-bit modexp on (P-224: 4 PEs of 64-bit channels, the paper's EC width; P-256:
# 4 PEs of 68 bits, which take it with 4 PEs, not 5, on the same MULT18X18D per product; 512 bits:
# 8 PEs of 68 bits at MulShare 2, rsa_channel_bits). Wider RSA builds need more multipliers than
# the ECP5-85's 156 unless their products share blocks over several clocks: params_for_bits
# gives them the fastest channel width that fits with the smallest MulShare (1024 bits: 20 PEs
# of 52 bits at MulShare 3, 122 blocks, about 57 % of the LUT sites, too long to route here; the
# 2048-bit build fits at no width and stays at the paper's 96 bits, unshared; docs/engines.md).
# Then the ROUTED_BUILDS: the 512-bit one (10 PEs of 52 bits at MulShare 3) routes.
SYNTH_BUILDS = (*(open(**params_for_bits(bits)).params.generics for bits in (224, 256, 512)),
                *(open(**{**params_for_bits(bits), **over}).params.generics
                  for bits, over in ROUTED_BUILDS.items()))

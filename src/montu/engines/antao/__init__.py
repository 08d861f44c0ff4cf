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

# The builds `montu synth --engine antao` places and routes: the paper's EC configuration
# (64-bit channels, 4 PEs) and its RSA configuration (96-bit channels, 6 PEs).
SYNTH_BUILDS = (EC224.generics, RSA512.generics)

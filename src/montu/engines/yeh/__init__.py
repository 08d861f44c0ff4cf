"""The yeh engine: Yeh et al., "An 830mW, 586kbps 1024-bit RSA Chip Design" (BSR4 radix-4 split
Montgomery multiplication, H-type exponentiation), GF(p) only.

    montu.engines.open("yeh", backend="sim", nbits=1024)   # -> YehEngine (engine.py)
    YehSimulator(nbits=1024)                               # the cycle-exact model (simulator.py)
    encode("BSR4", ra="X", rb="M", f=1)                    # instruction words of yeh.yaml

The instruction set is src/montu/isa/yeh.yaml; the hardware is hw/ip/yeh (core montu:ip:yeh,
top yeh_top); the golden model is montu.arith.yeh.
"""

from montu.engines.yeh.engine import YehEngine, YehError, open, params_for_bits
from montu.engines.yeh.simulator import ISA, YehSimulator, decode_slots, encode, exp_multiplications

__all__ = ["ISA", "YehEngine", "YehError", "YehSimulator", "decode_slots", "encode",
           "exp_multiplications", "open", "params_for_bits"]

# The builds `montu synth --engine yeh` places and routes: the paper's 1024 bits. NBits = 2048 does
# not fit the ECP5-85: the 1024-bit build already takes 64,222 of its 83,640 LUT sites (76 %), and
# the datapath grows linearly with NBits (`montu synth --engine yeh --param NBits=2048` tries it).
SYNTH_BUILDS = ({"NBits": 1024},)

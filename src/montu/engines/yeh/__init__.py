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

# The builds `montu synth --engine yeh` runs: the paper's 1024 bits (post-route 35.9 MHz) and 2048,
# which does not fit the ECP5-85 (Yosys: 105,559 LUT4, 106,703 of its 83,640 LUT sites, 128 %),
# recorded as such: the area is the result (docs/engines.md, "Resources and fmax").
SYNTH_BUILDS = ({"NBits": 1024}, {"NBits": 2048})

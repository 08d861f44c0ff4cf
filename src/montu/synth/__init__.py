"""The open FPGA flow of the unit: Yosys (slang front end, synth_ecp5) and nextpnr-ecp5.

`montu.synth.flow.run(config)` synthesizes, places and routes one configuration of montu_top and
returns its figures (cells, utilization, achieved fmax, tool versions); `montu.synth.results`
keeps them in bench/results/synth.json. The command is `montu synth` (see `montu synth -h`).
"""

from montu.synth.config import SWEEP, Device, EngineSynthConfig, SynthConfig
from montu.synth.flow import SynthError, SynthResult, run

__all__ = ["SWEEP", "Device", "EngineSynthConfig", "SynthConfig", "SynthError", "SynthResult", "run"]

"""The default backend: an instruction-level, cycle-exact model of the Montu unit."""

from montu.backends.sim.simulator import Simulator

__all__ = ["Simulator"]

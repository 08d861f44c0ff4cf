"""Montu: an open, verified dual-field public-key crypto coprocessor."""

from montu.arith.field import Field
from montu.driver import Unit, UnitError
from montu.errors import ModulusError, MontuError, NoInverse

__all__ = ["Field", "ModulusError", "MontuError", "NoInverse", "Unit", "UnitError"]
__version__ = "0.1.0"

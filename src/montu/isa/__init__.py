"""The Montu instruction set: the one table (instructions.yaml) and its encoding."""

from montu.isa.encoding import Command, Response, decode_slots, encode
from montu.isa.table import Instruction, InstructionSet, evaluate_formula, load

__all__ = ["Command", "Instruction", "InstructionSet", "Response", "decode_slots", "encode",
           "evaluate_formula", "load"]

"""`montu synth`: the open FPGA flow (owned by issue #6)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    """Nothing yet: issue #6 adds `montu synth` here."""

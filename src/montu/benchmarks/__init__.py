"""Benchmark commands (`montu bench ...`): they print tables and write bench/results/*.json."""

from __future__ import annotations

from pathlib import Path

RESULTS_DIR = Path("bench/results")
DEFAULT_UNIT_NOTE = "targets are for the default unit (PipelinedMac = 0), not judged for this one"


def results_path(name: str, pipelined_mac: bool = False) -> Path:
    """bench/results/<name>.json, or <name>_pm.json for the unit with pipelined MAC lanes (so a
    run of that unit never overwrites the default unit's results)."""
    return RESULTS_DIR / f"{name}{'_pm' if pipelined_mac else ''}.json"


def unit_text(pipelined_mac: bool) -> str:
    """How the tables' headers name the MAC lanes: PipelinedMac=0 or PipelinedMac=1 (pipelined)."""
    return "PipelinedMac=1 (pipelined MAC lanes)" if pipelined_mac else "PipelinedMac=0"

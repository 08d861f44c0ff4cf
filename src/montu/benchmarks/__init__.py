"""Benchmark commands (`montu bench ...`): they print tables and write bench/results/*.json."""

from __future__ import annotations

import json
from pathlib import Path

RESULTS_DIR = Path("bench/results")
DEFAULT_UNIT_NOTE = "targets are for the default unit (Pipelined = 0), not judged for this one"


def results_path(name: str, pipelined: bool = False) -> Path:
    """bench/results/<name>.json, or <name>_pipelined.json for the pipelined unit (so a
    run of that unit never overwrites the default unit's results)."""
    return RESULTS_DIR / f"{name}{'_pipelined' if pipelined else ''}.json"


def unit_text(pipelined: bool) -> str:
    """How the tables' headers name the build: Pipelined=0 or Pipelined=1 (pipelined engines)."""
    return "Pipelined=1 (pipelined MAC lanes, word and inversion engines)" if pipelined else "Pipelined=0"


def write_results(out: Path, data: dict, table: str) -> dict:
    """Print the table and write `out` (the JSON data) and the same table as `out` with .txt."""
    print(table)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")
    out.with_suffix(".txt").write_text(table + "\n")
    return data

"""Where the repository's non-Python parts are, from one place.

The hardware tree (FuseSoC cores, SystemVerilog, benches) is not part of the installed Python
package: it is found in the source checkout that an editable install (`pip install -e .`) points
at, or where `$MONTU_HW_DIR` says.
"""

from __future__ import annotations

import os
from pathlib import Path


def repo_root() -> Path:
    """The source checkout this package was installed from (editable install)."""
    return Path(__file__).resolve().parents[2]


def hw_root() -> Path:
    """The hardware tree: `$MONTU_HW_DIR`, else the checkout's hw/."""
    override = os.environ.get("MONTU_HW_DIR")
    if override:
        return Path(override).expanduser().resolve()
    return repo_root() / "hw"

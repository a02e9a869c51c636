"""Run every benchmark (make bench)."""

from __future__ import annotations

import runpy
from pathlib import Path

for name in ("ingest", "analysis", "reports", "site", "capture"):
    runpy.run_path(str(Path(__file__).parent / f"{name}.py"), run_name="__main__")

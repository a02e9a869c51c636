"""Run every benchmark (make bench)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

HERE = Path(__file__).parent
# The site twice: Hugo over 1,000 synthetic sets, and the whole pipeline over the 8 examples (the goals for them).
RUNS = [("ingest", []), ("analysis", []), ("executor", []), ("reports", []), ("site", ["--sets", "1000"]), ("site", ["--sets", "8", "--mode", "pipeline"]), ("capture", [])]

for name, args in RUNS:
    sys.argv = [str(HERE / f"{name}.py"), *args]
    runpy.run_path(str(HERE / f"{name}.py"), run_name="__main__")

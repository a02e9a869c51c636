"""Where the steps write, relative to the working folder: one name per build folder, read by the
steps and the CLI instead of repeated literals."""

from __future__ import annotations

from pathlib import Path

BUILD = Path("build")
CATALOG = BUILD / "wirespeed.duckdb"        # the DuckDB catalog (ingest)
ANALYSIS = BUILD / "analysis"               # executed notebooks: <slug>/<notebook>/ and <slug>/index.json
HUGO_DATA = BUILD / "hugo-data"             # site data Hugo mounts as data/ (site-data export)
SITE_STATIC = BUILD / "site-static"         # charts, tables and notebooks Hugo mounts as static/
REPORTS = BUILD / "reports"                 # <slug>.pdf and <slug>.manifest.json
TRENDS = BUILD / "trends"                   # series/<device>/<series>/: each trend chart and its manifest; trends.pdf, the trend report
STATUS = BUILD / "status"                   # <slug>.json: each step's outcome for a set
LOGS = BUILD / "logs"                       # <slug>/<step>-<name>.log: a failure's full text; kernels.log: the notebook kernels' own messages
HUGO_LEFT_OUT = BUILD / "hugo-left-out.toml"  # Hugo config that ignores articles citing left-out sets

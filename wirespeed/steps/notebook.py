"""What a notebook needs: its result set from the catalog (read-only) and its output folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from wirespeed.catalog import view as summary_mod
from wirespeed.steps.outputs import Outputs


@dataclass
class Analysis:
    """One notebook run: the result set's summary, catalog connection and outputs."""

    slug: str
    con: duckdb.DuckDBPyConnection
    summary: dict[str, Any]
    out: Outputs

    @property
    def tests(self) -> list[dict[str, Any]]:
        return self.summary["meta"]["tests"]

    def samples(self) -> list[dict[str, Any]]:
        return summary_mod.samples(self.con, self.slug)

    def histograms(self) -> list[dict[str, Any]]:
        return summary_mod.histograms(self.con, self.slug)

    def finish(self) -> None:
        self.out.finish()
        self.con.close()


def open_set(slug: str, catalog: str | Path, output_dir: str | Path) -> Analysis:
    """Open the catalog read-only and prepare the output folder of this run."""
    con = duckdb.connect(str(catalog), read_only=True)
    return Analysis(slug, con, summary_mod.set_summary(con, slug), Outputs(output_dir, slug))

"""What a notebook needs: its result set from the catalog (read-only) and its output folder."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb

from wirespeed.catalog import view as summary_mod
from wirespeed.analysis.outputs import Outputs


class Disagreement(AssertionError):
    """A figure a notebook computes in view differs from the catalog's (the engine changed, or the notebook's formula is wrong)."""


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

    def sql(self, query: str) -> duckdb.DuckDBPyRelation:
        """A query of the catalog with $slug bound to this run's result set (a relation: shown as a table, queried further)."""
        return self.con.sql(query, params={"slug": self.slug}) if "$slug" in query else self.con.sql(query)

    def agree(self, rel: duckdb.DuckDBPyRelation, pairs: dict[str, str], what: str) -> int:
        """Check that every figure computed in view equals the catalog's, bit for bit (NULL only where the catalog has NULL):
        `pairs` maps the in-view column to the catalog's column. Raises Disagreement naming the first row that differs;
        returns the number of rows compared."""
        differs = " OR ".join(f'"{mine}" IS DISTINCT FROM "{theirs}"' for mine, theirs in pairs.items())
        bad = rel.filter(differs).limit(1).fetchall()
        if bad:
            row = dict(zip(rel.columns, bad[0]))
            mine, theirs = next((m, t) for m, t in pairs.items() if row[m] != row[t])
            raise Disagreement(f"{self.slug}: {what}: computed here {mine} = {row[mine]!r}, the catalog has {theirs} = {row[theirs]!r} "
                               f"(row {row}): the engine and this notebook no longer agree")
        return len(rel)

    def agree_rows(self, mine: dict[Any, dict[str, Any]], engine: dict[Any, dict[str, Any]], what: str) -> int:
        """The same check for figures the engine computes when read rather than stores (a ramp's summary, a table's cells):
        the same keys on both sides and every field equal, bit for bit. Raises Disagreement; returns the rows compared."""
        if set(mine) != set(engine):
            raise Disagreement(f"{self.slug}: {what}: computed here for {sorted(map(str, mine))}, the engine for {sorted(map(str, engine))}")
        for key, row in mine.items():
            for name, value in row.items():
                if value != engine[key][name]:
                    raise Disagreement(f"{self.slug}: {what} of {key}: computed here {name} = {value!r}, the engine has {engine[key][name]!r}: "
                                       "the engine and this notebook no longer agree")
        return len(mine)

    def finish(self) -> None:
        self.out.finish()
        self.con.close()


def open_set(slug: str, catalog: str | Path, output_dir: str | Path) -> Analysis:
    """Open the catalog read-only and prepare the output folder of this run."""
    con = duckdb.connect(str(catalog), read_only=True)
    return Analysis(slug, con, summary_mod.set_summary(con, slug), Outputs(output_dir, slug))

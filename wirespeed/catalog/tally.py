"""What the catalog holds, counted: the published slugs and, per result set, its tests, rows, checked
published figures, errata and errors (`wirespeed summary`, `wirespeed build --shard`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb

from wirespeed.catalog.store import connect


@dataclass(frozen=True)
class SetTally:
    """One result set's counts in the catalog."""

    slug: str
    status: str
    tests: int
    rows: int
    checked: int  # published derived figures the engine recomputed
    agree: int  # … of which it reproduced
    errata: int  # findings acknowledged by errata
    errors: int

    @property
    def disagree(self) -> int:
        return self.checked - self.agree


def published(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The slugs of the published result sets, sorted."""
    return [s for (s,) in con.execute("SELECT slug FROM published_sets ORDER BY slug").fetchall()]


def published_slugs(db: Path) -> list[str]:
    """The slugs of the published result sets in the catalog at `db`, sorted (read-only)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return published(con)
    finally:
        con.close()


def set_tallies(db: Path) -> list[SetTally]:
    """Every result set of the catalog at `db` with its counts, by slug."""
    con = connect(db)
    try:
        rows = con.execute(
            "SELECT s.slug, s.status, (SELECT count(*) FROM tests t WHERE t.slug = s.slug),"
            " (SELECT count(*) FROM rows r WHERE r.slug = s.slug),"
            " (SELECT count(*) FROM agreements a WHERE a.slug = s.slug),"
            " (SELECT count(*) FROM agreements a WHERE a.slug = s.slug AND a.agree),"
            " (SELECT count(*) FROM findings f WHERE f.slug = s.slug AND f.severity = 'acknowledged'),"
            " (SELECT count(*) FROM findings f WHERE f.slug = s.slug AND f.severity = 'error')"
            " FROM result_sets s ORDER BY s.slug").fetchall()
    finally:
        con.close()
    return [SetTally(*r) for r in rows]

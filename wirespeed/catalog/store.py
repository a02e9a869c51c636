"""The DuckDB catalog: every result set loaded once, incrementally, with the engine's derived figures.

`ingest` reloads a result set only when the content hash of its files (or of the engine code)
changed, inside one transaction per set, and accounts for every input row: loaded or rejected
with a reason.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Callable, Iterable

import duckdb

import wirespeed
from wirespeed.engine import dates, names
from wirespeed.checks import run_checks
from wirespeed.engine.columns import METRICS, TABLE_METRICS
from wirespeed.catalog import trend
from wirespeed.catalog.append import append
from wirespeed.checks.consistency import agreements
from wirespeed.engine.derive import context, counts, derived, offered_from_load
from wirespeed.engine.ramp import running_stream
from wirespeed.problems import Problem, display_path, internal_problem
from wirespeed.catalog.load import RESULT_FILE, load_many
from wirespeed.resultset.model import ResultSet, Row
from wirespeed.engine.rfc2544 import Trial, throughput as rfc2544_throughput

DEFAULT_DB = Path("build/wirespeed.duckdb")


def ingest_code() -> dict[str, str]:
    """Module → sha256 of the code ingest runs: this module and what it imports, transitively, with the
    installed checks and importers. Only what ingest imports: the layers (pyproject.toml) keep the
    presentation's number display and the steps out of it, so a change there re-derives nothing."""
    from importlib.metadata import entry_points

    from wirespeed.system.codehash import code_closure

    # each plugin's module as its entry point names it, and what that imports (an importer's convert is there or
    # imported from there), read without loading the plugins
    plugins = sorted(f"import {ep.module}" for group in ("checks", "importers") for ep in entry_points(group=f"wirespeed.{group}"))
    return code_closure("import wirespeed.catalog.store\n" + "\n".join(plugins))


def engine_hash() -> str:
    """Hash of the code ingest runs (`ingest_code`), the schema and the SQL: a new engine re-derives every result set."""
    root = Path(wirespeed.__file__).parent
    h = hashlib.sha256(json.dumps(ingest_code(), sort_keys=True).encode())
    for p in sorted([*root.glob("schema/*.json"), *root.glob("catalog/sql/*.sql")]):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def folder_hash(folder: Path) -> str:
    """Content hash of every file of a result set folder (names and bytes, not timestamps).

    The folder is walked and read without following links; a folder that cannot be read safely
    (a symlink, a special file, a limit passed) hashes to "", so it is always loaded and refused."""
    from wirespeed.resultset.setfolder import SetFolder, UnsafeFile

    h = hashlib.sha256()
    try:
        with SetFolder(folder) as setdir:
            present, refused = setdir.walk()
            if refused:
                return ""
            for rel in sorted(present):
                stream, _st = setdir.open(rel)
                with stream:
                    fh = hashlib.sha256()
                    while chunk := stream.read(1 << 16):
                        fh.update(chunk)
                h.update(rel.encode() + b"\0" + fh.digest())
    except UnsafeFile:
        return ""
    return h.hexdigest()


def connect(db: Path = DEFAULT_DB, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    """Open the catalog, creating its tables when new."""
    db.parent.mkdir(parents=True, exist_ok=True)
    con = duckdb.connect(str(db), read_only=read_only)
    if not read_only:
        sql = resources.files("wirespeed.catalog.sql").joinpath("catalog.sql").read_text("utf-8") + measurement_views()
        schema_hash = hashlib.sha256(sql.encode()).hexdigest()
        tables = {t for (t,) in con.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall()}
        old = con.execute("SELECT value FROM catalog_info WHERE key = 'schema_hash'").fetchone() if "catalog_info" in tables else None
        if old is None or old[0] != schema_hash:
            # The catalog is derived data: a new schema means a fresh catalog, reloaded from the archive.
            for kind, name in con.execute("SELECT table_type, table_name FROM information_schema.tables WHERE table_schema = 'main'").fetchall():
                con.execute(f'DROP {"VIEW" if kind == "VIEW" else "TABLE"} IF EXISTS "{name}"')
            con.execute(sql)
            con.execute("INSERT OR REPLACE INTO catalog_info VALUES ('schema_hash', ?)", [schema_hash])
    return con


def measurement_views() -> str:
    """Wide views over cells: one column per metric, in canonical units, named with the unit."""
    from wirespeed.engine.units import CANONICAL

    sql = []
    keys = "r.slug, r.row_id, r.file, r.line, r.test_id, r.frame_size, r.imix, r.load_pct, r.direction, r.variant"
    extra = {"measurements": ", r.trial, r.component, r.port", "samples": ", r.port, r.t_s", "histograms": ", r.bucket_low_us, r.bucket_high_us"}
    for kind, metrics in TABLE_METRICS.items():
        cols = ",\n  ".join(
            f"max(c.value) FILTER (WHERE c.metric = '{m}') AS {m}_{CANONICAL[METRICS[m].dimension]}" for m in sorted(metrics)
        )
        sql.append(
            f"CREATE OR REPLACE VIEW {kind} AS SELECT {keys}{extra[kind]},\n  {cols}\n"
            f"FROM rows r LEFT JOIN cells c USING (slug, row_id) WHERE r.kind = '{kind}'\n"
            f"GROUP BY ALL ORDER BY r.slug, r.row_id;"
        )
    return "\n".join(sql)


@dataclass
class SetReport:
    """What ingest did with one result set."""

    slug: str
    path: str
    action: str  # loaded | unchanged | rejected | removed
    rows_read: int = 0
    rows_loaded: int = 0
    rows_rejected: int = 0
    errors: list[Problem] = field(default_factory=list)
    warnings: int = 0


def _count_data_lines(folder: Path) -> int:
    """Non-blank lines after the header of every CSV file of a refused set, read safely and within the CSV size limit."""
    from wirespeed.resultset.limits import value
    from wirespeed.resultset.setfolder import SetFolder, UnsafeFile

    n = 0
    try:
        with SetFolder(folder) as setdir:
            present, _refused = setdir.walk()
            for rel, st in sorted(present.items()):
                if not rel.endswith(".csv") or st.st_size > value("file_size.csv"):
                    continue
                try:
                    stream, _st = setdir.open(rel)
                except UnsafeFile:
                    continue
                with stream:
                    n += max(sum(1 for line in stream if line.strip()) - 1, 0)
    except (UnsafeFile, OSError):
        pass
    return n


def _delete(con, slug: str) -> None:
    for table in ("result_sets", "files", "tests", "rows", "cells", "derived", "trial_throughput", "agreements", "findings", "rejects"):
        con.execute(f"DELETE FROM {table} WHERE slug = ?", [slug])


def _insert_set(con, rs: ResultSet, problems: list[Problem], chash: str, ehash: str) -> tuple[int, int]:
    m = rs.meta
    src, dut, inst = m["source"], m["dut"], m["instrument"]
    published = src.get("published")  # None: an undated source
    con.execute(
        "INSERT INTO result_sets VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [rs.slug, display_path(rs.path), chash, ehash, m["format_version"], m["title"], m.get("summary"), m["status"],
         m.get("embargo_until"), m["licence"], src["kind"], src["publisher"], src.get("publication_kind"), src.get("document"),
         published, dates.year(published), src.get("commissioned_by"), dut["vendor"], dut["model"], dut.get("kind"),
         names.full(inst["vendor"], inst["product"]), dut.get("forwarding_cap_pps"), json.dumps(m)],
    )
    roles = {RESULT_FILE: "metadata"}
    for kind in ("measurements", "samples", "histograms"):
        roles.update({p: kind for p in m["files"].get(kind, [])})
    roles.update({n["path"]: "native" for n in m["files"].get("native", [])})
    roles.update({a["path"]: "attachment" for a in m["files"].get("attachments", [])})
    append(con, "files", [[rs.slug, p, roles.get(p, "other"), h] for p, h in sorted(rs.file_hashes.items())])
    append(con, "tests", [[rs.slug, t.id, i, t.title, t.meta["rfc"], t.meta["scenario"], t.meta["topology"], t.meta["ports"], t.meta["port_speed"],
          t.link.media, t.link.bps, t.link.payload_bps, t.meta["direction"], t.meta.get("receivers"), t.convention,
          json.dumps(t.meta), json.dumps(t.methodology)] for i, t in enumerate(rs.tests.values())])
    row_records, cell_records, derived_records = [], [], []
    ids: dict[int, int] = {}
    for row_id, row in enumerate(rs.rows, start=1):
        ids[id(row)] = row_id
        k = row.keys
        fs = k.get("frame_size")
        num = lambda key: float(k[key].value) if key in k else None  # noqa: E731
        row_records.append([rs.slug, row_id, row.kind, row.file, row.line, row.test, fs if isinstance(fs, int) else None,
                            fs if isinstance(fs, str) else None, num("load_pct"), k.get("direction"), k.get("variant"),
                            k.get("trial"), k.get("component"), k.get("port"), num("t_s"), num("bucket_low_us"), num("bucket_high_us")])
        for metric, cell in row.cells.items():
            lo, hi = cell.canonical.interval()
            cell_records.append([rs.slug, row_id, metric, cell.figure.text, cell.unit.name, cell.unit.symbol, float(cell.unit.factor),
                                 cell.figure.decimals, cell.figure.qualifier, float(cell.canonical.value), lo, hi])
        if row.kind in ("measurements", "samples"):  # samples too: a ramp's line rate is read, never recomputed
            test = rs.tests[row.test]
            ctx = context(rs, test, row)
            if ctx is not None:
                d = {**counts(row, row.kind == "samples" or running_stream(test.meta.get("rfc", []), test.methodology)), **derived(row, ctx)}
                tp = d.get("throughput")
                val = lambda name: d[name][0].value if name in d else None  # noqa: E731
                # ports without a line rate of their own (veth): the port speed is a label, no share of it is a figure,
                # and no layer-1 rate either (there is no preamble or inter-frame gap to count)
                line = None if test.meta.get("port_speed_nominal") else ctx.line_rate_fps
                share = (lambda name: val(name) if line is not None else None)  # noqa: E731
                derived_records.append([rs.slug, row_id, ctx.frame, ctx.wire_bits, ctx.streams, line, ctx.max_theoretical_fps if line else None,
                                        ctx.capped, tp[0].value if tp else None, tp[0].lo if tp else None, tp[0].hi if tp else None,
                                        tp[1] if tp else None, share("throughput_l1"), val("throughput_l2"), share("throughput_line_rate"),
                                        share("throughput_max_theoretical"), line * ctx.wire_bits if line else None, val("lost"), val("loss"), val("forwarding_rate")])
    append(con, "rows", row_records)
    append(con, "cells", cell_records)
    append(con, "derived", derived_records)
    append(con, "trial_throughput", _trial_throughputs(rs))
    append(con, "agreements", [[rs.slug, ids[id(a.row)], a.test, a.metric, a.where, a.published, a.published_lo, a.published_hi, a.recomputed.value,
                                a.recomputed.lo, a.recomputed.hi, a.recomputed_text, a.unit_symbol, a.basis, a.agree] for a in agreements(rs)])
    append(con, "findings", [[rs.slug, p.file, p.line, p.field, p.message, p.rule, p.severity] for p in problems])
    rejected = [p for p in problems if p.severity == "error" and p.line]
    append(con, "rejects", [[rs.slug, p.file, p.line, f"{p.field}: {p.message}" if p.field else p.message, p.rule] for p in rejected])
    return len(rs.rows), len({(p.file, p.line) for p in rejected})


def _trial_throughputs(rs: ResultSet) -> list[list]:
    """RFC 2544 throughput from trial rows (offered rate + frames sent and received)."""
    groups: dict[tuple, list[tuple[Row, Trial]]] = {}
    for row in rs.measurements():
        k = row.keys
        if "trial" not in k or "tx" not in row.cells or "rx" not in row.cells or row.value("tx") < 1:
            continue  # a trial that sent no frame has no loss rate (the frame-counts check reports it)
        test = rs.tests[row.test]
        ctx = context(rs, test, row)
        offered = row.value("offered_rate")
        if offered is None and ctx is not None and (from_load := offered_from_load(row, ctx)) is not None:
            offered = from_load.value
        if offered is None:
            continue
        key = (row.test, k.get("frame_size"), k.get("direction", test.meta["direction"]), k.get("variant"))
        groups.setdefault(key, []).append((row, Trial(offered, int(row.value("tx")), int(row.value("rx")), k["trial"])))
    out = []
    for (test_id, fs, direction, variant), items in sorted(groups.items(), key=lambda kv: str(kv[0])):
        test = rs.tests[test_id]
        tol = float(test.methodology.get("loss_tolerance_pct", 0))
        ctx = context(rs, test, items[0][0])
        lossy = any(t.tx_frames and (t.tx_frames - t.rx_frames) * 100 / t.tx_frames > tol for _, t in items)
        if not lossy and (ctx is None or max(t.offered_fps for _, t in items) < ctx.line_rate_fps * (1 - 1e-3)):
            continue  # trials that never lost below the line rate bound the throughput from below only (e.g. latency trials at fixed loads)
        res = rfc2544_throughput([t for _, t in items], tol)
        out.append([rs.slug, test_id, fs if isinstance(fs, int) else None, fs if isinstance(fs, str) else None, direction, variant,
                    res.fps if res else None, res.min_fps if res else None, res.max_fps if res else None,
                    res.trials if res else 0, ctx.line_rate_fps if ctx and not test.meta.get("port_speed_nominal") else None])
    return out


def _failed(con, folder: Path, problem: Problem) -> SetReport:
    """Record a set whose ingest failed unexpectedly as rejected as a whole (its old rows removed)."""
    n = _count_data_lines(folder) if folder.is_dir() else 0
    con.execute("BEGIN TRANSACTION")
    _delete(con, folder.name)
    con.execute("INSERT INTO rejects VALUES (?,?,?,?,?)", [folder.name, problem.file, None, f"whole result set rejected: {problem.message}", problem.rule])
    con.execute("INSERT INTO findings VALUES (?,?,?,?,?,?,?)", [folder.name, problem.file, None, "", problem.message, problem.rule, "error"])
    con.execute("COMMIT")
    return SetReport(folder.name, display_path(folder), "rejected", n, 0, n, [problem])


def ingest(folders: Iterable[Path], db: Path = DEFAULT_DB, progress: Callable[[str], None] | None = None, prune: bool = True) -> list[SetReport]:
    """Load result set folders into the catalog; unchanged ones are skipped, missing ones removed."""
    folders = sorted(Path(f) for f in folders)
    con = connect(db)
    ehash = engine_hash()
    known = {s: (c, e) for s, c, e in con.execute("SELECT slug, content_hash, engine_hash FROM result_sets").fetchall()}
    reports: list[SetReport] = []
    todo: list[Path] = []
    hashes: dict[Path, str] = {}
    for f in folders:
        try:
            hashes[f] = folder_hash(f)
        except Exception:  # noqa: BLE001 - a folder that cannot be hashed (an I/O error) is loaded, and refused by name
            hashes[f] = ""
        if known.get(f.name) == (hashes[f], ehash):
            n = con.execute("SELECT count(*) FROM rows WHERE slug = ?", [f.name]).fetchone()[0]
            reports.append(SetReport(f.name, display_path(f), "unchanged", n, n, 0))
        else:
            todo.append(f)
    loaded = load_many(todo) if todo else []
    for folder, rs, problems in loaded:
        if progress:
            progress(folder.name)
        errors = [p for p in problems if p.severity == "error"]
        con.execute("BEGIN TRANSACTION")
        try:
            _delete(con, folder.name)
            if rs is None or any(p.line is None for p in errors):
                n = _count_data_lines(folder)
                reason = errors[0] if errors else Problem(display_path(folder), None, "", "could not be loaded", "layout")
                con.execute("INSERT INTO rejects VALUES (?,?,?,?,?)", [folder.name, reason.file, reason.line, f"whole result set rejected: {reason.message}", reason.rule])
                append(con, "findings", [[folder.name, p.file, p.line, p.field, p.message, p.rule, p.severity] for p in problems])
                reports.append(SetReport(folder.name, display_path(folder), "rejected", n, 0, n, errors))
            else:
                check_problems = run_checks(rs)
                all_problems = problems + check_problems
                read = getattr(rs, "counts", {}).get("read", len(rs.rows))
                n_loaded, _ = _insert_set(con, rs, all_problems, hashes[folder], ehash)
                check_errors = [p for p in check_problems if p.severity == "error"]
                reports.append(SetReport(rs.slug, display_path(folder), "loaded", read, n_loaded, read - n_loaded,
                                         errors + check_errors, sum(p.severity == "warning" for p in all_problems)))
            con.execute("COMMIT")
        except Exception as exc:  # noqa: BLE001 - one set's unexpected failure is reported on it; the others still load
            con.execute("ROLLBACK")
            reports.append(_failed(con, folder, internal_problem(folder / RESULT_FILE, "ingesting", exc)))
        except BaseException:
            con.execute("ROLLBACK")
            raise
    if prune:
        present = {f.name for f in folders}
        for slug in sorted(set(known) - present):
            con.execute("BEGIN TRANSACTION")
            _delete(con, slug)
            con.execute("COMMIT")
            reports.append(SetReport(slug, "", "removed"))
    con.execute("INSERT OR REPLACE INTO catalog_info VALUES ('engine_hash', ?), ('wirespeed_version', ?), ('duckdb_version', ?)",
                [ehash, wirespeed.__version__, duckdb.__version__])
    trend.refresh(con)  # the series across sets, when the published sets changed
    con.close()
    return sorted(reports, key=lambda r: r.slug)


def result_folders(root: Path = Path("data/results")) -> list[Path]:
    """Every result set folder under the archive root. A symlink is listed, not followed, so that
    loading it refuses it by name ([layout.symlink]) instead of dropping it silently."""
    return sorted(p for p in root.iterdir() if p.is_symlink() or p.is_dir()) if root.is_dir() else []

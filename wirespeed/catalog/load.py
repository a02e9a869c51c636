"""Loading a result set folder: result.toml (schema + semantics), its CSV tables and its native files, which the
importers convert (wirespeed.importers.run_importer). It sits above the importers and the result set's own readers
(wirespeed.resultset), which it puts together; ingest, `wirespeed validate` and the collectors load through it."""

from __future__ import annotations

import datetime as _dt
import hashlib
import tomllib
from pathlib import Path
from typing import Any

from wirespeed.engine.imix import PROFILES, Imix
from wirespeed.importers import run_importer
from wirespeed.engine.linerate import parse_speed
from wirespeed.problems import InputError, Problem, display_path, internal_problem
from wirespeed.resultset.csvtable import decode_utf8, read_table, row_identity
from wirespeed.resultset.methodology import merged
from wirespeed.resultset.declared import TABLE_KINDS, check_content, declared_files, layout_problems, read_file, unsafe_problem
from wirespeed.resultset.limits import describe, value
from wirespeed.resultset.tomllines import with_lines
from wirespeed.resultset.model import ResultSet, Row, TestSpec
from wirespeed.resultset.schemacheck import schema, schema_problem, validator
from wirespeed.resultset.nesting import structure_problems, toml_depth_problem
from wirespeed.resultset.paths import is_path_field, path_problems
from wirespeed.resultset.semantics import check_dates, check_frame_sizes, check_native_specs, check_numbers, check_publishable
from wirespeed.resultset.setfolder import SetFolder, UnsafeFile
from wirespeed.resultset.text import check_document
from wirespeed.resultset.upgrade import FormatVersionError, upgrade

RESULT_FILE = "result.toml"


def _plain(value: Any) -> Any:
    """TOML dates and times become ISO strings, so the schema sees one type for dates."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    return value


def _resolve_tests(doc: dict[str, Any], file: str) -> tuple[dict[str, TestSpec], list[Problem]]:
    problems: list[Problem] = []
    tests: dict[str, TestSpec] = {}
    defaults = doc.get("methodology", {})
    for i, t in enumerate(doc["tests"]):
        where = f"tests[{i}]"
        if t["id"] in tests:
            problems.append(Problem(file, None, f"{where}.id", f"test id {t['id']!r} is declared twice", "semantic.duplicate-test"))
            continue
        try:
            link = parse_speed(t["port_speed"])
        except ValueError as exc:
            problems.append(Problem(file, None, f"{where}.port_speed", str(exc), "semantic.port-speed"))
            continue
        media = t.get("media", link.media)
        if media != link.media:
            problems.append(Problem(file, None, f"{where}.media", f"media {media!r} does not match port speed {t['port_speed']!r} ({link.media})", "semantic.media"))
            continue
        method = merged(defaults, t.get("methodology"))
        imixes: dict[str, Imix] = {}
        for j, mix in enumerate(method.get("imix", [])):
            conv = method.get("frame_size_convention", "ip-packet" if link.media == "pos" else "ethernet-frame")
            place = f"{where}.methodology.imix[{j}]" if "imix" in t.get("methodology", {}) else f"methodology.imix[{j}]"
            if len(mix["sizes"]) != len(mix["weights"]):
                problems.append(Problem(file, None, place, f"{len(mix['sizes'])} sizes but {len(mix['weights'])} weights", "semantic.imix"))
                continue
            imix = Imix(tuple(mix["sizes"]), tuple(mix["weights"]), conv)
            profile = mix.get("profile")
            if profile is not None:
                ref = PROFILES.get(profile)
                if ref is None:
                    problems.append(Problem(file, None, f"{place}.profile", f"unknown IMIX profile {profile!r} (built in: {', '.join(PROFILES)})", "semantic.imix"))
                    continue
                if abs(ref.average_frame() - imix.average_frame()) > 1e-9:
                    problems.append(Problem(file, None, place, f"sizes and weights do not match profile {profile!r} (average frame {imix.average_frame():.2f} vs {ref.average_frame():.2f} bytes)", "semantic.imix"))
                    continue
            imixes[mix["id"]] = imix
        if t["topology"] == "multicast" and not t.get("receivers"):
            problems.append(Problem(file, None, f"{where}.receivers", "a multicast test must say how many receivers it has", "semantic.multicast"))
        if t["topology"] != "full-mesh" and t["topology"] != "multicast" and t["direction"] == "unidirectional" and t["ports"] % 2:
            problems.append(Problem(file, None, f"{where}.ports", f"{t['ports']} ports cannot form unidirectional pairs", "semantic.ports"))
        tests[t["id"]] = TestSpec(t["id"], t, method, link, imixes)
    return tests, problems


def _semantic_meta(doc: dict[str, Any], folder: Path, tests: dict[str, TestSpec], file: str) -> list[Problem]:
    problems: list[Problem] = []
    if doc["slug"] != folder.name:
        problems.append(Problem(file, None, "slug", f"slug {doc['slug']!r} differs from the folder name {folder.name!r}", "semantic.slug"))
    if doc["status"] == "embargoed" and "embargo_until" not in doc:
        problems.append(Problem(file, None, "embargo_until", "an embargoed result set needs embargo_until", "semantic.embargo"))
    if doc["status"] != "embargoed" and "embargo_until" in doc:
        problems.append(Problem(file, None, "embargo_until", f"embargo_until is set but status is {doc['status']!r}", "semantic.embargo"))
    camp = doc.get("campaign", {})
    if "start" in camp and "end" in camp and camp["end"] < camp["start"]:
        problems.append(Problem(file, None, "campaign.end", f"ends ({camp['end']}) before it starts ({camp['start']})", "semantic.dates"))
    for i, comp in enumerate(doc.get("comparisons", [])):
        for t in comp["tests"]:
            if t not in tests:
                problems.append(Problem(file, None, f"comparisons[{i}].tests", f"unknown test id {t!r}", "semantic.unknown-test"))
        if "labels" in comp and len(comp["labels"]) != len(comp["tests"]):
            problems.append(Problem(file, None, f"comparisons[{i}].labels", "needs one label per test", "semantic.comparison"))
    for i, err in enumerate(doc.get("errata", [])):
        if err["test"] not in tests:
            problems.append(Problem(file, None, f"errata[{i}].test", f"unknown test id {err['test']!r}", "semantic.unknown-test"))
    return problems


def load(folder: Path | str) -> tuple[ResultSet | None, list[Problem]]:
    """Load and validate one result set folder. Returns (result set or None, problems).

    Problems of severity "error" mean the result set must not be published; rows with
    problems are left out of the returned result set and named in the problems. The folder
    is read without following symlinks and within the limits of wirespeed.resultset.limits.
    """
    folder = Path(folder)
    try:
        setdir = SetFolder(folder)
    except UnsafeFile as exc:
        return None, [unsafe_problem(folder, exc)]
    with setdir:
        rs, problems = _load(setdir)
    text = getattr(setdir, "toml_text", None)
    return rs, (with_lines(problems, display_path(folder / RESULT_FILE), text) if text is not None else problems)


def _load(setdir: SetFolder) -> tuple[ResultSet | None, list[Problem]]:
    folder = setdir.path
    rfile = folder / RESULT_FILE
    file = display_path(rfile)
    present, refused = setdir.walk()
    too_big = [unsafe_problem(folder, r) for r in refused if r.rule == "limit.set-size"]
    if len(too_big) < len(refused):
        return None, [unsafe_problem(folder, r) for r in refused if r.rule != "limit.set-size"]
    if RESULT_FILE not in present:
        return None, [Problem(file, None, "", "missing: every result set needs a result.toml", "layout.result-toml")]
    try:
        raw, _st = setdir.read(RESULT_FILE, "file_size.toml", "result.toml")
    except UnsafeFile as exc:
        return None, [unsafe_problem(folder, exc)]
    text, problems = decode_utf8(raw, file)
    if text is None:
        return None, problems
    setdir.toml_text = text  # type: ignore[attr-defined]  # problems about its fields get their lines (tomllines)
    deep = toml_depth_problem(text, file)
    if deep:
        return None, [deep]
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = None
        if "(at line " in msg:
            line = int(msg.split("(at line ")[1].split(",")[0])
            msg = msg.split(" (at line ")[0]
        return None, [Problem(file, line, "", f"TOML syntax: {msg}", "toml.syntax")]
    except RecursionError:  # last resort: the depth scanner above is the rule
        return None, [Problem(file, None, "", f"nested deeper than the limit of {describe('depth')}", "limit.depth")]
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        return None, [Problem(file, None, "", f"TOML cannot be read: {str(exc)[:160]}", "toml.syntax")]
    problems = structure_problems(doc, file)
    if isinstance(doc.get("tests"), list) and len(doc["tests"]) > value("tests"):
        problems.append(Problem(file, None, "tests", f"{len(doc['tests']):,} tests: more than the limit of {describe('tests')}", "limit.tests"))
    if problems:
        return None, problems
    doc = _plain(doc)
    try:
        doc = upgrade(doc)
    except FormatVersionError as exc:
        return None, [Problem(file, None, "format_version", str(exc), "format.version")]
    bad_paths = path_problems(doc, file)
    early = bad_paths + check_document(doc, file) + check_numbers(doc, file)
    errors = sorted(validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    errors = [e for e in errors if not (bad_paths and e.validator == "pattern" and is_path_field(e.absolute_path))]
    if errors or early:
        flagged = {p.field for p in early}
        return None, early + [p for e in errors if (p := schema_problem(e, file)).field not in flagged]
    tests, problems = _resolve_tests(doc, file)
    problems += _semantic_meta(doc, folder, tests, file)
    problems += check_dates(doc, schema(), file) + check_frame_sizes(doc, tests, file) + check_native_specs(doc, tests, file)
    problems += check_publishable(doc, file)
    declared = declared_files(doc)
    problems += layout_problems(folder, present, declared, file) + too_big
    if any(p.rule.startswith(("layout", "limit")) for p in problems):
        return None, problems  # nothing is read from a set whose files break the layout or the limits
    hashes = {RESULT_FILE: hashlib.sha256(raw).hexdigest()}
    rows: list[Row] = []
    counts = {"read": 0, "loaded": 0}
    natives: dict[str, list[dict]] = {}
    for spec in doc["files"].get("native", []):  # a file holding several tests is declared once per test, read once
        natives.setdefault(spec["path"], []).append(spec)
    for path, (role, _field) in declared.items():
        if role in TABLE_KINDS:
            def consume(stream, hasher, shown, _ftype, role=role):
                got, probs, n = read_table(role, stream, shown, tests, hasher)
                rows.extend(got)
                counts["read"] += n
                return probs
        elif role == "native":
            def consume(stream, hasher, shown, ftype, specs=natives[path]):
                data = stream.read(value(ftype.size_limit) + 1)
                hasher.update(data)
                out, total = [], 0  # the file's kind, compression and whole content are checked by importers.kinds.opened
                for spec in specs:
                    got, probs, n = run_importer(spec, setdir.path / spec["path"], tests, data)
                    total += n
                    if total > value("table_rows"):
                        return [Problem(shown, None, "", f"{total:,} rows: more than the limit of {describe('table_rows')} in one file", "limit.rows")]
                    rows.extend(got)
                    out += [p for p in probs if p not in out]
                counts["read"] += total
                return out
        else:
            consume = check_content
        digest, probs = read_file(setdir, path, consume)
        problems += probs
        if digest:
            hashes[path] = digest
        if counts["read"] > value("set_rows"):
            problems.append(Problem(display_path(folder / path), None, "", f"the result set passes the limit of {describe('set_rows')} here", "limit.rows"))
            return None, problems
    seen: dict[tuple, Row] = {}
    kept: list[Row] = []
    for row in rows:
        ident = (row.kind, row_identity(row))
        if ident in seen:
            first = seen[ident]
            problems.append(Problem(row.file, row.line, "", f"duplicate row: same keys as {first.file}:{first.line}", "csv.duplicate-row"))
            continue
        seen[ident] = row
        kept.append(row)
    counts["loaded"] = len(kept)
    if any(p.severity == "error" and p.rule.startswith(("schema", "semantic", "layout", "toml", "format", "limit", "encoding")) for p in problems):
        return None, problems
    if any(p.severity == "error" and p.rule.startswith("csv.") and p.line == 1 for p in problems):
        return None, problems  # a table unread for its header: checks on the rest would only report its missing rows
    rs = ResultSet(folder, doc, tests, kept, hashes)
    rs.counts = counts  # type: ignore[attr-defined]
    return rs, problems


def load_one(folder: Path | str) -> tuple[ResultSet | None, list[Problem]]:
    """load(), with an unexpected failure turned into the set's one internal problem (it must not hide the others)."""
    try:
        return load(folder)
    except Exception as exc:  # noqa: BLE001 - one set's unexpected failure must not hide the others
        return None, [internal_problem(Path(folder) / RESULT_FILE, "loading", exc)]


def across(loaded: list[tuple[Path, Any, list[Problem]]]) -> None:
    """Add to each set's problems those that involve more than one set: a slug used twice, the sets a comparison
    names, look-alike names. `loaded`: (folder, the set or what the rules read of it, the list its problems go to)."""
    from wirespeed.resultset import crossrefs, lookalikes

    slugs: dict[str, Path] = {}
    for folder, rs, problems in loaded:
        if rs is not None:
            if rs.slug in slugs:
                problems.append(Problem(display_path(Path(folder) / RESULT_FILE), None, "slug", f"duplicate slug {rs.slug!r}: also used by {display_path(slugs[rs.slug])}", "semantic.duplicate-slug"))
            else:
                slugs[rs.slug] = Path(folder)
    crossrefs.check(loaded, load)
    lookalikes.check(loaded)


def load_many(folders: list[Path]) -> list[tuple[Path, ResultSet | None, list[Problem]]]:
    """Load several result sets and add the problems that involve more than one (across())."""
    out = [(Path(folder), *load_one(folder)) for folder in folders]
    across(out)
    return out


def require(folder: Path | str) -> ResultSet:
    """Load a result set or raise InputError with its problems."""
    rs, problems = load(folder)
    errors = [p for p in problems if p.severity == "error"]
    if rs is None or errors:
        raise InputError(errors)
    return rs

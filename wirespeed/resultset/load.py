"""Loading a result set folder: result.toml (schema + semantics), its CSV tables and native files."""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import tomllib
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from wirespeed.imix import PROFILES, Imix
from wirespeed.linerate import parse_speed
from wirespeed.problems import InputError, Problem, display_path, internal_problem
from wirespeed.resultset.csvtable import decode_utf8, read_table, row_identity
from wirespeed.resultset.model import ResultSet, Row, TestSpec
from wirespeed.resultset.semantics import check_dates, check_frame_sizes, check_native_specs, check_numbers
from wirespeed.resultset.text import check_document
from wirespeed.resultset.upgrade import FormatVersionError, upgrade

RESULT_FILE = "result.toml"
TABLE_KINDS = ("measurements", "samples", "histograms")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The JSON Schema of result.toml, format 1."""
    return json.loads(resources.files("wirespeed.schema").joinpath("result.v1.schema.json").read_text("utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema())


def _plain(value: Any) -> Any:
    """TOML dates and times become ISO strings, so the schema sees one type for dates."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    return value


def _field_path(path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _schema_problem(err: jsonschema.ValidationError, file: str) -> Problem:
    field = _field_path(err.absolute_path)
    v = err.validator
    if v == "additionalProperties":
        extra = sorted(set(err.instance) - set(err.schema.get("properties", {})))
        return Problem(file, None, _field_path([*err.absolute_path, extra[0]]) if extra else field, f"unknown field {', '.join(map(repr, extra))}", "schema.unknown-field")
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        return Problem(file, None, _field_path([*err.absolute_path, missing]), f"missing required field {missing!r}", "schema.required")
    if v == "enum":
        return Problem(file, None, field, f"{err.instance!r} is not one of {', '.join(map(str, err.validator_value))}", "schema.enum")
    if v == "pattern":
        desc = err.schema.get("description", "")
        return Problem(file, None, field, f"{err.instance!r} is not in the expected form{': ' + desc if desc else ''}", "schema.pattern")
    if v == "type":
        return Problem(file, None, field, f"{err.instance!r} is not of type {err.validator_value}", "schema.type")
    return Problem(file, None, field, err.message, f"schema.{v}")


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
        method = {**defaults, **t.get("methodology", {})}
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


def _declared_files(doc: dict[str, Any]) -> dict[str, str]:
    """Every declared file path → its role."""
    files = doc["files"]
    out: dict[str, str] = {}
    for kind in TABLE_KINDS:
        for p in files.get(kind, []):
            out[p] = kind
    for n in files.get("native", []):
        out[n["path"]] = "native"
    for a in files.get("attachments", []):
        out[a["path"]] = "attachment"
    return out


def load(folder: Path | str) -> tuple[ResultSet | None, list[Problem]]:
    """Load and validate one result set folder. Returns (result set or None, problems).

    Problems of severity "error" mean the result set must not be published; rows with
    problems are left out of the returned result set and named in the problems.
    """
    from wirespeed.importers import run_importer  # late: importers import this module's model

    folder = Path(folder)
    rfile = folder / RESULT_FILE
    file = display_path(rfile)
    if not folder.is_dir():
        return None, [Problem(display_path(folder), None, "", "not a folder", "layout.folder")]
    if not rfile.is_file():
        return None, [Problem(file, None, "", "missing: every result set needs a result.toml", "layout.result-toml")]
    raw = rfile.read_bytes()
    text, problems = decode_utf8(raw, file)
    if text is None:
        return None, problems
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = None
        if "(at line " in msg:
            line = int(msg.split("(at line ")[1].split(",")[0])
            msg = msg.split(" (at line ")[0]
        return None, [Problem(file, line, "", f"TOML syntax: {msg}", "toml.syntax")]
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits, nesting too deep
        return None, [Problem(file, None, "", f"TOML cannot be read: {type(exc).__name__}: {str(exc)[:160]}", "toml.syntax")]
    doc = _plain(doc)
    try:
        doc = upgrade(doc)
    except FormatVersionError as exc:
        return None, [Problem(file, None, "format_version", str(exc), "format.version")]
    early = check_document(doc, file) + check_numbers(doc, file)
    errors = sorted(_validator().iter_errors(doc), key=lambda e: list(map(str, e.absolute_path)))
    if errors or early:
        flagged = {p.field for p in early}
        return None, early + [p for e in errors if (p := _schema_problem(e, file)).field not in flagged]
    tests, problems = _resolve_tests(doc, file)
    problems += _semantic_meta(doc, folder, tests, file)
    problems += check_dates(doc, schema(), file) + check_frame_sizes(doc, tests, file) + check_native_specs(doc, tests, file)
    declared = _declared_files(doc)
    hashes = {RESULT_FILE: hashlib.sha256(raw).hexdigest()}
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()} - {RESULT_FILE}
    for extra in sorted(present - set(declared)):
        problems.append(Problem(display_path(folder / extra), None, "", "file is not declared in result.toml [files]", "layout.undeclared-file"))
    rows: list[Row] = []
    counts = {"read": 0, "loaded": 0}
    for path, role in declared.items():
        full = folder / path
        if not full.is_file():
            problems.append(Problem(file, None, "files", f"declared file {path!r} does not exist", "layout.missing-file"))
            continue
        data = full.read_bytes()
        hashes[path] = hashlib.sha256(data).hexdigest()
        if role in TABLE_KINDS:
            got, probs, n = read_table(role, data, display_path(full), tests)
            rows += got
            problems += probs
            counts["read"] += n
    for spec in doc["files"].get("native", []):
        full = folder / spec["path"]
        if full.is_file():
            got, probs, n = run_importer(spec, full, tests)
            rows += got
            problems += probs
            counts["read"] += n
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
    if any(p.severity == "error" and p.rule.startswith(("schema", "semantic", "layout", "toml", "format")) for p in problems):
        return None, problems
    rs = ResultSet(folder, doc, tests, kept, hashes)
    rs.counts = counts  # type: ignore[attr-defined]
    return rs, problems


def load_many(folders: list[Path]) -> list[tuple[Path, ResultSet | None, list[Problem]]]:
    """Load several result sets and add the problems that involve more than one (duplicate slugs)."""
    out = []
    slugs: dict[str, Path] = {}
    for folder in folders:
        try:
            rs, problems = load(folder)
        except Exception as exc:  # noqa: BLE001 - one set's unexpected failure must not hide the others
            rs, problems = None, [internal_problem(Path(folder) / RESULT_FILE, "loading", exc)]
        if rs is not None:
            if rs.slug in slugs:
                problems.append(Problem(display_path(Path(folder) / RESULT_FILE), None, "slug", f"duplicate slug {rs.slug!r}: also used by {display_path(slugs[rs.slug])}", "semantic.duplicate-slug"))
            else:
                slugs[rs.slug] = Path(folder)
        out.append((Path(folder), rs, problems))
    return out


def require(folder: Path | str) -> ResultSet:
    """Load a result set or raise InputError with its problems."""
    rs, problems = load(folder)
    errors = [p for p in problems if p.severity == "error"]
    if rs is None or errors:
        raise InputError(errors)
    return rs

"""Merge import plans into a result.toml document: new sets are drafts, existing sets keep what
their contributor wrote.

A test the plan states is added; a test of the same id whose stated fields agree is extended
(frame sizes, loads, variants and the sentences of notes united, missing keys added, nothing the
contributor wrote is overwritten); a test of the same id whose stated fields differ is added under a new id (-2, -3, …).
The fields nobody stated are what the schema still requires: `unstated` names them, in the
form `wirespeed validate` uses (tests[0].port_speed).
"""

from __future__ import annotations

import datetime as _dt
import re
from typing import Any

import jsonschema
import tomlkit
from tomlkit.toml_document import TOMLDocument

from wirespeed.importers.contract import ImportPlan, TestPlan

UNITED_LISTS = ("frame_sizes", "offered_loads_pct")
FREE_TEXT = ("title", "description", "notes")


def new_document(slug: str) -> TOMLDocument:
    """A draft set: only what wirespeed itself knows; everything else comes from plans or the contributor."""
    doc = tomlkit.document()
    doc.add(tomlkit.comment(f"wirespeed result set, format 1, made by wirespeed import; check it with: wirespeed validate data/results/{slug}"))
    doc.add(tomlkit.comment("Fields the imported files do not state are missing: wirespeed validate names each; publish with status = \"published\"."))
    doc["format_version"] = 1
    doc["slug"] = slug
    doc["status"] = "draft"
    doc["source"] = tomlkit.table(is_super_table=False)
    doc["source"]["kind"] = "imported"
    doc["dut"] = tomlkit.table(is_super_table=False)
    doc["instrument"] = tomlkit.table(is_super_table=False)
    return doc


def _plain(value: Any) -> Any:
    """Plain Python values (TOML dates as ISO strings, as the loader gives them to the schema)."""
    if hasattr(value, "unwrap"):
        value = value.unwrap()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (_dt.date, _dt.datetime, _dt.time)):
        return value.isoformat()
    return value


def _fill(table, stated: dict[str, Any]) -> None:
    """Add stated keys the table lacks (never overwrite what is there)."""
    for key, value in stated.items():
        if key not in table:
            table[key] = value


def _section(doc: TOMLDocument, name: str):
    if name not in doc:
        doc[name] = tomlkit.table(is_super_table=False)
    return doc[name]


def _compatible(existing: dict[str, Any], stated: dict[str, Any]) -> bool:
    for key, value in stated.items():
        if key in FREE_TEXT or key in ("methodology", "variants") or key not in existing:
            continue
        if _plain(existing[key]) != value:
            return False
    return True


def _united_notes(have: str, new: str) -> str:
    """Notes with the sentences of `new` that `have` lacks added (each file's own notes are kept)."""
    missing = [s for s in re.split(r"(?<=[.!?…])\s+", new.strip()) if s and s not in have]
    return " ".join([have.rstrip(), *missing]) if missing else have


def _merge_test(table, stated: dict[str, Any]) -> None:
    for key, value in stated.items():
        if key == "notes" and "notes" in table and isinstance(value, str):
            table["notes"] = _united_notes(str(table["notes"]), value)
        elif key == "methodology" and "methodology" in table:
            m = table["methodology"]
            for mk, mv in value.items():
                if mk in UNITED_LISTS and mk in m:
                    have = _plain(m[mk])
                    m[mk] = have + [v for v in mv if v not in have]
                elif mk == "notes" and mk in m and isinstance(mv, str):
                    m[mk] = _united_notes(str(m[mk]), mv)
                elif mk not in m:
                    m[mk] = mv
        elif key == "variants" and "variants" in table:
            for vk, vv in value.items():
                if vk not in table["variants"]:
                    table["variants"][vk] = vv
        elif key not in table:
            table[key] = value


def _test_table(test_id: str, stated: dict[str, Any]):
    t = tomlkit.table(is_super_table=False)
    t["id"] = test_id
    for key, value in stated.items():
        if key not in ("methodology", "variants"):
            t[key] = value
    if stated.get("variants"):
        t["variants"] = tomlkit.inline_table()
        t["variants"].update(stated["variants"])
    if stated.get("methodology"):
        t["methodology"] = tomlkit.table(is_super_table=False)
        t["methodology"].update(stated["methodology"])
    return t


def _place_test(doc: TOMLDocument, test: TestPlan) -> str:
    """Add or extend the test; returns the id it has in the set."""
    if "tests" not in doc:
        doc.add(tomlkit.nl())
        doc["tests"] = tomlkit.aot()
    tests = doc["tests"]
    ids = [str(t.get("id")) for t in tests]
    base = test.id
    for n in range(1, 1000):
        test_id = base if n == 1 else f"{base}-{n}"
        if test_id not in ids:
            tests.append(_test_table(test_id, test.fields))
            return test_id
        existing = tests[ids.index(test_id)]
        if _compatible(existing, test.fields):
            _merge_test(existing, test.fields)
            return test_id
    raise ValueError(f"too many tests named {base!r}")


def merge(doc: TOMLDocument, plan: ImportPlan, native_path: str) -> list[str]:
    """Merge one file's plan into `doc` (in place), declaring `native_path` under [files].native.
    Returns the ids the plan's tests got in the set."""
    for name, stated in (("source", plan.source), ("campaign", plan.campaign), ("dut", plan.dut), ("instrument", plan.instrument), ("methodology", plan.methodology)):
        if stated:
            section = _section(doc, name)
            if name == "campaign":
                _merge_dates(section, stated)
            _fill(section, stated)
    ids = []
    for test in plan.tests:
        test_id = _place_test(doc, test)
        ids.append(test_id)
        files = _section(doc, "files")
        if "native" not in files:
            files["native"] = tomlkit.array()
            files["native"].multiline(True)
        for extra in test.native:
            entry = tomlkit.inline_table()
            entry.update({"path": native_path, "importer": plan.format, "test": test_id, **extra})
            files["native"].append(entry)
    return ids


def _merge_dates(section, stated: dict[str, Any]) -> None:
    """Widen the campaign to cover the new file's dates (ISO dates compare as text)."""
    if "start" in stated and "start" in section and str(stated["start"]) < str(section["start"]):
        section["start"] = stated["start"]
    if "end" in stated and "end" in section and str(stated["end"]) > str(section["end"]):
        section["end"] = stated["end"]


def finish(doc: TOMLDocument) -> None:
    """Add the empty tables the schema requires (so validation names their missing fields one by one)."""
    for name in ("source", "dut", "instrument"):
        _section(doc, name)


def unstated(doc: TOMLDocument, schema: dict[str, Any]) -> list[str]:
    """The required fields the document still lacks, named as wirespeed validate names them."""
    plain = _plain(doc)
    out = []
    for err in jsonschema.Draft202012Validator(schema).iter_errors(plain):
        if err.validator != "required":
            continue
        missing = err.message.split("'")[1] if "'" in err.message else err.message
        path = [*err.absolute_path, missing]
        name = "".join(f"[{p}]" if isinstance(p, int) else (f".{p}" if i else str(p)) for i, p in enumerate(path))
        if path[0] == "tests" and len(path) > 2 and isinstance(path[1], int):
            name += f" (test {plain['tests'][path[1]].get('id')})"
        out.append(name)
    return sorted(set(out), key=lambda s: (s.startswith("tests"), s))


def invalid(doc: TOMLDocument, schema: dict[str, Any]) -> list[str]:
    """Schema errors other than missing fields: stated values that break the schema (never written)."""
    from wirespeed.resultset.schemacheck import schema_problem  # the one wording of schema errors (never a raw pattern)

    plain = _plain(doc)
    return [f"{p.field or '(top)'}: {p.message}" for e in jsonschema.Draft202012Validator(schema).iter_errors(plain)
            if e.validator != "required" for p in [schema_problem(e, "")]]


SAFE = re.compile(r"[^A-Za-z0-9._-]+")


def native_name(name: str, taken: set[str]) -> str:
    """A path under native/ for an imported file: its own name made safe, numbered if taken."""
    from wirespeed.resultset.attachments import inner_kind, native_type

    base = SAFE.sub("-", name.rsplit("/", 1)[-1]).lstrip("._-") or "file"
    stem, dot, ext = base.rpartition(".")
    if not dot:
        stem, ext = base, ""
    if native_type(base) is not None and native_type(base).compression and inner_kind(base) is not None:
        stem, _dot, inner = stem.rpartition(".")  # run.json.gz: numbered run-2.json.gz
        ext = f"{inner}.{ext}"
    stem = stem[:80] or "file"
    for n in range(1, 10000):
        candidate = f"native/{stem}{'' if n == 1 else f'-{n}'}{'.' + ext if ext else ''}"
        if candidate not in taken:
            return candidate
    raise ValueError("too many native files of one name")

"""Issue 25: the site data of a set has a JSON Schema (wirespeed/schema/site-set.v1.schema.json) and rules a
schema cannot say; every exported set of the examples holds to it, a broken one is refused naming the place, and
the report refuses to typeset a file that breaks it (one line, the set left out)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from pipeline import BUILD, build
from wirespeed.site import setdata


@pytest.fixture(scope="module")
def exported() -> dict[str, dict]:
    build("site-data")
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((BUILD / "hugo-data" / "wirespeed" / "sets").glob("*.json"))}


def test_every_exported_set_holds_to_the_contract(exported):
    assert len(exported) >= 28
    for slug, data in exported.items():
        assert setdata.problems(data) == [], slug


def test_a_broken_export_is_named_at_its_place(exported):
    data = copy.deepcopy(exported["cisco-nexus-9516-128x100g-2015"])
    table = next(iter(data["tables"]))
    data["tables"][table]["rows"][0] = data["tables"][table]["rows"][0][:-1]  # a row one cell short
    data["figures"][next(iter(data["figures"]))]["value"] = "fast"  # a figure's value not a number
    data["surprise"] = 1  # a key no reader knows
    found = setdata.problems(data)
    assert any(p.startswith(f"tables/{table}/rows/0: ") and "cells for" in p for p in found), found
    assert any(p.startswith("figures/") and "/value: 'fast' is not of type 'number', 'null'" in p for p in found), found
    assert any(p.startswith("(top): Additional properties are not allowed ('surprise'") for p in found), found
    with pytest.raises(setdata.SetDataError, match=r"^x\.json: site data breaks site-set\.v1\.schema\.json: .* \(and 2 more\)$"):
        setdata.check(data, "x.json")
    del data["slug"]
    assert any("'slug' is a required property" in p for p in setdata.problems(data))


def _mutations(doc, path=()):
    """Each way to break `doc` at one place: every value replaced by one of another JSON type, every object given a key
    no schema names, every key removed (some are optional: the validators must agree either way)."""
    others = {dict: [], list: {}, str: 7, int: "7", float: "7.5", bool: "yes", type(None): [None]}
    yield path, "replace", others.get(type(doc), None)
    if isinstance(doc, dict):
        yield path, "add", None
        for key, value in doc.items():
            yield (*path, key), "remove", None
            yield from _mutations(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc[:3]):  # a list's items share one schema: the first few are enough
            yield from _mutations(value, (*path, i))


def _mutated(doc, path, how, value):
    doc = copy.deepcopy(doc)
    if not path:
        return value if how == "replace" else {**doc, "surprise": 1}
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if how == "remove":
        del parent[path[-1]]
    elif how == "add":
        parent[path[-1]]["surprise"] = 1
    else:
        parent[path[-1]] = value
    return doc


def test_the_fast_validator_agrees_with_the_reference_one(exported):
    # The build asks jsonschema-rs first and passes what it finds valid: were it ever more lenient than jsonschema,
    # a broken file would pass unnamed. Single-place breaks spread over the smallest set's data (every kind of place:
    # each value's type, each key removed, a key added to each object) must be judged alike by both.
    reference = setdata._validator(setdata.SCHEMA)
    slug = min(exported, key=lambda s: len(json.dumps(exported[s])))
    breaks = list(_mutations(exported[slug]))
    step = max(1, len(breaks) // 400)
    judged = {True: 0, False: 0}
    for path, how, value in breaks[::step]:
        doc = _mutated(exported[slug], path, how, value)
        valid = reference.is_valid(doc)
        assert setdata._valid(doc, setdata.SCHEMA) == valid, (slug, path, how)
        judged[valid] += 1
    assert judged[False] > 100 and judged[True] > 10, judged  # both answers were put to the test


@pytest.mark.parametrize("schema_file", sorted(p.name for p in (Path(setdata.__file__).parent.parent / "schema").glob("*.schema.json")))
def test_every_schema_is_valid_under_its_draft(schema_file):
    """The build reads its schemas without checking them against their draft (half a second a process); this does."""
    import jsonschema

    schema = json.loads((Path(setdata.__file__).parent.parent / "schema" / schema_file).read_text("utf-8"))
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", schema_file
    jsonschema.Draft202012Validator.check_schema(schema)

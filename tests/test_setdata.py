"""Issue 25: the site data of a set has a JSON Schema (wirespeed/schema/site-set.v1.schema.json) and rules a
schema cannot say; every exported set of the examples holds to it, a broken one is refused naming the place, and
the report refuses to typeset a file that breaks it (one line, the set left out)."""

from __future__ import annotations

import copy
import json

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

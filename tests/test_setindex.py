"""Issue 24: Hugo reads each set's full site data only on that set's own pages. The lists read one compact index
(build/hugo-data/wirespeed/index.json, wirespeed/site/setindex.py, its own schema site-index.v1.schema.json); the
per-set files stay where the PDF report and check-site read them, mounted for Hugo as assets, never as data."""

from __future__ import annotations

import copy
import json
import tomllib

import pytest

from conftest import ROOT
from pipeline import BUILD, build
from wirespeed.site import setdata, setindex

FIXTURE = ROOT / "tests" / "site_fixture" / "hugo-data" / "wirespeed"


def _sets(folder) -> dict[str, dict]:
    return {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in sorted((folder / "sets").glob("*.json"))}


@pytest.fixture(scope="module")
def exported() -> tuple[dict[str, dict], dict]:
    build("site-data")
    wirespeed = BUILD / "hugo-data" / "wirespeed"
    return _sets(wirespeed), json.loads((wirespeed / "index.json").read_text(encoding="utf-8"))


def test_the_export_indexes_every_set_it_wrote_cut_from_its_data(exported):
    sets, doc = exported
    assert setindex.problems(doc) == []
    assert doc["version"] == 1 and list(doc["sets"]) == sorted(sets) and len(sets) >= 28
    for slug, data in sets.items():
        assert setdata.problems(data) == [], slug  # the per-set files keep their own contract
        e = doc["sets"][slug]
        assert e == setindex.entry(data), slug
        assert e["slug"] == slug and e["title"] == data["title"] and e["status"] == data["status"]
        assert e["table_ids"] == sorted(data["tables"]) and e["chart_ids"] == sorted(data["charts"])
        assert [t["id"] for t in e["tests"]] == [t["id"] for t in data["tests"]]
        assert [t["tables"] for t in e["tests"]] == [t["tables"] for t in data["tests"]]
        assert e["figures"] == {i: f for i, f in data["figures"].items() if f.get("headline")}
        assert "tables" not in e and "charts" not in e and "downloads" not in e


def test_the_index_is_a_small_part_of_the_site_data(exported):
    """What Hugo holds for the whole build: the index, far smaller than the sets' data it replaces."""
    sets, doc = exported
    full = sum(len(json.dumps(d)) for d in sets.values())
    assert len(json.dumps(doc)) * 5 < full, (len(json.dumps(doc)), full)
    nexus = doc["sets"]["cisco-nexus-9516-128x100g-2015"]
    assert nexus["figures"] and all(f["headline"] is True for f in nexus["figures"].values())
    assert len(nexus["figures"]) < len(sets["cisco-nexus-9516-128x100g-2015"]["figures"])


def test_the_fixture_index_is_what_the_pipeline_makes_of_its_sets():
    doc = json.loads((FIXTURE / "index.json").read_text(encoding="utf-8"))
    assert doc == setindex.index({slug: setindex.entry(d) for slug, d in _sets(FIXTURE).items()})
    assert setindex.problems(doc) == []


def test_a_broken_index_is_named_at_its_place():
    doc = setindex.index({slug: setindex.entry(d) for slug, d in _sets(FIXTURE).items()})
    bad = copy.deepcopy(doc)
    slug = next(iter(bad["sets"]))
    bad["sets"][slug]["slug"] = "another-set"  # an entry under another set's key
    del bad["sets"][slug]["table_ids"]  # what the content adapter checks a test's tables against
    bad["sets"][slug]["tables"] = {}  # full data has no place in the index
    found = setindex.problems(bad)
    assert f"sets/{slug}: 'table_ids' is a required property" in found, found
    assert any(p.startswith(f"sets/{slug}: Additional properties are not allowed ('tables'") for p in found), found
    assert f"sets/{slug}/slug: 'another-set' is not its key '{slug}'" in found, found
    with pytest.raises(setindex.SetIndexError, match=r"^index\.json: site index breaks site-index\.v1\.schema\.json: .* \(and 2 more\)$"):
        setindex.check(bad, "index.json")
    fig = copy.deepcopy(doc)
    fid = next(iter(fig["sets"][slug]["figures"]))
    fig["sets"][slug]["figures"][fid]["headline"] = False  # only headline figures are listed
    assert any(p.startswith(f"sets/{slug}/figures/{fid}/headline: True was expected") for p in setindex.problems(fig)), setindex.problems(fig)


def test_hugo_mounts_the_index_as_data_and_each_set_only_as_an_asset():
    mounts = tomllib.loads((ROOT / "config.toml").read_text(encoding="utf-8"))["module"]["mounts"]
    data = [m for m in mounts if m["source"] == "build/hugo-data" and m["target"] == "data"]
    assets = [m for m in mounts if m["source"] == "build/hugo-data" and m["target"] == "assets/site-data"]
    assert data == [{"source": "build/hugo-data", "target": "data", "files": ["! wirespeed/sets/**"]}]
    assert assets == [{"source": "build/hugo-data", "target": "assets/site-data", "files": ["wirespeed/sets/*.json"]}]
    partial = (ROOT / "layouts" / "_partials" / "wirespeed" / "set-data.html").read_text(encoding="utf-8")
    assert 'resources.Get (printf "site-data/wirespeed/sets/%s.json" .)' in partial


def test_facet_values_are_each_published_value_once_newest_set_first():
    """What the filter menus list (the partial orders them): every value of a published set once, as first seen in the
    lists' order (newest first, then slug); a draft's values are not offered; JSON's whole numbers print as integers."""
    def e(slug, date, status="published", **facets):
        return {"slug": slug, "date": date, "status": status, "facets": facets}
    entries = {"b": e("b", "2024-01-01", vendor="Cisco", frame_sizes=[64.0, 1518], year=2024, rfc=["2544"]),
               "a": e("a", "2024-01-01", vendor="Arista", frame_sizes=[64, 128], year=2024, port_speed=["100G"]),
               "c": e("c", "2025-06-01", vendor="Juniper", frame_sizes=["imix"], year=2025, rfc=["2544", "2889"]),
               "d": e("d", "2026-01-01", status="draft", vendor="Secret", frame_sizes=[9000], year=2026)}
    values = setindex.facet_values(entries)
    assert values == {"vendor": ["Juniper", "Arista", "Cisco"], "device": [], "rfc": ["2544", "2889"], "port_speed": ["100G"],
                      "frame_sizes": ["imix", "64", "128", "1518"], "year": ["2025", "2024"]}
    assert setindex.index(entries)["facet_values"] == values

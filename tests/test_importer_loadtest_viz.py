"""trex-loadtest-viz: the HTML report's embedded series, extracted with html.parser into a safe
JSON document, one ramp per device × direction × profile; bad pages are one line each."""

from __future__ import annotations

import json

import pytest

from importer_sets import TEST_TOML, FakeTest, all_examples, example, load_native
from wirespeed.importers import loadtest_viz as lv

PAGE = example("trex-loadtest-viz", "report.html")


def _doc() -> dict:
    doc, problems = lv.extract(PAGE, "report.html")
    assert not problems
    return doc


def test_extract_one_ramp_per_device_direction_profile():
    doc = _doc()
    assert [(r["profile"], r["device"], r["direction"]) for r in doc["ramps"]] == [
        ("imix", "edge-a", "0→1"), ("imix", "edge-a", "1→0"), ("imix", "edge-b", "0→1"), ("imix", "edge-b", "1→0"),
        ("64B", "edge-a", "0→1"), ("64B", "edge-a", "1→0")]
    r = doc["ramps"][1]
    assert r["rx_pps"] == [500000.0, 1000000.0, 1497000.0, 1900000.0, 1902000.0]
    assert r["loss_pct"] == [0.0, 0.0, 0.2, 5.0, 4.9]
    assert r["offered_pps"] == [500000.0, 1000000.0, 1500000.0, 2000000.0, 2000000.0]
    assert doc["config"]["rampup_duration"] == "4"
    assert doc["source"]["name"] == "report.html" and len(doc["source"]["sha256"]) == 64


def test_samples_from_the_extracted_json():
    data = json.dumps(_doc()).encode()
    rows, problems, n = lv.IMPORTER(data, "r.loadtest.json", {"test": "t1"}, FakeTest())
    assert not problems and n == len(rows) == 6 * 5
    last = [r for r in rows if r.keys["variant"] == "edge-a" and r.keys["port"] == "1→0" and r.keys["frame_size"] == 64]
    assert [float(r.keys["t_s"].value) for r in last] == [0, 1, 2, 3, 4]
    assert last[-1].value("rx_rate") == 8100000.0 and last[-1].value("loss") == 32.5 and last[-1].value("offered_rate") == 12000000.0
    assert {r.keys["frame_size"] for r in rows} == {"imix", 64}


def test_describe_keeps_json_not_html():
    plan = lv.describe(PAGE, "report.html")
    assert not plan.problems
    name, data = plan.converted
    assert name == "report.loadtest.json" and json.loads(data)["format"] == lv.FORMAT and b"<" not in data.split(b'"sha256"')[0]
    t = plan.tests[0]
    assert t.fields["variants"] == {"edge-a": "edge-a", "edge-b": "edge-b"} and t.fields["methodology"]["frame_sizes"] == [64, "imix"]
    assert t.fields["methodology"]["rampup_s"] == 4.0 and t.fields["methodology"]["hold_s"] == 1.0


def _page(ltdata: str, h2: str = "<h2>Profile: 64B</h2>") -> bytes:
    return f'<html><body>{h2}<div class="loadtest-graph" data-ltdata="{ltdata}"></div></body></html>'.encode()


@pytest.mark.parametrize("data, expect", [
    (b"<html><body><p>nothing</p></body></html>", "no data-ltdata/data-errdata attribute"),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1,2'), "not valid JSON"),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1],[&quot;dut 0→1 rx&quot;,1]]}', h2=""), "graph before any"),
    (_page('{&quot;yprefix&quot;:&quot;X&quot;,&quot;data&quot;:[]}'), "expected {\"yprefix\""),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1,2],[&quot;dut 0→1 rx&quot;,1,&quot;N/A&quot;]]}'), "expected a number of 0 or more"),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1,2],[&quot;dut 0→1 rx&quot;,1]]}'), "differ in length"),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1],[&quot;dut 0→1 rx&quot;,1],[&quot;dut 0→1 rx&quot;,1]]}'), "duplicated series"),
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[[&quot;ideal&quot;,1],[&quot;dut sideways&quot;,1]]}'), "DEVICE N→M rx"),
    (b"\xff\xfe<html>", "not UTF-8"),
])
def test_bad_pages_are_one_line(data, expect):
    doc, problems = lv.extract(data, "page.html")
    assert doc is None and len(problems) == 1, problems
    assert expect in str(problems[0]) and str(problems[0]).startswith("page.html")


def test_the_html_itself_is_refused_at_load_time():
    rows, problems, _ = lv.IMPORTER(PAGE, "report.html", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1 and "not valid JSON" in str(problems[0])
    rows, problems, _ = lv.IMPORTER(b'{"format": "other"}', "x.json", {"test": "t1"}, FakeTest())
    assert rows == [] and len(problems) == 1 and "extracted from a trex-loadtest-viz report" in str(problems[0])


def test_scripts_in_the_page_are_never_run(tmp_path):
    marker = tmp_path / "ran"
    page = PAGE.replace(b"<body>", f'<body><script>require("fs").writeFileSync("{marker}", "x")</script><img src=x onerror="alert(1)">'.encode())
    doc, problems = lv.extract(page, "report.html")
    assert not problems and len(doc["ramps"]) == 6 and not marker.exists()


def test_sniff_own_examples_and_not_the_others():
    for path in all_examples():
        mine = path.parent.name == "trex-loadtest-viz"
        assert (lv.sniff(path.read_bytes()[:65536], path.name) > 0.5) == mine, path
    assert lv.sniff(json.dumps(_doc()).encode(), "r.loadtest.json") > 0.5


def test_loads_through_a_result_set(tmp_path):
    data = lv.describe(PAGE, "report.html").converted[1]
    test = TEST_TOML.format(extra='[tests.variants]\nedge-a = "edge-a"\nedge-b = "edge-b"\n')
    rs, problems = load_native(tmp_path, {"raw/report.loadtest.json": data},
                               '{path = "raw/report.loadtest.json", importer = "trex-loadtest-viz", test = "imported", frame_size = 64}', test)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    mine = [r for r in rs.samples() if r.test == "imported"]
    assert len(mine) == 2 * 5 and {r.keys["frame_size"] for r in mine} == {64}

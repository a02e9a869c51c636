"""trex-loadtest-viz: the HTML report's embedded series, extracted with html.parser into a safe
JSON document, one ramp per device × direction × profile; bad pages are one line each."""

from __future__ import annotations

import hashlib
import json

import pytest

from conftest import run_cli
from importer_sets import EXAMPLES, TEST_TOML, FakeTest, all_examples, example, import_and_validate, load_native
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
    assert not problems and n == len(rows) == 6 * 5 + 6
    last = [r for r in rows if r.kind == "samples" and r.keys["variant"] == "edge-a" and r.keys["port"] == "1→0" and r.keys["frame_size"] == 64]
    assert [float(r.keys["t_s"].value) for r in last] == [0, 1, 2, 3, 4]
    assert last[-1].value("rx_rate") == 8100000.0 and last[-1].value("loss") == 32.5 and last[-1].value("offered_rate") == 12000000.0
    assert {r.keys["frame_size"] for r in rows} == {"imix", 64}
    maxima = {(r.keys["frame_size"], r.keys["variant"], r.keys["port"]): r for r in rows if r.kind == "measurements"}
    assert len(maxima) == 6
    assert maxima[("imix", "edge-a", "1→0")].value("throughput") == 1497000 and maxima[("imix", "edge-a", "1→0")].value("forwarding_rate") == 1902000
    assert maxima[(64, "edge-a", "0→1")].value("throughput") == 8100000 and maxima[(64, "edge-a", "0→1")].value("forwarding_rate") == 8200000


def test_the_maxima_table_agrees_with_the_series():
    """The page's "Mpps at <0.10% loss" is the rx rate at the first second whose loss passed 0.1 %."""
    doc = _doc()
    for mx in doc["maxima"]:
        ramp = next(r for r in doc["ramps"] if (r["profile"], r["device"], r["direction"]) == (mx["profile"], mx["device"], mx["direction"]))
        failed = [i for i, loss in enumerate(ramp["loss_pct"]) if loss > doc["loss_threshold_pct"]]
        assert mx["max_ok_pps"] == (ramp["rx_pps"][failed[0]] if failed else max(ramp["rx_pps"]))
        assert mx["max_pps"] == max(ramp["rx_pps"])


def test_describe_keeps_json_not_html():
    plan = lv.describe(PAGE, "report.html")
    assert not plan.problems
    name, data = plan.converted
    assert name == "report.loadtest.json" and json.loads(data)["format"] == lv.FORMAT and b"<" not in data.split(b'"sha256"')[0]
    t = plan.tests[0]
    assert t.fields["variants"] == {"edge-a": "edge-a", "edge-b": "edge-b"} and t.fields["methodology"]["frame_sizes"] == [64, "imix"]
    assert t.fields["methodology"]["rampup_s"] == 4.0 and t.fields["methodology"]["hold_s"] == 1.0
    assert t.fields["methodology"]["loss_tolerance_pct"] == 0.1 and t.fields["methodology"]["imix"][0]["profile"] == "trex-imix"


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
    (_page('{&quot;yprefix&quot;:&quot;M&quot;,&quot;data&quot;:[]}').replace(b"</h2>", b"</h2><table><tr><th>pps</th></tr><tr><td>dut</td><td>1</td></tr></table>"), "Performance max of profile '64B'"),
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
    assert len([r for r in rs.measurements() if r.test == "imported"]) == 2


def test_wirespeed_import_keeps_json_then_validates(tmp_path):
    page = EXAMPLES / "trex-loadtest-viz" / "report.html"
    out, rs = import_and_validate(tmp_path, "auto", [page], "ramp-2024")
    assert "report.html is trex-loadtest-viz" in out
    folder = tmp_path / "results" / "ramp-2024"
    kept = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    assert kept == ["native/report.loadtest.json", "result.toml"]  # never the HTML
    doc = json.loads((folder / "native" / "report.loadtest.json").read_bytes())
    assert doc["source"]["sha256"] == hashlib.sha256(page.read_bytes()).hexdigest()
    samples = rs.samples()
    assert len(rs.measurements()) == 6 and len(samples) == 30 and {r.keys["variant"] for r in samples} == {"edge-a", "edge-b"}
    assert rs.tests["loadtest-ramp"].imixes["imix"].average_frame() == pytest.approx((28 * 64 + 16 * 594 + 4 * 1518) / 48)
    again = run_cli("import", "auto", str(page), "--into", "ramp-2024", "--root", str(tmp_path / "results"), cwd=tmp_path)
    assert again.returncode == 1 and "duplicated run" in again.stderr


def test_an_html_page_no_importer_converts_is_refused(tmp_path):
    page = tmp_path / "stats.html"
    page.write_bytes(b"<!DOCTYPE html>\n<html><body><pre>\n" + example("spirent", "basic-counters.txt") + b"</pre></body></html>\n")
    proc = run_cli("import", "spirent", str(page), "--into", "x-2024", "--root", str(tmp_path / "results"), cwd=tmp_path)
    assert proc.returncode == 1 and "a result set may not keep one" in proc.stderr and not (tmp_path / "results").exists()

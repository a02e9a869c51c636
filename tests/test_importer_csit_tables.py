"""FD.io CSIT files of many runs, on real files: the ETL's Parquet tables (read with DuckDB, one test
per run, bounded) and Robot Framework output.xml (a failed test refused with its reason, never a
zero; the status messages of passed tests), and broken or hostile input refused in one line."""

from __future__ import annotations

import json
import shutil

import duckdb
import pytest

from conftest import ROOT
from importer_sets import import_and_validate
from wirespeed.importers import checked
from wirespeed.importers.csit import describe, convert, read_runs
from wirespeed.importers.csit_parquet import MAX_RUNS
from wirespeed.importers.csit_robot import parse_message
from wirespeed.importers.csit_run import Run

REAL = ROOT / "tests" / "real" / "fdio-csit"
ROBOT = "robot_output2_2n-10ge2p1x710-vhost-ndrpdr.xml"


class _Test:
    def __init__(self, test_id: str):
        self.id, self.imixes = test_id, {}


def _cells(rows) -> dict:
    return {(r.keys.get("variant"), r.keys.get("port"), r.keys.get("trial")): {m: c.figure.text for m, c in r.cells.items()} for r in rows}


def _test_rows(data: bytes, name: str, test):
    rows, problems, _n = convert(data, name, test.native[0], _Test(test.id))
    return checked(rows, problems, name)


# --- Parquet ---------------------------------------------------------------------------------------

def test_trending_parquet_ndrpdr_one_test_a_run():
    name = "glue_ndrpdr_2021-12-06_part-00000.snappy.parquet"
    data = (REAL / name).read_bytes()
    plan = describe(data, name)
    assert [p for p in plan.problems if p.severity == "error"] == []
    ids = [t.id for t in plan.tests]
    # 9 rows: l2patch once (build 3607), 2memif-1dcr and 2virtiovr1024-1vm in builds 3608 to 3611: the build names the run
    assert len(ids) == 9 and ids[0] == "2n1l-25ge2p1xxv710-eth-l2patch-ndrpdr-1c"
    assert ids[1] == "2n1l-25ge2p1xxv710-eth-l2xcbase-eth-2memif-1dcr-ndrpdr-1c-b3608"
    assert ids[-1] == "2n1l-25ge2p1xxv710-eth-l2xcbase-eth-2virtiovr1024-1vm-vppl2xc-ndrpdr-1c-b3611"
    l2patch = plan.tests[0]
    assert l2patch.native == [{"frame_size": 64, "part": "tests.vpp.perf.l2.2n1l-25ge2p1xxv710-eth-l2patch-ndrpdr.64b-1c-eth-l2patch-ndrpdr"}]
    assert plan.tests[1].native[0]["part"].endswith(".64b-1c-eth-l2xcbase-eth-2memif-1dcr-ndrpdr #3608")
    assert l2patch.fields["scenario"] == "l2-xconnect" and l2patch.fields["port_speed"] == "25G"  # no tags: the suite name says it
    assert "CI job csit-vpp-perf-verify-master-2n-skx build 3607" in l2patch.fields["description"]  # columns job, build
    assert plan.dut == {"software": [{"name": "VPP", "version": "22.02-rc0~338-gc6eb7da39~b1996"}]}  # dut_type, dut_version
    assert plan.campaign == {"start": "2021-11-29", "end": "2021-11-30"}  # start_time of row 1, end_time of row 9
    rows, problems = _test_rows(data, name, l2patch)
    by = _cells(rows)
    # row 1: result_ndr_lower_rate_value, result_ndr_lower_bandwidth_value, result_ndr_upper_…, result_pdr_upper_rate_value
    assert by[("ndr", None, None)] == {"throughput": "33733837.75706123", "throughput_l1": "22669138972.745144",
                                       "throughput_upper": "33903354.18982598", "throughput_upper_l1": "22783054015.56306"}
    assert by[("pdr", None, None)]["throughput_upper"] == "34244946.8549364"
    # row 1: result_latency_forward_pdr_0_min/avg/max = 9/10/13, result_latency_reverse_pdr_90_avg = 28
    assert {k: by[("pdr-0", "0->1", None)][k] for k in ("latency_min", "latency_avg", "latency_max")} == {
        "latency_min": "9", "latency_avg": "10", "latency_max": "13"}
    assert by[("pdr-90", "1->0", None)]["latency_avg"] == "28"
    assert [p.field for p in problems] == ["row 1 result_latency_forward_pdr_90_max", "row 1 result_latency_reverse_pdr_90_max"]  # above max


def test_a_file_of_many_tests_is_declared_once_per_test_and_loads(tmp_path):
    """One native entry a run, all of the same file (a file of several tests is declared once per
    test): the set validates and loads every run's rows, the file read once for all."""
    out, rs = import_and_validate(tmp_path, "auto", [REAL / "glue_ndrpdr_2021-12-06_part-00000.snappy.parquet"], "csit-trend")
    assert "native/glue_ndrpdr_2021-12-06_part-00000.snappy.parquet: 90 rows" in out  # 9 runs × (ndr, pdr, 8 latency rows)
    assert len(rs.tests) == 9 and len(rs.measurements()) == 90
    row = next(r for r in rs.measurements() if r.test == "2n1l-25ge2p1xxv710-eth-l2patch-ndrpdr-1c" and r.keys.get("variant") == "ndr")
    assert row.cells["throughput"].figure.text == "33733837.75706123"  # row 1, result_ndr_lower_rate_value


def test_trending_parquet_mrr_and_soak():
    name = "glue_mrr_2021-12-06_part-00000.snappy.parquet"
    data = (REAL / name).read_bytes()
    plan = describe(data, name)
    assert len(plan.tests) == 10 and plan.tests[0].id == "2n1l-25ge2p1xxv710-eth-l2patch-mrr-1c-b3603"
    by = _cells(_test_rows(data, name, plan.tests[0])[0])
    assert by[(None, None, 1)] == {"forwarding_rate": "34198476.5688172"}  # row 1, result_receive_rate_rate_values[1]
    assert by[(None, None, None)] == {"forwarding_rate": "34223198.951222174"}  # row 1, result_receive_rate_rate_avg
    assert len(by) == 11
    name = "glue_soak_2021-12-06_part-00000.snappy.parquet"
    data = (REAL / name).read_bytes()
    plan = describe(data, name)
    assert len(plan.tests) == 8 and plan.tests[0].id == "2n1l-25ge2p1xxv710-eth-l2xcbase-eth-2memif-1dcr-soak-1c-b3608"
    # row 1: result_critical_rate_lower_rate_value, …_lower_bandwidth_value, …_upper_rate_value, …_upper_bandwidth_value
    assert _cells(_test_rows(data, name, plan.tests[0])[0]) == {("critical-rate", None, None): {
        "throughput": "11074794.89314616", "throughput_l1": "7442262168.194219", "throughput_upper": "11081820.990718974",
        "throughput_upper_l1": "7446983705.76315"}}


@pytest.mark.parametrize("name", ["parquet_metadata_trending_ndrpdr.parquet", "parquet_metadata_trending_mrr.parquet"])
def test_parquet_footer_without_rows_is_refused(name):
    assert [str(p) for p in describe((REAL / name).read_bytes(), name).problems] == [
        f"{name}: a Parquet file without rows (CSIT's _metadata footer: the column types of the trending tables, no test result): "
        "nothing to import [import.csit]"]


def _parquet(tmp_path, sql: str) -> bytes:
    """A Parquet file DuckDB writes from the real table (a broken or oversized input for refusal tests)."""
    shutil.copyfile(REAL / "glue_ndrpdr_2021-12-06_part-00000.snappy.parquet", tmp_path / "in.parquet")
    con = duckdb.connect()
    con.execute(f"COPY ({sql.format(src=repr(str(tmp_path / 'in.parquet')))}) TO '{tmp_path / 'out.parquet'}' (FORMAT parquet)")
    return (tmp_path / "out.parquet").read_bytes()


def test_parquet_limits_and_mixed_duts_are_refused(tmp_path):
    many = _parquet(tmp_path, f"SELECT * FROM read_parquet({{src}}), range({MAX_RUNS // 9 + 1})")
    (problem,) = describe(many, "many.parquet").problems
    assert problem.rule == "limit.rows" and problem.message.startswith(f"{(MAX_RUNS // 9 + 1) * 9:,} test runs: a result set holds at most {MAX_RUNS}")
    mixed = _parquet(tmp_path, "SELECT * REPLACE (CASE WHEN build = 3611 THEN '22.06-rc0' ELSE dut_version END AS dut_version) FROM read_parquet({src})")
    assert [str(p) for p in describe(mixed, "m.parquet").problems] == [
        "m.parquet: dut_version: runs of 2 DUT versions (VPP 22.02-rc0~338-gc6eb7da39~b1996, VPP 22.06-rc0): a result set describes one DUT, "
        "import the runs of one version [import.csit]"]
    other = _parquet(tmp_path, "SELECT 1 AS a, 'x' AS b")
    assert [str(p) for p in describe(other, "o.parquet").problems] == [
        "o.parquet: expected CSIT's flattened UTI columns (test_id, result_type, result_…), found a, b [import.csit]"]
    assert describe(many[: len(many) // 2], "cut.parquet").problems[0].rule == "import.parquet"


def test_failed_run_in_a_parquet_table_is_left_out_with_a_warning(tmp_path):
    data = _parquet(tmp_path, "SELECT * REPLACE (CASE WHEN build = 3607 THEN false ELSE status END AS status) FROM read_parquet({src})")
    plan = describe(data, "f.parquet")
    assert len(plan.tests) == 8 and not any(t.id.startswith("2n1l-25ge2p1xxv710-eth-l2patch") for t in plan.tests)
    assert [str(p) for p in plan.problems if p.field.startswith("row 1 ")] == [
        "f.parquet: row 1 (tests.vpp.perf.l2.2n1l-25ge2p1xxv710-eth-l2patch-ndrpdr.64b-1c-eth-l2patch-ndrpdr) passed: warning: the test "
        "failed (no message): a failed test states no result, so it is not imported [import.csit]"]


# --- Robot Framework output.xml ----------------------------------------------------------------------

def test_robot_output_of_a_failed_test_is_refused_with_its_reason():
    data = (REAL / ROBOT).read_bytes()
    # <test id="s1-s1-s1-s1-s1-t1" name="tc07-9000B-…"><status status="FAIL">Minimal rate loss fraction 1.0 …; the five
    # "TrafficGen result: rate=…pps, totalReceived=0, totalSent=…" messages of the test sum to 1,026,710 frames sent, none received
    expected = [f"{ROBOT}: test[@id='s1-s1-s1-s1-s1-t1']/status: test 'tc07-9000B-1c-eth-l2bd-2vhost-1chain-1vm-vppip4-ndrpdr' FAILED: "
                "Minimal rate loss fraction 1.0 does not reach target 0.005.; its 5 traffic trials received 0 of 1,026,710 frames sent: "
                "a failed test states no result, so it is not imported [import.csit]"]
    assert [str(p) for p in describe(data, ROBOT).problems] == expected
    rows, problems, _ = convert(data, ROBOT, {"frame_size": 9000, "part": "x"}, _Test("t"))
    assert rows == [] and [str(p) for p in problems] == expected


def test_robot_passed_test_without_a_result_is_refused():
    data = (REAL / ROBOT).read_bytes().replace(b'status="FAIL" endtime="20190410 19:01:13.390" critical="yes"',
                                              b'status="PASS" endtime="20190410 19:01:13.390" critical="yes"')
    assert [str(p) for p in describe(data, "p.xml").problems] == [
        "p.xml: test[@id='s1-s1-s1-s1-s1-t1']/status: expected NDR_LOWER and PDR_LOWER (or NDR and PDR) in the test message of a "
        "passed test [import.csit]"]


def test_robot_status_messages_of_passed_tests():
    # MRR: the Robot test message in the 0.2.0 file (its "message" is TEST_MESSAGE verbatim)
    message = json.loads((REAL / "uti-0.2.0_storage_test_mrr.info.json").read_bytes())["message"]
    run = Run("Robot output.xml", "", kind="mrr")
    assert parse_message(run, message, "m", "f") == [] and [t.value for t in run.trials][:2] == [12245515.001817115, 12011591.136627218]
    assert len(run.trials) == 10
    # soak: the Robot message kept in the flat draft ("PLRsearch lower bound: … pps, … Gbps (initial)")
    message = json.loads((REAL / "uti-draft-0.1.0-flat_64b-1c-ethip4-ip4base-soak.json").read_bytes())["message"]
    run = Run("Robot output.xml", "", kind="soak")
    assert parse_message(run, message, "m", "f") == []
    lower, upper = run.bounds["critical-rate"]["lower"], run.bounds["critical-rate"]["upper"]
    assert (lower.rate.value, lower.bandwidth.value, lower.bandwidth.unit) == (14879532.196245482, 9.999045635876964, "gbps")
    assert (upper.rate.value, upper.bandwidth.value) == (14981007.507939538, 10.06723704533537)


def test_robot_ndrpdr_message_format():
    """NDRPDR: the message CSIT's 'Display single pps bound' and 'Measure and show latency at specified
    rate' keywords write (resources/libraries/robot/performance/ @ 3354bdb7, January 2021), rebuilt
    with the figures of the real run uti-draft…hsw.64 (PAL read that run's output.xml, these lines,
    into the draft): every figure must come back as the draft states it."""
    draft = json.loads((REAL / "uti-draft-0.1.0_2101-3n-hsw.64_64b-1t1c-eth-l2patch-ndrpdr.json").read_bytes())["test"]["results"]["test"]
    lines = [f"{v.upper()}_{s.upper()}: {draft[v]['value_pps'][s]} pps, {draft[v]['value_gbps'][s]} Gbps (initial)"
             for v in ("ndr", "pdr") for s in ("lower", "upper")]
    for pct in (90, 50, 10, 0):
        streams = [draft["hdrh"][d][f"pdr-{pct}"] for d in ("forward", "reverse")]
        latency = ", ".join(f"'{int(s['min'])}/{int(s['avg'])}/{int(s['max'])}/{s['hdrh']}'" for s in streams)
        lines.append(f"Latency at {pct}% PDR: [{latency}]")
    run = Run("Robot output.xml", "", kind="ndrpdr")
    assert parse_message(run, "\n" + "\n".join(lines), "m", "f") == []
    assert run.bounds["ndr"]["lower"].rate.value == 21554816.721912965 and run.bounds["pdr"]["upper"].bandwidth.value == 14.85244903886757
    assert (run.latency[("reverse", "pdr_90")].max, run.latency[("forward", "pdr_0")].min) == (64, 15)
    assert run.latency[("forward", "pdr_50")].hdrh == draft["hdrh"]["forward"]["pdr-50"]["hdrh"]
    assert sorted(run.latency) == sorted((d, f"pdr_{p}") for d in ("forward", "reverse") for p in (0, 10, 50, 90))


@pytest.mark.parametrize("data,expected", [
    (b'<?xml version="1.0"?>\n<!DOCTYPE robot [<!ENTITY x "y">]>\n<robot><suite name="&x;"/></robot>',
     "<!DOCTYPE>: an XML document type declaration: refused (entities are never resolved) [import.xml]"),
    (b"<robot>" + b"<kw>" * 200 + b"</kw>" * 200 + b"</robot>", "/kw/kw: XML nested deeper than 128 levels [limit.depth]"),
    (b"<robot><suite name='x'><test id='t' name='a'>", "robot/suite/test: the XML ends inside this element (a cut file) [import.xml]"),
    (b"<html><body/></html>", "<html>: expected a Robot Framework output.xml: a <robot> root element [import.csit]"),
])
def test_hostile_xml_is_refused_in_one_line(data, expected):
    (problem,) = describe(data, "h.xml").problems
    assert expected in str(problem) and "\n" not in str(problem)


def test_gzip_is_read_within_the_decompressed_size_limit():
    import gzip

    bomb = gzip.compress(b"{" + b" " * (40 << 20) + b"}")
    assert [p.rule for p in read_runs(bomb, "b.json.gz")[1]] == ["limit.decompressed-size"]
    cut = (REAL / "64b-1c-ethip4-ip4base-frouter-mrr.info.json.gz").read_bytes()[:-20]
    assert [str(p) for p in read_runs(cut, "c.json.gz")[1]] == [
        "c.json.gz: gzip-compressed, but cannot be read: the gzip data ends early (a truncated file) [import.compressed]"]

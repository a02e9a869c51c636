"""MoonGen: golden values read by hand from a real MoonGen log (tests/real/moongen: the example run of
openNetVM's MoonGen guide, MoonGen before libmoon), and the layouts of libmoon's stats and histogram
modules (lua/stats.lua, lua/histogram.lua). No public libmoon CSV, plain log or saved histogram with a
licence was found: those layouts are checked on short inputs written here from libmoon's format strings
(marked FORMAT below), never presented as a run."""

from __future__ import annotations

from conftest import ROOT
from wirespeed.importers.moongen import IMPORTER, convert, describe

LOG = ROOT / "tests" / "real" / "moongen" / "opennetvm_moongen_md_L146_quality-of-service-test.log"


class _Test:
    id = "t1"
    imixes: dict = {}


def _rows(data: bytes, name: str = "m.log"):
    return convert(data, name, {"test": "t1"}, _Test())


def _cells(r) -> dict[str, tuple[str, str]]:
    return {m: (c.figure.text, c.unit.name) for m, c in r.cells.items()}


def test_real_log_final_reports():
    rows, problems, _ = _rows(LOG.read_bytes())
    assert problems == []
    got = {r.keys["port"]: _cells(r) for r in rows}
    # "[Port 42] Sent 15327522 packets with 1961922816 bytes payload (including CRC)." and
    # "[Port 42] Sent 1.465371 (StdDev 0.000010) Mpps, 1500.540084 (StdDev 0.009860) MBit/s, 1734.999472 (StdDev 0.011401) MBit/s wire rate on average."
    assert got["Port 42"] == {"tx": ("15327522", "frames"), "tx_rate": ("1.465371", "mpps"), "tx_l2": ("1500.540084", "mbps"), "tx_l1": ("1734.999472", "mbps")}
    assert got["Port 43"] == {"tx": ("1020600", "frames"), "tx_rate": ("0.097653", "mpps"), "tx_l2": ("99.996549", "mbps"), "tx_l1": ("115.621010", "mbps")}
    assert len(rows) == 2  # the per-second lines carry no time: no samples; the empty "Background traffic" histogram print is not read
    plan = describe(LOG.read_bytes(), "x")
    assert [t.id for t in plan.tests] == ["throughput"] and "Port 42, Port 43" in plan.tests[0].fields["description"]


def test_cut_short_run_is_refused():
    text = LOG.read_text().split("^C")[0]  # the log up to the interrupt: per-second lines only
    rows, problems, _ = _rows(text.encode(), "cut.log")
    assert rows == [] and [str(p) for p in problems] == [
        "cut.log:7: [Port 42] TX: per-second lines but no final report: the run was cut short [import.moongen]",
        "cut.log:8: [Port 43] TX: per-second lines but no final report: the run was cut short [import.moongen]"]


def test_libmoon_plain_layout():
    # FORMAT: getPlainUpdate / getPlainFinal of libmoon lua/stats.lua, with its colour codes
    text = ("\x1b[0;34m[Device: id=0] TX\x1b[0m: 14.88 Mpps, 7619 Mbit/s (10000 Mbit/s with framing)\n"
            "\x1b[0;34m[Device: id=0] TX\x1b[0m: 14.88 (StdDev 0.00) Mpps, 7619 (StdDev 0) Mbit/s (10000 Mbit/s with framing), total 74402307 packets with 4761747648 bytes (incl. CRC)\n")
    rows, problems, _ = _rows(text.replace("\x1b[0;34m[Device: id=0] TX\x1b[0m", "[Device: id=0] TX").encode())
    assert problems == [] and [_cells(r) for r in rows] == [
        {"tx": ("74402307", "frames"), "tx_rate": ("14.88", "mpps"), "tx_l2": ("7619", "mbps"), "tx_l1": ("10000", "mbps")}]
    assert IMPORTER.sniff(text.encode(), "x") > 0


def test_libmoon_csv_layout():
    # FORMAT: getCsvInit / getCsvUpdate / getCsvFinal of libmoon lua/stats.lua (the final line last)
    text = ("Time,Device,Direction,PacketRate,Mbit,MbitWithFraming,TotalPackets,TotalBytes\n"
            "1500000000,Device: id=0,TX,14.88,7619,10000,14880000,952320000\n"
            "1500000001,Device: id=0,TX,14.88,7619,10000,29760000,1904640000\n"
            "1500000002,Device: id=0,TX,14.88,7619,10000,29760000,1904640000\n")
    rows, problems, _ = _rows(text.encode(), "m.csv")
    assert problems == []
    assert [(r.kind, r.keys["t_s"].text if "t_s" in r.keys else None) for r in rows] == [("measurements", None), ("samples", "0"), ("samples", "1")]
    assert _cells(rows[0])["tx"] == ("29760000", "frames") and _cells(rows[1]) == {"tx_rate": ("14.88", "mpps"), "tx_l2": ("7619", "mbps"), "tx_l1": ("10000", "mbps")}


def test_histogram_layout():
    # FORMAT: histogram:save writes ("%s,%s\n"):format(latency, count), sorted by latency (ns)
    rows, problems, n = _rows(b"1208.0,3\n1214.4,5\n1220.8,2\n", "h.csv")
    assert problems == [] and n == 4  # three buckets and the min/avg/max row
    hist = [(r.keys["bucket_low_us"].text, r.keys["bucket_high_us"].text, r.cells["count"].figure.text) for r in rows if r.kind == "histograms"]
    assert hist == [("1.208", "1.2144", "3"), ("1.2144", "1.2208", "5"), ("1.2208", "1.2272", "2")]  # buckets 6.4 ns wide
    (m,) = [r for r in rows if r.kind == "measurements"]
    assert _cells(m) == {"latency_min": ("1208.0", "ns"), "latency_avg": ("1213.76", "ns"), "latency_max": ("1220.8", "ns")}  # (3·1208 + 5·1214.4 + 2·1220.8) / 10
    rows, problems, _ = _rows(b"1208,3\n1208,5\n", "dup.csv")
    assert rows == [] and "a latency appears twice" in str(problems[0])


def test_not_moongen():
    rows, problems, _ = _rows(b"hello\n", "x.log")
    assert rows == [] and len(problems) == 1 and "no MoonGen statistics" in str(problems[0])

"""T-Rex stateless (STL) JSON: the `get_stats()` statistics and the NDR benchmark's result.

Two documents, told apart by their shape:

- **STL statistics** (`client.get_stats()` serialised): per-port objects "0", "1", … with
  counters (`opackets`, `ipackets`, `obytes`, `ibytes`) and rates (`tx_pps`, `rx_pps`, `tx_bps`,
  `rx_bps`, `tx_bps_L1`, `rx_bps_L1`, `tx_util`, `rx_util`); `total`; `global` (`cpu_util`,
  `bw_per_core`); `flow_stats` per pg_id (`tx_pkts`/`rx_pkts` per port and `total`); `latency` per
  pg_id (`latency.total_min/average/total_max/jitter` in µs, `histogram` {bucket: count} with log
  buckets — key 20 is 20–30 µs, 200 is 200–300 µs — and `err_cntrs` dropped/dup/out_of_order/
  seq_too_high/seq_too_low). One measurement row per port (key `port`), one per latency/flow
  stream (key `stream`, its pg_id) and one histogram row per bucket. `average` is T-Rex's smoothed
  average, kept as latency_avg as the tool reports it.
- **NDR benchmark** (`NdrBenchResults.to_json()` of trex/examples/stl/ndr_bench.py): `{"results": {…},
  "config": config_to_dict()}`. The results are the optimal iteration's, read from `get_stats()` half
  way through it: `tx_pps`/`rx_pps`, `tx_bps`/`rx_bps` (L2) and `total_tx_L1`/`total_rx_L1` are the
  `total` over the ports; `rate_tx_bps`/`rate_rx_bps` are the *lowest port's* L2 rate (not imported as
  totals); `drop_rate_percentage` is (opackets − ipackets) ÷ opackets, `tx_util` the mean of the
  transmitting ports' utilisation, `cpu_util` T-Rex's own CPU (the generator's, not the device's: not
  imported); `latency` {pg_id: get_stats() latency}. One measurement row: throughput = the rate found,
  at the loss the search allowed (`config.pdr` %, so NDR when it is 0).

T-Rex's bit rates count the packet without its FCS (`tx_bps`) and add 20 bytes per packet for L1
(`tx_bps_L1`); they are kept as reported in the per-direction columns tx_l1/tx_l2/rx_l1/rx_l2, never as
throughput_l1/_l2, which the checks recompute from Ethernet frame sizes. Frame sizes follow T-Rex's
convention (`frame_size_convention = "trex-packet"`: the frame is 4 bytes longer).

The fixed-rate sweeps of custom STL scripts are `trex_sweep`; the ramp loadtest is `trex_ramp`.
"""

from __future__ import annotations

from wirespeed.importers.common import number, parse_json
from wirespeed.importers.records import Record, figure
from wirespeed.problems import Problem

RULE = "import.trex"
PORT_FIELDS = ("opackets", "ipackets", "tx_pps", "rx_pps")


def is_stats(doc) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("total"), dict) and any(k.isdigit() and isinstance(v, dict) for k, v in doc.items())


def is_ndr(doc) -> bool:
    return isinstance(doc, dict) and isinstance(doc.get("results"), dict) and isinstance(doc.get("config"), dict) and "total_iterations" in doc["results"]


def sniff(head: bytes, name: str) -> float:
    text = head[:65536].decode("utf-8", "replace")
    if text.lstrip().startswith("{"):
        if '"opackets"' in text and '"ipackets"' in text and '"total"' in text:
            return 0.9
        if '"results"' in text and ('"total_iterations"' in text or '"ndr_points"' in text or '"bw_per_core"' in text) and '"rate_tx_bps"' in text:
            return 0.9
    return 0.0


def parse(data: bytes, file: str) -> tuple[str | None, object, list[Record], list[Problem]]:
    """(shape, document, records, problems): shape is "stats" or "ndr"."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return None, None, [], problems
    if is_stats(doc):
        recs, probs = stats_records(doc, file)
        return "stats", doc, recs, probs
    if is_ndr(doc):
        recs, probs = ndr_records(doc, file)
        return "ndr", doc, recs, probs
    return None, doc, [], [Problem(file, None, "", "expected T-Rex STL statistics (port objects \"0\", \"1\" … and \"total\") "
                                   "or an NDR benchmark result ({\"results\": {… total_iterations}, \"config\"}): found neither", RULE)]


def _counts(obj: dict, file: str, where: str, problems: list, *names: str) -> list[float | None]:
    out = []
    for n in names:
        v = obj.get(n)
        if v is not None and number(obj, n) is None and v not in ("N/A", "-nan", "nan"):
            problems.append(Problem(file, None, f"{where}.{n}", f"expected a number, found {v!r}", RULE))
        x = number(obj, n)
        if x is not None and x < 0:
            problems.append(Problem(file, None, f"{where}.{n}", f"expected a count of 0 or more, found {v!r}", RULE))
            x = None
        out.append(x)
    return out


def stats_records(doc: dict, file: str) -> tuple[list[Record], list[Problem]]:
    recs: list[Record] = []
    problems: list[Problem] = []
    for port in sorted((k for k in doc if k.isdigit()), key=int):
        st = doc[port]
        if not isinstance(st, dict):
            problems.append(Problem(file, None, port, "expected a port statistics object", RULE))
            continue
        before = len(problems)
        tx, rx, txp, rxp, txb, rxb, txl1, rxl1 = _counts(st, file, port, problems, "opackets", "ipackets", "tx_pps", "rx_pps", "tx_bps", "rx_bps", "tx_bps_L1", "rx_bps_L1")
        if all(v is None for v in (tx, rx, txp, rxp)):
            if len(problems) == before:
                problems.append(Problem(file, None, port, f"expected port counters or rates ({', '.join(PORT_FIELDS)}): none found", RULE))
            continue
        recs.append(Record("measurements", port, 0, {"port": port}, {
            "tx": (tx, "frames"), "rx": (rx, "frames"), "tx_rate": (txp, "pps"), "rx_rate": (rxp, "pps"),
            "tx_l2": (txb, "bps"), "rx_l2": (rxb, "bps"), "tx_l1": (txl1, "bps"), "rx_l1": (rxl1, "bps")}))
    flows = doc.get("flow_stats") if isinstance(doc.get("flow_stats"), dict) else {}
    lat = doc.get("latency") if isinstance(doc.get("latency"), dict) else {}
    hist: list[Record] = []
    for pg in sorted({k for k in (*flows, *lat) if k.isdigit()}, key=int):
        values: dict = {}
        fs = flows.get(pg)
        if isinstance(fs, dict):
            tx = number(fs.get("tx_pkts") or {}, "total") if isinstance(fs.get("tx_pkts"), dict) else None
            rx = number(fs.get("rx_pkts") or {}, "total") if isinstance(fs.get("rx_pkts"), dict) else None
            values.update({"tx": (tx, "frames"), "rx": (rx, "frames")})
        ls = lat.get(pg)
        if isinstance(ls, dict):
            where = f"latency.{pg}"
            l = ls.get("latency")
            if not isinstance(l, dict):
                problems.append(Problem(file, None, where, "expected a \"latency\" object (total_min, average, total_max, jitter, histogram)", RULE))
                continue
            lo, avg, hi, jit = _counts(l, file, where + ".latency", problems, "total_min", "average", "total_max", "jitter")
            if not _received(l.get("histogram")):  # no latency packet arrived: T-Rex's 0s are "not measured"
                lo, avg, hi, jit = (None if v == 0 else v for v in (lo, avg, hi, jit))
            values.update({"latency_min": (lo, "us"), "latency_avg": (avg, "us"), "latency_max": (hi, "us"), "jitter_avg": (jit, "us")})
            e = ls.get("err_cntrs") if isinstance(ls.get("err_cntrs"), dict) else {}
            drop, dup, ooo = _counts(e, file, where + ".err_cntrs", problems, "dropped", "dup", "out_of_order")
            values.update({"lost": (drop, "frames"), "duplicate": (dup, "frames"), "out_of_sequence": (ooo, "frames")})
            hist += histogram_records(l.get("histogram"), {}, file, where + ".latency.histogram", problems)
        if any(v is not None for v, _ in values.values()):
            recs.append(Record("measurements", f"latency.{pg}" if pg in lat else f"flow_stats.{pg}", 0, {"port": _stream_label(pg, fs)}, values))
    recs += _summed(hist)
    if not recs and not problems:
        problems.append(Problem(file, None, "", "expected per-port statistics: none found", RULE))
    return recs, problems


def _received(hist) -> bool:
    """Whether a latency histogram counts any packet (an absent histogram says nothing: assume so)."""
    if not isinstance(hist, dict):
        return hist is None
    return any(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in hist.values())


def _stream_label(pg: str, fs) -> str:
    """A stream's port key: its direction from flow_stats ("0->1") and its pg_id."""
    if isinstance(fs, dict):
        tx = [p for p in (fs.get("tx_pkts") or {}) if p.isdigit()] if isinstance(fs.get("tx_pkts"), dict) else []
        rx = [p for p in (fs.get("rx_pkts") or {}) if p.isdigit()] if isinstance(fs.get("rx_pkts"), dict) else []
        if len(tx) == 1 and len(rx) == 1:
            return f"{tx[0]}->{rx[0]} pg_id {pg}"
    return f"pg_id {pg}"


def _summed(hist: list[Record]) -> list[Record]:
    """One histogram for the test: the streams' bucket counts added (histogram rows have no port key)."""
    out: dict[tuple, Record] = {}
    for r in hist:
        k = (r.keys["bucket_low_us"].value, r.keys["bucket_high_us"].value)
        if k in out:
            out[k].values["count"] = (out[k].values["count"][0] + r.values["count"][0], "frames")
        else:
            out[k] = Record(r.kind, r.place.rsplit(".", 1)[0].split(".latency")[0].replace(r.place.split(".")[1], "*") + ".latency.histogram." + r.place.rsplit(".", 1)[1], 0, dict(r.keys), dict(r.values))
    return [out[k] for k in sorted(out)]


def bucket_high(low: int) -> int:
    """Upper edge of a T-Rex log bucket: 0→10, 20→30, 100→200, 1000→2000."""
    if low < 10:
        return 10
    step = 10 ** (len(str(low)) - 1)
    return low + step


def histogram_records(hist, keys: dict, file: str, where: str, problems: list) -> list[Record]:
    if hist is None:
        return []
    if not isinstance(hist, dict):
        problems.append(Problem(file, None, where, "expected an object {bucket in µs: count}", RULE))
        return []
    out = []
    for k, v in sorted(hist.items(), key=lambda kv: int(kv[0]) if kv[0].isdigit() else -1):
        if not k.isdigit() or isinstance(v, bool) or not isinstance(v, int) or v < 0:
            problems.append(Problem(file, None, f"{where}.{k}", f"expected a bucket in whole µs with a count, found {k!r}: {v!r}", RULE))
            continue
        low = int(k)
        out.append(Record("histograms", f"{where}.{k}", 0, {**keys, "bucket_low_us": figure(low), "bucket_high_us": figure(bucket_high(low))}, {"count": (v, "frames")}))
    return out


def ndr_records(doc: dict, file: str) -> tuple[list[Record], list[Problem]]:
    res, cfg = doc["results"], doc["config"]
    problems: list[Problem] = []
    txp, rxp, l1, drop, util = _counts(res, file, "results", problems, "tx_pps", "rx_pps", "total_tx_L1", "drop_rate_percentage", "tx_util")
    if txp is None:
        problems.append(Problem(file, None, "results.tx_pps", "expected the rate the benchmark found (tx_pps): missing", RULE))
        return [], problems
    lat = res.get("latency") if isinstance(res.get("latency"), dict) else {}
    mins, avgs, maxs = [], [], []
    for pg, l in lat.items():
        if isinstance(l, dict):
            lo, avg, hi = _counts(l, file, f"results.latency.{pg}", problems, "total_min", "average", "total_max")
            mins += [lo] if lo is not None else []
            avgs += [avg] if avg is not None else []
            maxs += [hi] if hi is not None else []
    rxl1, txl2, rxl2 = _counts(res, file, "results", problems, "total_rx_L1", "tx_bps", "rx_bps")
    values = {"throughput": (txp, "pps"), "forwarding_rate": (rxp, "pps"), "tx_l1": (l1, "bps"), "tx_l2": (txl2, "bps"), "rx_l1": (rxl1, "bps"), "rx_l2": (rxl2, "bps"),
              "loss": (drop, "pct"), "throughput_line_rate": (util, "pct"),
              "latency_min": (min(mins) if mins else None, "us"), "latency_max": (max(maxs) if maxs else None, "us")}
    if len(avgs) == 1:
        values["latency_avg"] = (avgs[0], "us")
    keys = {}
    size = cfg.get("size")
    if isinstance(size, int) and not isinstance(size, bool) and size > 0:
        keys["frame_size"] = size
    return [Record("measurements", "results", 0, keys, values)], problems


def _read(data: bytes, file: str, spec: dict):
    _shape, _doc, recs, problems = parse(data, file)
    return recs, problems


def describe(data: bytes, name: str):
    """Tests, frame size, ports and cores the file states; the device and port speed it does not."""
    from wirespeed.importers.contract import ImportPlan, TestPlan
    from wirespeed.importers.records import methodology, unstated

    plan = ImportPlan("trex")
    shape, doc, recs, plan.problems = parse(data, name)
    if shape is None or any(p.severity == "error" for p in plan.problems):
        return plan
    meth = {**methodology(recs), "frame_size_convention": "trex-packet"}
    if shape == "stats":
        ports = sorted({r.keys["port"] for r in recs if "port" in r.keys and "->" not in r.keys["port"] and not r.keys["port"].startswith("pg")})
        fields = {"title": "T-Rex STL statistics", "rfc": ["vendor"], "ports": len(ports) or None, "methodology": meth}
        tid = "stl-stats"
    else:
        cfg, res = doc["config"], doc["results"]
        pdr = cfg.get("pdr") if isinstance(cfg.get("pdr"), (int, float)) else None
        if pdr is not None:
            meth["loss_tolerance_pct"] = pdr
        if isinstance(cfg.get("iteration_duration"), (int, float)) and cfg["iteration_duration"] > 0:
            meth["trial_duration_s"] = cfg["iteration_duration"]
        ports = cfg.get("ports") if isinstance(cfg.get("ports"), list) else []
        title = res.get("title") if isinstance(res.get("title"), str) else "T-Rex NDR benchmark"
        fields = {"title": title, "rfc": ["2544"], "ports": len(ports) or None, "methodology": meth,
                  "direction": "bidirectional" if cfg.get("bi_dir") else "unidirectional" if "bi_dir" in cfg else None}
        tid = "ndr" if not pdr else "pdr"
    fields = {k: v for k, v in fields.items() if v is not None}
    plan.tests.append(TestPlan(tid, fields))
    plan.instrument = {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator"}
    plan.unstated = unstated(tid, fields, "instrument.software")
    return plan


def _importer():
    from wirespeed.importers.contract import Importer
    from wirespeed.importers.records import converter

    return Importer(summary="T-Rex STL get_stats() JSON (per-port counters and rates, per-stream latency, histograms, drop/out-of-order/dup) and the NDR benchmark's JSON",
                    sniff=sniff, describe=describe, convert=converter(_read),
                    examples=("docs/importers/examples/trex/stl-stats.json", "docs/importers/examples/trex/ndr-bench.json"))


IMPORTER = _importer()

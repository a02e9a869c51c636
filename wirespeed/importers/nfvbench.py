"""OPNFV NFVbench result JSON, bare or inside an OPNFV TestAPI results record (or a page of them).

Layout read: benchmarks.network.service_chain.<chain>.result.result["<frame size>"], each holding
ndr/pdr blocks (rate_pps, rate_bps = layer-1 bit rate, rate_percent, duration_sec and stats per
port "0", "1" and "overall": tx_pkts, rx_pkts, drop_percentage, min/avg/max_delay_usec,
lat_percentile, hdrh) or a fixed-rate run (run_config.direction-forward|reverse|total.orig|tx|rx
rates, and the same stats). One test per service chain (PVP, PVVP, EXT); NDR and PDR are variants.

Rows: per frame size and NDR/PDR (or offered load), one aggregate row and one per direction
(port "0->1": sent by port 0, received by port 1, with port 1's latency, i.e. the latency of the
frames it received). Latency percentiles come from the HDR histogram when there is one, else from
lat_percentile ("n/a" is left out).
"""

from __future__ import annotations

import re

from wirespeed.engine.figures import Figure
from wirespeed.importers import hdr
from wirespeed.importers.common import json_head_has, keyed, lenient, parse_json, row
from wirespeed.importers.contract import Importer, ImportPlan, TestPlan
from wirespeed.problems import Problem

RULE = "import.nfvbench"
DIRECTIONS = (("0->1", "0", "1", "direction-forward"), ("1->0", "1", "0", "direction-reverse"))
PCT_KEYS = {50.0: "latency_p50", 90.0: "latency_p90", 99.0: "latency_p99", 99.9: "latency_p99_9", 99.99: "latency_p99_99"}


def _runs(doc, file: str) -> tuple[list[tuple[str, dict, dict]], list[Problem]]:
    """(where, NFVbench result, TestAPI record or {}) for every run in the file."""
    if isinstance(doc, dict) and isinstance(doc.get("results"), list) and "benchmarks" not in doc:
        runs, problems = [], []
        for i, rec in enumerate(doc["results"]):
            got, probs = _runs(rec, file)
            runs += [(f"results[{i}].{w}" if w else f"results[{i}]", d, r) for w, d, r in got]
            problems += probs
        if not doc["results"]:
            problems.append(Problem(file, None, "results", "the TestAPI page holds no results", RULE))
        return runs, problems
    if isinstance(doc, dict) and isinstance(doc.get("details"), dict):
        return [("details", doc["details"], doc)], []
    if isinstance(doc, dict) and isinstance(keyed(doc, "benchmarks", "network", "service_chain"), dict):
        return [("", doc, {})], []
    return [], [Problem(file, None, "", "expected NFVbench results: benchmarks.network.service_chain (bare, or as 'details' of a TestAPI record)", RULE)]


def _chains(run: dict) -> dict[str, dict]:
    chains = keyed(run, "benchmarks", "network", "service_chain")
    if not isinstance(chains, dict):
        return {}
    return {str(k).strip(): v for k, v in chains.items() if isinstance(v, dict)}


def _frame(key: str, test, file: str, where: str) -> tuple[int | str | None, Problem | None]:
    text = str(key).strip()
    if text.isdigit() and int(text) > 0:
        return int(text), None
    if test is not None and text.lower() in test.imixes:
        return text.lower(), None
    return None, Problem(file, None, where, f"frame size {text!r}: expected a number of bytes, or an IMIX declared in the test's methodology.imix", RULE)


def _latency(stats: dict, file: str, where: str) -> tuple[dict, list[Problem]]:
    values = {"latency_min": (lenient(stats.get("min_delay_usec")), "us"), "latency_avg": (lenient(stats.get("avg_delay_usec")), "us"),
              "latency_max": (lenient(stats.get("max_delay_usec")), "us")}
    if stats.get("hdrh"):
        hist, probs = hdr.decode(stats["hdrh"], file, f"{where}.hdrh", RULE)
        if hist is None:
            return values, probs
        values.update({m: (v, "us") for m, v in hdr.percentiles(hist).items()})
    elif isinstance(stats.get("lat_percentile"), dict):
        for key, v in stats["lat_percentile"].items():
            pct = lenient(key)
            metric = PCT_KEYS.get(float(pct)) if pct is not None else None
            if metric:
                values[metric] = (lenient(v), "us")
    return values, []


def _counts(stats: dict) -> dict:
    return {"tx": (lenient(stats.get("tx_pkts")), "frames"), "rx": (lenient(stats.get("rx_pkts")), "frames")}


def _search_rows(block: dict, keys: dict, file: str, where: str) -> tuple[list, list[Problem]]:
    rate = lenient(block.get("rate_pps"))
    if rate is None:
        return [], [Problem(file, None, f"{where}.rate_pps", "expected the rate found, in packets per second", RULE)]
    stats = block.get("stats") if isinstance(block.get("stats"), dict) else {}
    overall = stats.get("overall") if isinstance(stats.get("overall"), dict) else {}
    lat, problems = _latency(overall, file, f"{where}.stats.overall")
    values = {"throughput": (rate, "pps"), "throughput_l1": (lenient(block.get("rate_bps")), "bps"),
              "throughput_line_rate": (lenient(block.get("rate_percent")), "pct"), "duration": (lenient(block.get("duration_sec")), "s"),
              **_counts(overall), "loss": (lenient(overall.get("drop_percentage")), "pct"), **lat}
    rows = [row("measurements", file, 0, keys, values)]
    for name, tx_port, rx_port, _ in DIRECTIONS:
        if isinstance(stats.get(tx_port), dict) and isinstance(stats.get(rx_port), dict):
            lat, probs = _latency(stats[rx_port], file, f"{where}.stats.{rx_port}")
            problems += probs
            values = {"tx": (lenient(stats[tx_port].get("tx_pkts")), "frames"), "rx": (lenient(stats[rx_port].get("rx_pkts")), "frames"), **lat}
            rows.append(row("measurements", file, 0, {**keys, "port": name}, values))
    return rows, problems


def _rates(direction: dict) -> dict:
    tx, rx = (direction.get(k) if isinstance(direction.get(k), dict) else {} for k in ("tx", "rx"))
    return {"tx_rate": (lenient(tx.get("rate_pps")), "pps"), "rx_rate": (lenient(rx.get("rate_pps")), "pps"),
            "tx_l1": (lenient(tx.get("rate_bps")), "bps"), "rx_l1": (lenient(rx.get("rate_bps")), "bps")}


def _fixed_rows(fsr: dict, keys: dict, file: str, where: str) -> tuple[list, list[Problem]]:
    run = fsr["run_config"] if isinstance(fsr.get("run_config"), dict) else {}
    total = run.get("direction-total") if isinstance(run.get("direction-total"), dict) else {}
    load = lenient(keyed(total, "orig", "rate_percent"))
    if load is None or not 0 < load <= 100:
        return [], [Problem(file, None, f"{where}.run_config.direction-total.orig.rate_percent", "expected the requested load in percent of line rate (0 to 100)", RULE)]
    keys = {**keys, "load_pct": Figure.parse(repr(load) if isinstance(load, float) else str(load))}
    stats = fsr.get("stats") if isinstance(fsr.get("stats"), dict) else {}
    overall = stats.get("overall") if isinstance(stats.get("overall"), dict) else {}
    lat, problems = _latency(overall, file, f"{where}.stats.overall")
    values = {**_rates(total), **_counts(overall), "duration": (lenient(fsr.get("analysis_duration_sec")), "s"), **lat}
    rows = [row("measurements", file, 0, keys, values)]
    for name, tx_port, rx_port, run_key in DIRECTIONS:
        direction = run.get(run_key)
        if isinstance(direction, dict):
            rx_stats = stats.get(rx_port) if isinstance(stats.get(rx_port), dict) else {}
            lat, probs = _latency(rx_stats, file, f"{where}.stats.{rx_port}") if rx_stats else ({}, [])
            problems += probs
            tx_stats = stats.get(tx_port) if isinstance(stats.get(tx_port), dict) else {}
            values = {**_rates(direction), "tx": (lenient(tx_stats.get("tx_pkts")), "frames"), "rx": (lenient(rx_stats.get("rx_pkts")), "frames"), **lat}
            rows.append(row("measurements", file, 0, {**keys, "port": name}, values))
    return rows, problems


def import_nfvbench(data: bytes, file: str, spec: dict, test) -> tuple[list, list[Problem], int]:
    """NFVbench result JSON (bare or in TestAPI records) → NDR/PDR and fixed-rate rows of one service chain."""
    doc, problems = parse_json(data, file)
    if doc is None:
        return [], problems, 0
    runs, problems = _runs(doc, file)
    part = str(spec.get("part", "")).strip()
    rows, n, seen = [], 0, {}
    for where, run, _rec in runs:
        chains = _chains(run)
        selected = {k: v for k, v in chains.items() if not part or k == part}
        if part and not selected:
            problems.append(Problem(file, None, f"{where}.benchmarks.network.service_chain".lstrip("."), f"no service chain {part!r} (the file has: {', '.join(chains) or 'none'})", RULE))
        for chain, body in selected.items():
            base = f"{where}.benchmarks.network.service_chain.{chain}.result.result".lstrip(".")
            sizes = keyed(body, "result", "result")
            if not isinstance(sizes, dict):
                problems.append(Problem(file, None, base, "expected results per frame size", RULE))
                continue
            for fs_key, fsr in sizes.items():
                n += 1
                at = f"{base}.{fs_key}"
                frame, prob = _frame(fs_key, test, file, at)
                if prob or not isinstance(fsr, dict):
                    problems.append(prob or Problem(file, None, at, "expected an object", RULE))
                    continue
                keys = {"test": test.id, "frame_size": frame}
                parts = [(v, _search_rows(fsr[v], {**keys, "variant": v}, file, f"{at}.{v}")) for v in ("ndr", "pdr") if isinstance(fsr.get(v), dict)]
                if isinstance(fsr.get("run_config"), dict):
                    parts.append(("fixed", _fixed_rows(fsr, keys, file, at)))
                if not parts:
                    problems.append(Problem(file, None, at, "expected ndr/pdr results or a fixed-rate run_config", RULE))
                for what, (got, probs) in parts:
                    problems += probs
                    ident = (chain, frame, what, str(got[0].keys.get("load_pct")) if got else "")
                    if ident in seen:
                        problems.append(Problem(file, None, at, f"duplicated run: {chain} {fs_key} {what} is also at {seen[ident]}", RULE))
                        continue
                    seen[ident] = at
                    rows += got
    return rows, problems, max(n, len(rows) + sum(p.severity == "error" for p in problems))


def sniff(head: bytes, name: str) -> float:
    """NFVbench JSON names nfvbench_version and a service_chain; TestAPI records name the project."""
    if not head.lstrip()[:1] == b"{":
        return 0.0
    if b'"service_chain"' in head and (b'"nfvbench_version"' in head or b'"benchmarks"' in head):
        return 0.9
    if json_head_has(head, "project_name") and re.search(rb'"project_name"\s*:\s*"nfvbench"', head):
        return 0.9
    return 0.0


def describe(data: bytes, name: str) -> ImportPlan:
    """One test per service chain: direction, flows, frame sizes, NDR/PDR thresholds or the offered
    load; NFVbench and T-Rex versions; the run date (or the TestAPI record's dates)."""
    plan = ImportPlan("nfvbench")
    doc, plan.problems = parse_json(data, name)
    if doc is None:
        return plan
    runs, plan.problems = _runs(doc, name)
    dates: list[str] = []
    tests: dict[str, TestPlan] = {}
    for _where, run, rec in runs:
        config = run.get("config") if isinstance(run.get("config"), dict) else {}
        for chain, body in _chains(run).items():
            result = body.get("result") if isinstance(body.get("result"), dict) else {}
            sizes = result.get("result") if isinstance(result.get("result"), dict) else {}
            frames = [int(k.strip()) if str(k).strip().isdigit() else str(k).strip().lower() for k in sizes]
            ndr_pdr = any(isinstance(v, dict) and ("ndr" in v or "pdr" in v) for v in sizes.values())
            loads = sorted({lenient(keyed(v, "run_config", "direction-total", "orig", "rate_percent")) for v in sizes.values() if isinstance(v, dict) and "run_config" in v} - {None})
            test_id = re.sub(r"[^a-z0-9]+", "-", chain.lower()).strip("-") or "chain"
            method: dict = {"frame_sizes": frames, "frame_size_convention": "ethernet-frame"}
            fields: dict = {"title": f"NFVbench {chain} service chain" + (": NDR and PDR" if ndr_pdr else " at fixed load"), "rfc": ["2544"] if ndr_pdr else ["vendor"]}
            if "bidirectional" in result:
                fields["direction"] = "bidirectional" if result["bidirectional"] else "unidirectional"
            if isinstance(config.get("flow_count"), int) and config["flow_count"] > 0:
                fields["flows"] = config["flow_count"]
            if ndr_pdr:
                ndr, pdr = lenient(keyed(config, "measurement", "NDR")), lenient(keyed(config, "measurement", "PDR"))
                fields["variants"] = {"ndr": "NFVbench NDR: highest rate with loss at most " + (f"{ndr:g} %" if ndr is not None else "the NDR threshold"),
                                      "pdr": "NFVbench PDR: highest rate with loss at most " + (f"{pdr:g} %" if pdr is not None else "the PDR threshold")}
                method["search"] = "binary"
                if pdr is not None:
                    method["loss_tolerance_pct"] = pdr
                    method["notes"] = f"NFVbench's NDR allows {ndr:g} % loss and its PDR {pdr:g} %; the tolerance above is the PDR's." if ndr is not None else "The loss tolerance is NFVbench's PDR threshold."
            else:
                method["search"] = "fixed-rate"
                if loads:
                    method["offered_loads_pct"] = loads
            if isinstance(config.get("duration_sec"), (int, float)) and config["duration_sec"] > 0:
                method["trial_duration_s"] = config["duration_sec"]
            count = config.get("service_chain_count")
            if isinstance(count, int) and count > 1:
                fields["description"] = f"{count} parallel {chain} chains."
            fields["methodology"] = method
            if test_id in tests:
                plan.problems.append(Problem(name, None, f"service_chain.{chain}", f"duplicated run: a second {chain} result in one file (import each run from its own file)", RULE))
                continue
            tests[test_id] = TestPlan(test_id, fields, [{"part": chain}])
            plan.unstated += [f"tests.{test_id}.port_speed", f"tests.{test_id}.ports", f"tests.{test_id}.topology", f"tests.{test_id}.scenario"]
            if any(isinstance(f, str) for f in frames):
                plan.unstated.append(f"tests.{test_id}.methodology.imix")  # NFVbench names its IMIX but not its mix
        for d in (run.get("date"), rec.get("start_date"), rec.get("stop_date")):
            if isinstance(d, str) and re.match(r"^\d{4}-\d{2}-\d{2}", d.strip()):
                dates.append(d.strip()[:10])
        version = str(run.get("nfvbench_version", "")).strip()
        tg = str(keyed(run, "benchmarks", "network", "versions", "Traffic_Generator", "version") or "").strip()
        software = ([{"name": "NFVbench", "version": version}] if version else []) + ([{"name": "T-Rex", "version": tg}] if tg else [])
        if not plan.instrument:
            plan.instrument = {"vendor": "OPNFV", "product": "NFVbench" + (" with the T-Rex traffic generator" if tg else "")}
            if software:
                plan.instrument["software"] = software
    plan.tests = list(tests.values())
    if not plan.tests and not plan.problems:
        plan.problems.append(Problem(name, None, "benchmarks.network.service_chain", "no service chain results in the file", RULE))
    if dates:
        plan.campaign = {"start": min(dates), "end": max(dates)}
        plan.source = {"published": max(dates), "publication_kind": "test-run"}
    return plan


IMPORTER = Importer(
    summary="OPNFV NFVbench result JSON (bare or in TestAPI records): NDR/PDR and fixed-rate runs per chain and frame size, per direction, HDR latency percentiles",
    sniff=sniff,
    describe=describe,
    convert=import_nfvbench,
    examples=("docs/importers/examples/nfvbench/ndr-pdr.json", "docs/importers/examples/nfvbench/testapi-fixed-rate.json"),
)

"""Valid result sets of many shapes, drawn by Hypothesis: every kind of test (RFC 2544 throughput,
latency at several loads, loss with and without frame sizes, counts per trial, ramps with and without
samples, histograms, CPU readings without frame sizes), with and without optional columns, variants,
per-row directions, qualifiers and empty optional tables. The numbers are made up but physical (below
line rate, min ≤ avg ≤ max, received ≤ sent, loss agreeing with the counts): this is test input,
never example data."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import strategies as st

SPEEDS = {"1G": 1e9, "10G": 1e10, "25G": 2.5e10, "100G": 1e11}
SIZES = [64, 128, 256, 512, 1024, 1518]
LOADS = [10, 50, 90, 100]


def _q(value: str, qualified: bool, rnd: random.Random) -> str:
    """A cell, sometimes qualified (~ about, > more than, < almost) when the set uses qualifiers."""
    return (rnd.choice(["", "~", ">", "<"]) + value) if qualified else value


KINDS = ["throughput", "latency", "loss", "counts", "ramp", "cpu"]


@st.composite
def test_shape(draw, index: int, kind: str | None = None) -> dict:
    """One test: its kind and the optional parts of its tables."""
    return {
        "id": f"t{index}-" + draw(st.sampled_from(["ipv4", "l2", "ipv6"])),
        "kind": kind or draw(st.sampled_from(KINDS)),
        "speed": draw(st.sampled_from(list(SPEEDS))),
        "direction": draw(st.sampled_from(["unidirectional", "bidirectional"])),
        "sizes": sorted(draw(st.sets(st.sampled_from(SIZES), min_size=1, max_size=3))),
        "loads": sorted(draw(st.sets(st.sampled_from(LOADS), min_size=1, max_size=3))),
        "variants": draw(st.booleans()),
        "direction_column": draw(st.booleans()),
        "with_frame_size": draw(st.booleans()),  # loss and latency rows without a frame size
        "samples": draw(st.booleans()),  # a ramp with or without per-second samples
        "histograms": draw(st.booleans()),
        "optional": draw(st.booleans()),  # optional value columns (L1 rate, percentages, max latency, …)
        "fraction": draw(st.floats(min_value=0.05, max_value=0.95)),
    }


@st.composite
def set_shape(draw, n: int) -> dict:
    """A set of one to three tests; set n's first test has kind KINDS[n] while n < len(KINDS), so every kind occurs."""
    return {"slug": f"hypo-set-{n:02d}", "qualifiers": draw(st.booleans()), "empty_optional": draw(st.booleans()),
            "seed": draw(st.integers(min_value=0, max_value=2**31)),
            "tests": [draw(test_shape(i, KINDS[n] if i == 0 and n < len(KINDS) else None)) for i in range(draw(st.integers(min_value=1, max_value=3)))]}


def _fps(test: dict, size: int) -> float:
    """A frame rate safely below the line rate of one port: fraction × port bits ÷ wire bits per frame."""
    return test["fraction"] * SPEEDS[test["speed"]] / ((size + 20) * 8)


def write(root: Path, shape: dict) -> Path:
    """Write the set of this shape into root/<slug>; returns its folder."""
    d = root / shape["slug"]
    d.mkdir(parents=True)
    q = shape["qualifiers"]
    rnd = random.Random(shape["seed"])
    meas = {"head": ["test", "frame_size", "load_pct", "direction", "variant", "trial", "component"], "rows": []}
    values: list[str] = []
    samples, hists = [], []
    tests_toml = []
    for t in shape["tests"]:
        rfc = {"ramp": "loadtest-ramp", "cpu": "vendor"}.get(t["kind"], "2544")
        variants = {"single-flow": "one flow", "multi-flow": "many flows"} if t["variants"] else {}
        meth = {"frame_sizes": t["sizes"], "trials": 1}
        if t["kind"] in ("latency", "loss", "counts"):
            meth["offered_loads_pct"] = t["loads"]
        if t["kind"] == "ramp":
            meth.update(search="ramp", rampup_s=5, hold_s=2, ramp_target_pct=100)
        tests_toml.append((t, rfc, variants, meth))
        for size in t["sizes"]:
            for variant in (list(variants) or [None]):
                for direction in (["unidirectional", "bidirectional"] if t["direction_column"] and t["direction"] == "bidirectional" else [None]):
                    keys = {"test": t["id"], "frame_size": str(size), "variant": variant or "", "direction": direction or ""}
                    fps = _fps(t, size)
                    if t["kind"] == "throughput":
                        cells = {"throughput_fps": _q(f"{fps:.0f}", q, rnd)}
                        if t["optional"]:
                            cells["latency_avg_us"] = "2.5"
                        meas["rows"].append((keys, cells))
                    elif t["kind"] in ("latency", "loss"):
                        for load in t["loads"]:
                            k = {**keys, "load_pct": str(load)}
                            if not t["with_frame_size"]:
                                k["frame_size"] = ""
                            if t["kind"] == "latency":
                                cells = {"latency_avg_us": _q("3.25", q, rnd)}
                                if t["optional"]:
                                    cells.update(latency_min_us="1.5", latency_max_us="9.75")
                            else:
                                cells = {"loss_pct": _q(f"{load / 1000:.3f}", q, rnd)}
                            meas["rows"].append((k, cells))
                        if not t["with_frame_size"]:
                            break
                    elif t["kind"] == "counts":
                        tx = int(fps * 10)
                        rx = tx - (tx // 1000)
                        cells = {"tx_frames": str(tx), "rx_frames": str(rx), "duration_s": "10"}
                        if t["optional"]:
                            cells["lost_frames"] = str(tx - rx)
                        meas["rows"].append(({**keys, "trial": "1", "load_pct": str(t["loads"][0])}, cells))
                    elif t["kind"] == "ramp":
                        meas["rows"].append(({**keys, "trial": "1"}, {"tx_frames": str(int(fps * 5)), "rx_frames": str(int(fps * 5) - 3), "duration_s": "5"}))
                        if t["samples"]:
                            for s in range(5):
                                rate = fps * (s + 1) / 5
                                samples.append(({"test": t["id"], "frame_size": str(size), "variant": variant or "", "direction": direction or "", "t_s": str(s)},
                                                {"tx_rate_pps": f"{rate:.1f}", "rx_rate_pps": f"{rate * 0.999:.1f}",
                                                 "tx_frames": str(int(rate)), "rx_frames": str(int(rate * 0.999))}))
                    elif t["kind"] == "cpu":
                        meas["rows"].append(({"test": t["id"], "frame_size": "", "variant": variant or "", "direction": "", "component": "route-processor"},
                                             {"cpu_avg_pct": _q("42", q, rnd), **({"cpu_peak_pct": "71"} if t["optional"] else {})}))
                        break
                    if t["histograms"] and t["kind"] in ("latency", "throughput") and t["with_frame_size"]:
                        load = t["loads"][0] if t["kind"] == "latency" else 100
                        for lo in (0, 10, 20):
                            hists.append(({"test": t["id"], "frame_size": str(size), "load_pct": str(load), "variant": variant or "", "direction": direction or "", "bucket_low_us": str(lo),
                                           "bucket_high_us": str(lo + 10)}, {"count_frames": str(100 + lo)}))
                if t["kind"] == "cpu":
                    break
            if t["kind"] == "cpu" or (t["kind"] in ("latency", "loss") and not t["with_frame_size"]):
                break
    for _k, cells in meas["rows"]:
        values += [c for c in cells if c not in values]
    files = {"measurements": ["measurements.csv"]}
    _csv(d / "measurements.csv", meas["head"], values, meas["rows"])
    if samples:
        _csv(d / "samples.csv", ["test", "frame_size", "variant", "direction", "t_s"], ["tx_rate_pps", "rx_rate_pps", "tx_frames", "rx_frames"], samples)
        files["samples"] = ["samples.csv"]
    elif shape["empty_optional"]:
        (d / "samples.csv").write_text("test,t_s,tx_rate_pps\n", encoding="utf-8")
        files["samples"] = ["samples.csv"]
    if hists:
        _csv(d / "histograms.csv", ["test", "frame_size", "load_pct", "variant", "direction", "bucket_low_us", "bucket_high_us"], ["count_frames"], hists)
        files["histograms"] = ["histograms.csv"]
    (d / "result.toml").write_text(_toml(shape, tests_toml, files), encoding="utf-8")
    return d


def _csv(path: Path, keys: list[str], values: list[str], rows: list) -> None:
    used = [k for k in keys if any(r[0].get(k) for r in rows)]
    if "test" not in used:
        used.insert(0, "test")
    lines = [",".join(used + values)]
    for k, cells in rows:
        lines.append(",".join([k.get(c, "") for c in used] + [cells.get(v, "") for v in values]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _s(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _toml(shape: dict, tests: list, files: dict) -> str:
    out = ["format_version = 1", f"slug = {_s(shape['slug'])}", f"title = {_s('Generated ' + shape['slug'])}",
           'summary = "A generated set of one shape the schema allows."', 'status = "published"', 'licence = "CC0-1.0"', "",
           "[source]", 'kind = "measured"', 'publisher = "wirespeed tests"', 'publication_kind = "test-run"', 'published = "2025-06-01"', "",
           "[dut]", 'vendor = "Testvendor"', f"model = {_s('Model ' + shape['slug'])}", 'kind = "switch"', "",
           "[instrument]", 'vendor = "Testinstruments"', 'product = "Generator"', ""]
    for t, rfc, variants, meth in tests:
        out += ["[[tests]]", f"id = {_s(t['id'])}", f"title = {_s('Test ' + t['id'] + ' (' + t['kind'] + ')')}", f"rfc = [{_s(rfc)}]",
                'scenario = "ipv4-routing"', 'topology = "port-pairs"', "ports = 2", f"port_speed = {_s(t['speed'])}", 'media = "ethernet"',
                f"direction = {_s(t['direction'])}"]
        if variants:
            out.append("variants = {" + ", ".join(f"{k} = {_s(v)}" for k, v in variants.items()) + "}")
        out += ["", "[tests.methodology]"] + [f"{k} = {json.dumps(v)}" for k, v in meth.items()] + [""]
    out += ["[files]"] + [f"{k} = {json.dumps(v)}" for k, v in files.items()]
    return "\n".join(out) + "\n"

"""Write the development fixture of the wirespeed site (run from the repo root).

    .venv/bin/python tests/site_fixture/make_fixture.py
    node tests/site_fixture/render-charts.mjs      # SVGs from the hand-written specs

The fixture imitates what the pipeline exports: build/hugo-data (one JSON per
result set, which Hugo reads as an asset on the set's own pages, and their compact
index wirespeed/index.json, read as hugo.Data.wirespeed.index) and build/site-static
(tables as CSV/JSON, measurements, notebooks, chart specs/SVG/PDF, reports).
The numbers are illustrative: line-rate arithmetic is real, the latencies and
the A/B effects are invented for development and are not anyone's results.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from wirespeed.site import setindex, table_html

ROOT = Path(__file__).resolve().parent
DATA = ROOT / "hugo-data" / "wirespeed" / "sets"
STATIC = ROOT / "site-static"


def fmt_int(n: float) -> str:
    return f"{round(n):,}"


def line_rate_fps(frame: int, gbps: float) -> float:
    """Ethernet line rate in frames/s: frame + 8 bytes preamble + 12 bytes gap."""
    return gbps * 1e9 / ((frame + 20) * 8)


def col(key, label, unit="", group=""):
    return {"key": key, "label": label, "unit": unit, "group": group}


def table(slug, tid, title, caption, test, columns, rows, flags=None):
    return {
        "id": tid, "title": title, "caption": caption, "test": test,
        "columns": columns, "rows": rows,
        "flags": flags or [[None] * len(columns) for _ in rows],
        "csv": f"results/{slug}/tables/{tid}.csv",
        "json": f"results/{slug}/tables/{tid}.json",
    }


def chart(slug, cid, title, caption, alt, test):
    return {
        "id": cid, "title": title, "caption": caption, "alt": alt, "test": test,
        "spec": f"results/{slug}/charts/{cid}.vl.json",
        "svg": f"results/{slug}/charts/{cid}.svg",
        "pdf": f"results/{slug}/charts/{cid}.pdf",
        "vega": f"results/{slug}/charts/{cid}.vg.json",  # compiled from the .vl.json by render-charts.mjs
    }


# --------------------------------------------------------------------------
# Set 1: a chassis switch, figures transcribed from a lab report.
# --------------------------------------------------------------------------
def nexus() -> dict:
    slug = "cisco-nexus-9516-100g"
    ports, speed, load = 128, 100.0, 0.99999
    frames = [64, 128, 256, 512, 1024, 1518, 9216]
    lat = {64: (2.22, 2.61, 3.47), 128: (2.26, 2.68, 3.52), 256: (2.39, 2.84, 3.80),
           512: (2.61, 3.13, 4.29), 1024: (3.05, 3.74, 5.21), 1518: (3.47, 4.32, 6.02),
           9216: (4.98, 6.71, 9.86)}
    rows, flags, fig = [], [], {}
    for f in frames:
        fps = line_rate_fps(f, speed) * ports * load
        tbps = fps * f * 8 / 1e12
        text_tbps = f"{tbps:.3f}"
        flag = [None] * 6
        if f == 1518:  # a transcription oddity kept as published, flagged
            text_tbps, flag[2] = "12.663", f"recomputed {tbps:.3f}"
        rows.append([str(f), fmt_int(fps), text_tbps, *(f"{v:.2f}" for v in lat[f])])
        flags.append(flag)
    fig["l2-unicast/throughput_l2/64"] = {"text": rows[0][2], "unit": "Tbit/s",
                                          "label": "Layer-2 unicast throughput, 64-byte frames", "headline": True}
    fig["l2-unicast/throughput_l2/9216"] = {"text": rows[-1][2], "unit": "Tbit/s",
                                            "label": "Layer-2 unicast throughput, 9216-byte frames", "headline": True}
    fig["l2-unicast/latency_avg/64"] = {"text": rows[0][4], "unit": "µs",
                                        "label": "Layer-2 unicast average latency, 64-byte frames"}
    t_l2 = table(slug, "l2-unicast-throughput", "Layer-2 unicast throughput and latency",
                 "128 × 100G ports in a full mesh, offered at 99.999 % of line rate; latency measured at the throughput rate.",
                 "l2-unicast",
                 [col("frame_size", "Frame size", "bytes"),
                  col("throughput_fps", "Frames/s", "frames/s", "Throughput"),
                  col("throughput_l2_tbps", "Tbit/s", "Tbit/s", "Throughput"),
                  col("latency_min_us", "Minimum", "µs", "Latency at throughput rate"),
                  col("latency_avg_us", "Average", "µs", "Latency at throughput rate"),
                  col("latency_max_us", "Maximum", "µs", "Latency at throughput rate")],
                 rows, flags)
    jit_rows = []
    for f, base in ((64, 0.011), (1518, 0.019), (9216, 0.042)):
        for ld in (10, 50, 90, 99.999):
            jit_rows.append([str(f), f"{ld:g}", f"{base * (1 + ld / 60):.3f}", f"{base * (3 + ld / 20):.3f}"])
    t_jit = table(slug, "l2-unicast-jitter", "Layer-2 unicast jitter by offered load",
                  "Jitter (delay variation) per RFC 3393, averaged over all 128 ports.", "l2-unicast",
                  [col("frame_size", "Frame size", "bytes"), col("load_pct", "Offered load", "% of line rate"),
                   col("jitter_avg_us", "Average", "µs", "Jitter"), col("jitter_max_us", "Maximum", "µs", "Jitter")],
                  jit_rows)
    v6_frames = [78, 128, 256, 512, 1024, 1518, 9216]
    v6_rows = []
    for f in v6_frames:
        fps = line_rate_fps(f, speed) * ports * load
        v6_rows.append([str(f), fmt_int(fps), f"{fps * f * 8 / 1e12:.3f}", f"{2.3 + f / 3000:.2f}"])
    fig["ipv6-unicast/throughput_l2/78"] = {"text": v6_rows[0][2], "unit": "Tbit/s",
                                            "label": "IPv6 unicast throughput, 78-byte frames", "headline": True}
    t_v6 = table(slug, "ipv6-unicast-throughput", "IPv6 unicast throughput",
                 "RFC 5180 test with 78-byte minimum frames; 128 ports, routed full mesh.", "ipv6-unicast",
                 [col("frame_size", "Frame size", "bytes"),
                  col("throughput_fps", "Frames/s", "frames/s", "Throughput"),
                  col("throughput_l2_tbps", "Tbit/s", "Tbit/s", "Throughput"),
                  col("latency_avg_us", "Average latency", "µs")], v6_rows)
    mc_rows = []
    for f in (64, 256, 1518, 9216):
        fps = line_rate_fps(f, speed) * (ports - 1) * load
        mc_rows.append([str(f), fmt_int(fps), f"{fps * f * 8 / 1e12:.3f}", f"{2.9 + f / 2500:.2f}", "0"])
    fig["multicast/throughput_l2/64"] = {"text": mc_rows[0][2], "unit": "Tbit/s",
                                         "label": "Multicast throughput, 64-byte frames"}
    t_mc = table(slug, "multicast-throughput", "Multicast throughput (1 source, 127 receivers)",
                 "RFC 3918 aggregated multicast throughput; 1,000 groups joined on every receiving port.", "multicast",
                 [col("frame_size", "Frame size", "bytes"),
                  col("throughput_fps", "Frames/s", "frames/s", "Throughput"),
                  col("throughput_l2_tbps", "Tbit/s", "Tbit/s", "Throughput"),
                  col("latency_avg_us", "Average latency", "µs"), col("loss_frames", "Frames lost", "frames")],
                 mc_rows)
    acl_rows, no_rows, yes_rows = [], [], []
    for f in (64, 512, 1518, 9216):
        a, b = 2.61 + f / 3300, 2.61 + f / 3300 + 0.04
        no_rows.append([str(f), "100", f"{a:.2f}"])
        yes_rows.append([str(f), "100", f"{b:.2f}"])
        acl_rows.append([str(f), f"{a:.2f}", f"{b:.2f}", f"+{b - a:.2f}"])
    t_no = table(slug, "filter-no-acl-latency", "Latency without access-control lists",
                 "Throughput and average latency with no ACL configured.", "filter-no-acl",
                 [col("frame_size", "Frame size", "bytes"), col("throughput_pct", "Throughput", "% of line rate"),
                  col("latency_avg_us", "Average latency", "µs")], no_rows)
    t_yes = table(slug, "filter-acl-15k-latency", "Latency with 15,000 ACL entries",
                  "Same traffic with 15,000 access-control entries applied on every ingress port.", "filter-acl-15k",
                  [col("frame_size", "Frame size", "bytes"), col("throughput_pct", "Throughput", "% of line rate"),
                   col("latency_avg_us", "Average latency", "µs")], yes_rows)
    t_acl = table(slug, "acl-impact", "Average latency: no ACL vs 15,000 ACL entries",
                  "Side by side: the two filter tests at line rate.", None,
                  [col("frame_size", "Frame size", "bytes"), col("latency_no_acl_us", "No ACL", "µs", "Average latency"),
                   col("latency_acl_us", "15,000 ACL entries", "µs", "Average latency"),
                   col("delta_us", "Difference", "µs")], acl_rows)

    def meth(frames_, loads=(10, 50, 90, 99.999), thr=99.999):
        return {"trial_duration_s": 300, "trials": 1, "frame_sizes": frames_, "offered_loads_pct": list(loads),
                "latency_method": "FIFO", "throughput_load_pct": thr}

    tests = [
        {"id": "l2-unicast", "title": "Layer-2 unicast", "rfc": ["2889"], "scenario": "l2-unicast",
         "topology": "full-mesh", "ports": 128, "port_speed": "100G", "direction": "bidirectional",
         "description": "Every port sends to every other port in a fully meshed pattern, the most stressful unicast pattern for a switch fabric.",
         "methodology": meth(frames), "tables": ["l2-unicast-throughput", "l2-unicast-jitter"],
         "charts": ["l2-unicast-throughput", "l2-unicast-jitter-vs-load"]},
        {"id": "ipv6-unicast", "title": "IPv6 unicast routing", "rfc": ["5180", "2544"], "scenario": "l3-unicast",
         "topology": "full-mesh", "ports": 128, "port_speed": "100G", "direction": "bidirectional",
         "description": "Routed IPv6 traffic between 128 subnets, one per port.",
         "methodology": meth(v6_frames), "tables": ["ipv6-unicast-throughput"], "charts": []},
        {"id": "multicast", "title": "IP multicast", "rfc": ["3918"], "scenario": "multicast",
         "topology": "one-to-many", "ports": 128, "port_speed": "100G", "direction": "unidirectional",
         "description": "One port sends to 1,000 groups; the 127 other ports each join all groups.",
         "methodology": meth([64, 256, 1518, 9216]), "tables": ["multicast-throughput"], "charts": []},
        {"id": "filter-no-acl", "title": "Forwarding without ACLs", "rfc": ["2544"], "scenario": "l3-unicast",
         "topology": "port-pair", "ports": 128, "port_speed": "100G", "direction": "bidirectional",
         "description": "Baseline for the ACL comparison.", "methodology": meth([64, 512, 1518, 9216], (100,), 100),
         "tables": ["filter-no-acl-latency"], "charts": []},
        {"id": "filter-acl-15k", "title": "Forwarding with 15,000 ACL entries", "rfc": ["2544"],
         "scenario": "l3-unicast", "topology": "port-pair", "ports": 128, "port_speed": "100G",
         "direction": "bidirectional", "description": "The baseline traffic with 15,000 ACL entries on every ingress port.",
         "methodology": meth([64, 512, 1518, 9216], (100,), 100),
         "tables": ["filter-acl-15k-latency"], "charts": []},
    ]
    tables = {t["id"]: t for t in (t_l2, t_jit, t_v6, t_mc, t_no, t_yes, t_acl)}
    charts = {
        "l2-unicast-throughput": chart(slug, "l2-unicast-throughput", "Layer-2 unicast throughput by frame size",
                                       "Aggregate layer-2 throughput of 128 × 100G ports; the orange tick on each bar marks the theoretical line rate.",
                                       "Bar chart of layer-2 throughput in Tbit/s for seven frame sizes from 64 to 9216 bytes. Throughput rises from 9.75 Tbit/s at 64 bytes to about 12.77 Tbit/s at 9216 bytes, each bar within 0.001 % of the theoretical line rate.",
                                       "l2-unicast"),
        "l2-unicast-jitter-vs-load": chart(slug, "l2-unicast-jitter-vs-load", "Average jitter by offered load",
                                           "Average jitter for three frame sizes as the offered load rises from 10 % to 99.999 % of line rate.",
                                           "Line chart of average jitter in microseconds against offered load. Average jitter stays below 0.12 µs for all three frame sizes; it grows slowly with load and is highest for 9216-byte frames (0.112 µs at 99.999 %).",
                                           "l2-unicast"),
    }
    return {
        "slug": slug,
        "title": "Cisco Nexus 9516 with 128 × 100G ports",
        "summary": "Development fixture modelled on a commissioned lab report: a 16-slot chassis switch with 128 × 100G ports forwarded layer-2, IPv6 and multicast traffic at 99.999 % of line rate; latency stayed under 10 µs for every frame size.",
        "status": "published", "date": "2015-06", "year": 2015,
        "source": {"kind": "transcribed", "publisher": "Network Test", "publication_kind": "lab-report",
                   "document": "Cisco Nexus 9516 100G performance test (fixture)", "published": "2015-06",
                   "commissioned_by": "Cisco Systems", "url": None},
        "campaign": {"start": "2015-05", "end": "2015-06", "location": "San Jose, California, USA",
                     "lab": "Vendor engineering lab"},
        "dut": {"vendor": "Cisco", "model": "Nexus 9516", "kind": "switch",
                "software": [{"name": "Cisco NX-OS", "version": "7.0(3)I1(2)"}],
                "components": [{"model": "N9K-X9408PC-CFP2", "description": "8-port 100G CFP2 line card", "count": 16,
                                "ports": 8, "port_speed": "100G"},
                               {"model": "N9K-C9516-FM", "description": "Fabric module", "count": 6, "ports": 0,
                                "port_speed": None}],
                "optics": ["100GBASE-SR10 CFP2"]},
        "instrument": {"vendor": "Spirent", "product": "TestCenter", "modules": ["dX2-100G-P4"],
                       "software": [{"name": "Spirent TestCenter", "version": "4.50.5906"}]},
        "facets": {"vendor": "Cisco", "device": "Nexus 9516", "rfc": ["2544", "2889", "3918", "5180"],
                   "port_speed": ["100G"], "frame_sizes": sorted(set(frames + v6_frames)), "year": 2015},
        "tests": tests, "tables": tables, "charts": charts, "figures": fig,
        "comparisons": [{"id": "acl-impact", "title": "No ACL vs 15,000 ACL entries",
                         "tests": ["filter-no-acl", "filter-acl-15k"], "table": "acl-impact"}],
        "consistency": {"checked": 120, "agree": 119, "mismatches": [
            {"test": "l2-unicast", "where": "1518 bytes", "metric": "throughput_l2",
             "published": "12.663", "recomputed": f"{float(rows[5][1].replace(',', '')) * 1518 * 8 / 1e12:.3f}",
             "note": "Digits transposed in the published table; the frame rate agrees with line rate."}]},
        "downloads": [
            {"title": "Measurements (CSV)", "url": f"results/{slug}/data/measurements.csv"},
            {"title": "Executed notebook (.ipynb)", "url": f"results/{slug}/notebooks/throughput.ipynb"},
            {"title": "PDF report", "url": f"reports/{slug}.pdf"},
        ],
    }


# --------------------------------------------------------------------------
# Set 2: a small router measured with a software generator and a load ramp.
# --------------------------------------------------------------------------
def ccr() -> dict:
    slug = "mikrotik-ccr2004-trex-ramp"
    frames = [64, 128, 512, 1518]
    mpps = {64: 9.52, 128: 8.44, 512: 4.70, 1518: 1.63}
    rows = []
    for f in frames:
        lr = line_rate_fps(f, 10) * 2 / 1e6
        got = min(mpps[f], lr)
        rows.append([str(f), f"{got:.2f}", f"{got * 1e6 * (f + 20) * 8 / 1e9:.2f}", f"{100 * got / lr:.1f}",
                     f"{18 + f / 90:.0f}"])
    t_fwd = table(slug, "ipv4-forwarding-throughput", "IPv4 forwarding throughput (zero loss)",
                  "Two 10G ports, bidirectional, 1 route per port; binary search for the highest rate without loss.",
                  "ipv4-forwarding",
                  [col("frame_size", "Frame size", "bytes"), col("throughput_mpps", "Mframes/s", "Mframes/s", "Throughput"),
                   col("throughput_l1_gbps", "Gbit/s (L1)", "Gbit/s", "Throughput"),
                   col("line_rate_pct", "Line rate", "%", "Throughput"), col("latency_avg_us", "Average latency", "µs")],
                  rows)
    ramp = []
    for off in (2, 4, 6, 8, 10, 12, 14, 16, 18, 20):
        rec = min(off, 15.2 + (off - 16) * 0.05 if off > 16 else off)
        loss = 100 * (off - rec) / off
        ramp.append([f"{off}", f"{rec:.2f}", f"{loss:.2f}", f"{24 + off * 1.2 + (60 if loss > 0 else 0):.0f}",
                     f"{40 + off * 2.5 + (240 if loss > 0 else 0):.0f}"])
    t_ramp = table(slug, "imix-ramp", "IMIX load ramp",
                   "Offered load raised in 2 Gbit/s steps of 60 s each; simple IMIX 7:4:1 (64/570/1518 bytes).",
                   "imix-ramp",
                   [col("offered_gbps", "Offered", "Gbit/s", "Load"), col("received_gbps", "Received", "Gbit/s", "Load"),
                    col("loss_pct", "Loss", "%"), col("latency_avg_us", "Average", "µs", "Latency"),
                    col("latency_p99_us", "99th percentile", "µs", "Latency")], ramp)
    tests = [
        {"id": "ipv4-forwarding", "title": "IPv4 forwarding (RFC 2544)", "rfc": ["2544"], "scenario": "l3-unicast",
         "topology": "port-pair", "ports": 2, "port_speed": "10G", "direction": "bidirectional",
         "description": "Plain IPv4 routing between two SFP+ ports, firewall and connection tracking off.",
         "methodology": {"trial_duration_s": 60, "trials": 3, "frame_sizes": frames,
                         "offered_loads_pct": [100], "latency_method": "LIFO", "throughput_load_pct": None},
         "tables": ["ipv4-forwarding-throughput"], "charts": []},
        {"id": "imix-ramp", "title": "IMIX load ramp", "rfc": [], "scenario": "ramp",
         "topology": "port-pair", "ports": 2, "port_speed": "10G", "direction": "bidirectional",
         "description": "A stepped ramp in the style of a TRex stateless load test, to find where loss and queueing begin.",
         "methodology": {"trial_duration_s": 60, "trials": 1, "frame_sizes": ["IMIX 7:4:1"],
                         "offered_loads_pct": [10, 20, 30, 40, 50, 60, 70, 80, 90, 100],
                         "latency_method": "timestamped probe stream", "throughput_load_pct": None},
         "tables": ["imix-ramp"], "charts": ["imix-ramp-loss"]},
    ]
    return {
        "slug": slug,
        "title": "MikroTik CCR2004-16G-2S+ IPv4 forwarding and IMIX ramp",
        "summary": "Development fixture: a small router measured with a software traffic generator; 64-byte forwarding tops out near 9.5 Mframes/s and the IMIX ramp starts to lose frames above 16 Gbit/s.",
        "status": "published", "date": "2024-03-14", "year": 2024,
        "source": {"kind": "measured", "publisher": "wirespeed contributors", "publication_kind": "measurement",
                   "document": None, "published": "2024-03-14", "commissioned_by": None, "url": None},
        "campaign": {"start": "2024-03-12", "end": "2024-03-14", "location": "Home lab", "lab": None},
        "dut": {"vendor": "MikroTik", "model": "CCR2004-16G-2S+", "kind": "router",
                "software": [{"name": "RouterOS", "version": "7.14.1"}],
                "components": [{"model": "CCR2004-16G-2S+", "description": "Fixed configuration, 16 × 1G + 2 × 10G SFP+",
                                "count": 1, "ports": 18, "port_speed": "10G"}],
                "optics": ["10GBASE-SR SFP+"]},
        "instrument": {"vendor": "Cisco", "product": "TRex", "modules": ["Intel X710-DA2"],
                       "software": [{"name": "TRex", "version": "v3.04"}]},
        "facets": {"vendor": "MikroTik", "device": "CCR2004-16G-2S+", "rfc": ["2544"], "port_speed": ["10G"],
                   "frame_sizes": frames, "year": 2024},
        "tests": tests, "tables": {"ipv4-forwarding-throughput": t_fwd, "imix-ramp": t_ramp},
        "charts": {"imix-ramp-loss": chart(slug, "imix-ramp-loss", "Received rate and loss during the IMIX ramp",
                                           "Received throughput follows the offered load up to 16 Gbit/s, then flattens while loss appears.",
                                           "Line chart of received against offered throughput in Gbit/s for offered loads from 2 to 20 Gbit/s. Received equals offered up to 16 Gbit/s, then stays near 15.3 Gbit/s; loss rises to 23 % at 20 Gbit/s.",
                                           "imix-ramp")},
        "figures": {
            "ipv4-forwarding/throughput_mpps/64": {"text": rows[0][1], "unit": "Mframes/s",
                                                   "label": "IPv4 forwarding rate, 64-byte frames", "headline": True},
            "ipv4-forwarding/throughput_l1/1518": {"text": rows[3][2], "unit": "Gbit/s",
                                                   "label": "IPv4 throughput, 1518-byte frames", "headline": True},
            "imix-ramp/max_lossless": {"text": "16", "unit": "Gbit/s", "label": "Highest loss-free IMIX load"},
        },
        "comparisons": [],
        "consistency": {"checked": 24, "agree": 24, "mismatches": []},
        "downloads": [{"title": "Measurements (CSV)", "url": f"results/{slug}/data/measurements.csv"},
                      {"title": "TRex run log (JSON)", "url": f"results/{slug}/data/trex-runs.json"}],
    }


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def main() -> None:
    sets = (nexus(), ccr())
    setindex.write({s["slug"]: setindex.entry(s) for s in sets}, DATA.parent / "index.json")  # what the lists read, as the pipeline writes it
    for s in sets:
        slug = s["slug"]
        page_tables = {tid: {**t, "html": table_html.render(slug, t)} for tid, t in s["tables"].items()}  # as the site-data step renders them
        write(DATA / f"{slug}.json", json.dumps({**s, "tables": page_tables}, indent=1, ensure_ascii=False) + "\n")
        long = io.StringIO()
        lw = csv.writer(long, lineterminator="\n")
        lw.writerow(["table", "row", "column", "unit", "value"])
        for t in s["tables"].values():
            buf = io.StringIO()
            w = csv.writer(buf, lineterminator="\n")
            w.writerow([c["key"] for c in t["columns"]])
            for i, r in enumerate(t["rows"]):
                w.writerow([v.replace(",", "") for v in r])
                for c, v in zip(t["columns"], r):
                    lw.writerow([t["id"], i, c["key"], c["unit"], v.replace(",", "")])
            write(STATIC / "results" / slug / "tables" / f"{t['id']}.csv", buf.getvalue())
            write(STATIC / "results" / slug / "tables" / f"{t['id']}.json",
                  json.dumps(t, indent=1, ensure_ascii=False) + "\n")
        write(STATIC / "results" / slug / "data" / "measurements.csv", long.getvalue())
    write(STATIC / "notebooks" / "throughput.html",
          "<!doctype html><html lang=en><meta charset=utf-8><title>throughput notebook (fixture)</title>"
          "<h1>Throughput notebook</h1><p>Placeholder for the notebook's page the pipeline publishes.</p></html>\n")
    for slug in ("cisco-nexus-9516-100g", "mikrotik-ccr2004-trex-ramp"):
        write(STATIC / "results" / slug / "notebooks" / "throughput.ipynb",
              json.dumps({"cells": [], "metadata": {"fixture": True}, "nbformat": 4, "nbformat_minor": 5}) + "\n")
    write(STATIC / "results" / "mikrotik-ccr2004-trex-ramp" / "data" / "trex-runs.json",
          json.dumps({"fixture": True, "runs": [{"step_gbps": g, "duration_s": 60} for g in range(2, 21, 2)]}) + "\n")


if __name__ == "__main__":
    main()

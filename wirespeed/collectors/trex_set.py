"""The result.toml parts every T-Rex collection shares, and the set of a run of declared trials.

- `base()`: title, summary, tags, source, campaign, DUT and instrument (T-Rex's version and the server's
  ports from get_version and get_system_info) from the configuration; provenance is stamped later
  (wirespeed.collectors.provenance);
- `stats_doc()`: one trial's counters in the shape of T-Rex's Python `get_stats()` (per port, `total`,
  and for a latency trial `flow_stats` and `latency` of its packet group), which the **trex** importer
  reads;
- the declared-trials set (`[trials]`, `[ramp]`, `[[trial]]`): `native/sweep.json`, one run per trial,
  read by the **trex-sweep** importer through the mapping on its `[files].native` entry, and
  `raw/trial-NNN.stats.json` per trial.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import wirespeed
from wirespeed.collectors.trex_config import Config
from wirespeed.collectors.trex_rpc import one_line
from wirespeed.engine.linerate import Link

SWEEP = "native/sweep.json"
MAPPING = {"frame_size": "frame_size", "trial": "trial", "duration_s": "duration_s", "offered_rate_pps": "rate_fps",
           "forwarding_rate_pps": "rx_fps", "tx_frames": "tx_frames", "rx_frames": "rx_frames", "lost_frames": "lost_frames"}
FRAME_NOTE = "Frame sizes include the FCS; T-Rex sends the packet 4 bytes shorter."


def speed_label(bps: float) -> str:
    return f"{bps / 1e9:g}G" if bps >= 1e9 and bps % 1e9 == 0 else f"{bps / 1e6:g}M"


def server_testbed(cfg: Config, system: Any, server: str) -> str:
    """The test bed as the T-Rex server states it: host, processor, data-plane cores and the two ports' NICs."""
    system = system if isinstance(system, dict) else {}
    ports = [p for p in system.get("ports", []) if isinstance(p, dict) and p.get("index") in (cfg.tx_port, cfg.rx_port)]
    nics = "; ".join(f"port {p.get('index')}: {p.get('description', '?')}, driver {p.get('driver', '?')}, PCI {p.get('pci_addr', '?')}" for p in ports)
    return one_line(f"T-Rex server {system.get('hostname', server)}: {system.get('core_type', 'processor not stated')}, "
                    f"{system.get('dp_core_count', '?')} data-plane cores" + (f"; {nics}" if nics else ""), 4000)


def base(cfg: Config, slug: str, summary: str, version: Any, system: Any, start: dt.datetime, end: dt.datetime, server: str, how: str) -> dict:
    """result.toml without tests and files; `how` says in the source notes how the numbers were taken."""
    s = cfg.raw["set"]
    version = version if isinstance(version, dict) else {}
    system = system if isinstance(system, dict) else {}
    trex_ver = str(version.get("version") or "unknown")
    ports = [p for p in system.get("ports", []) if isinstance(p, dict) and p.get("index") in (cfg.tx_port, cfg.rx_port)]
    modules = [f"port {p.get('index')}: {p.get('description', '?')} ({p.get('driver', '?')}, PCI {p.get('pci_addr', '?')})" for p in ports]
    d0 = start.date().isoformat()
    return {
        "format_version": 1, "slug": slug, "title": s["title"], "summary": s.get("summary") or summary, "status": "draft",
        "licence": "NOASSERTION", "tags": list(s.get("tags", ["trex"])),
        "source": {"kind": "measured", "publisher": "", "publication_kind": "test-run", "published": d0,
                   "notes": f"Measured by wirespeed.collectors.trex_collect through T-Rex's JSON-RPC API on {server}; {how} "
                            "(raw/rpc-transcript.json has every request and reply)."},
        "campaign": {"start": d0, "end": end.date().isoformat()},
        "dut": cfg.raw["dut"],
        "instrument": {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator (stateless)",
                       "software": [{"name": "T-Rex", "version": trex_ver}, {"name": "wirespeed trex collector", "version": wirespeed.__version__}],
                       **({"modules": modules} if modules else {}),
                       "notes": one_line(f"Server {system.get('hostname', '?')}, {system.get('core_type', '?')}, {system.get('dp_core_count', '?')} data-plane cores; "
                                         f"T-Rex {trex_ver} built {version.get('build_date', '?')} by {version.get('built_by', '?')}.")},
    }


def test_fields(cfg: Config, link: Link | None, rfc: list[str], meth: dict) -> dict:
    """The [test] table as result.toml's test, with its methodology."""
    test = cfg.raw["test"]
    t: dict[str, Any] = {"id": test["id"], "title": test["title"], "rfc": rfc, "scenario": test["scenario"], "topology": "port-pairs",
                         "ports": 2, **({"port_speed": link.label} if link else {}), "media": "ethernet", "direction": "unidirectional",
                         "address_family": test.get("address_family", "ipv4"), "flows": 1, "methodology": meth}
    if isinstance(test.get("description"), str):
        t["description"] = test["description"]
    return t


def stats_doc(reading: dict, tx_port: int, rx_port: int) -> dict:
    """One trial's counters in the shape of T-Rex's get_stats(): per port, their total, and a latency trial's packet group."""
    out: dict[str, Any] = {}
    for port in sorted({tx_port, rx_port}):
        b, a = reading["before"][str(port)], reading["after"][str(port)]
        out[str(port)] = {**{k: a[k] - b[k] for k in ("opackets", "ipackets", "obytes", "ibytes", "oerrors", "ierrors")},
                          "tx_pps": a["m_total_tx_pps"], "rx_pps": a["m_total_rx_pps"], "tx_bps": a["m_total_tx_bps"], "rx_bps": a["m_total_rx_bps"]}
    out["total"] = {k: sum(v[k] for v in out.values()) for k in next(iter(out.values()))}
    out["global"] = {}
    if "latency" in reading:
        ls = reading["latency"]
        flow, lat = ls.api_form(tx_port, rx_port)
        out["flow_stats"], out["latency"] = {str(ls.pg_id): flow}, {str(ls.pg_id): lat}
    return out


def fixed_files(cfg: Config, readings: list[dict], runs: list[dict]) -> dict[str, bytes]:
    files = {SWEEP: (json.dumps(runs, indent=1) + "\n").encode()}
    for i, reading in enumerate(readings, 1):
        files[f"raw/trial-{i:03d}.stats.json"] = (json.dumps(stats_doc(reading, cfg.tx_port, cfg.rx_port), indent=1) + "\n").encode()
    return files


def fixed_document(cfg: Config, slug: str, runs: list[dict], link: Link | None, version: Any, system: Any,
                   start: dt.datetime, end: dt.datetime, server: str) -> dict:
    """result.toml of a run of declared trials (grid, ramp of trials, or explicit)."""
    test = cfg.raw["test"]
    sizes = sorted({r["frame_size"] for r in runs})
    durations = {r["duration_s"] for r in runs}
    loads = sorted({r["load_pct"] for r in runs if "load_pct" in r})
    lost = sum(r["lost_frames"] for r in runs)
    summary = (f"{len(runs)} trials of {runs[0]['duration_s']:g} s" if len(durations) == 1 else f"{len(runs)} trials") + (
        f" with {', '.join(map(str, sizes))}-byte frames from T-Rex port {cfg.tx_port} to port {cfg.rx_port}; "
        f"{'no frame was lost' if lost == 0 else f'{lost:,} frames were lost in all'}.")
    meth: dict[str, Any] = {"frame_sizes": sizes, "trials": max(r["trial"] for r in runs), "frame_size_convention": "ethernet-frame",
                            "search": "step" if cfg.mode == "ramp" else "fixed-rate",
                            "notes": "Each trial is one continuous stream of one UDP/IPv4 frame, started with start_traffic's duration (T-Rex times it) and "
                                     "counted as the difference of the transmit port's opackets and the receive port's ipackets read before and after. " + FRAME_NOTE}
    if len(durations) == 1:
        meth["trial_duration_s"] = durations.pop()
    if loads and len(loads) <= 50:
        meth["offered_loads_pct"] = loads
    doc = base(cfg, slug, summary, version, system, start, end, server, "every number comes from the server's port counters")
    doc["tests"] = [test_fields(cfg, link, ["vendor"], meth)]
    doc["files"] = {"native": [{"path": SWEEP, "importer": "trex-sweep", "test": test["id"], "mapping": {**MAPPING, **({"load_pct": "load_pct"} if loads else {})}}],
                    "attachments": [{"path": f"raw/trial-{i:03d}.stats.json", "title": f"Trial {i}: port counters in T-Rex get_stats() form (differences over the trial)"}
                                    for i in range(1, len(runs) + 1)]}
    return doc

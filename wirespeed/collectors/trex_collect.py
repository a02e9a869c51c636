"""Collector: run a declared set of trials on a T-Rex server (JSON-RPC over ZeroMQ) and write a result set.

`wirespeed collect trex --server HOST[:PORT] --config lab.toml --into SLUG`: connects and syncs the
API (trex_rpc), takes the two ports (trex_generator), runs every trial of the configuration
(trex_config: frame sizes × rates, a ramp of rates, or explicit trials) and writes `data/results/SLUG/`:

- `native/sweep.json`: one run per trial, read by the **trex-sweep** importer through the mapping
  declared on its `[files].native` entry (so loading the set re-imports it, like any imported sweep);
- `raw/trial-NNN.stats.json`: each trial's port counters in the shape of T-Rex's `get_stats()`,
  which the **trex** importer reads (counters are the trial's differences; rates as the server
  reported them at the end of the trial);
- `raw/rpc-transcript.json`: every request and reply exchanged with the server, in order.

Nothing is written until every trial has run; the set is written through the one writer into a
scratch folder, validated (schema, semantics and checks) and renamed into place, so an interrupted
or failed collection leaves no set and no scratch folder behind, and the ports are released.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import wirespeed
from wirespeed.collectors.trex_config import Config, Planned, read_config
from wirespeed.collectors.trex_generator import TrexGenerator, TrialResult
from wirespeed.collectors.trex_rpc import RpcClient, TrexError, one_line, parse_server
from wirespeed.linerate import Link, parse_speed, port_fps
from wirespeed.problems import Problem

GENERATOR_TOLERANCE = 0.01  # a trial whose sent frames miss rate × duration by more (plus 10 frames) fails the run
SWEEP = "native/sweep.json"
MAPPING = {"frame_size": "frame_size", "trial": "trial", "duration_s": "duration_s", "offered_rate_pps": "rate_fps",
           "forwarding_rate_pps": "rx_fps", "tx_frames": "tx_frames", "rx_frames": "rx_frames", "lost_frames": "lost_frames"}


class CollectorError(Exception):
    """The collection cannot run or failed; the message is one line (config problems: one line each)."""


def speed_label(bps: float) -> str:
    return f"{bps / 1e9:g}G" if bps >= 1e9 and bps % 1e9 == 0 else f"{bps / 1e6:g}M"


def _link(cfg: Config, gen: TrexGenerator) -> Link | None:
    stated = cfg.raw["test"].get("port_speed")
    try:
        if isinstance(stated, str):
            return parse_speed(stated)
        if gen.tx_port in gen.speeds_bps:
            return parse_speed(speed_label(gen.speeds_bps[gen.tx_port]))
    except ValueError as exc:
        raise CollectorError(f"{cfg.path}: test.port_speed: {exc}") from None
    return None


def run(out_dir: Path, slug: str, *, server: str = "127.0.0.1", config: str = "", force: bool = False, timeout_s: float = 5.0,
        progress: Callable[[int, int], None] | None = None, sleep: Callable[[float], None] | None = None,
        clock: Callable[[], float] | None = None) -> Path:
    """Run the configured trials on the T-Rex server and write ``out_dir/slug``; returns its path."""
    import re

    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) or len(slug) > 80:
        raise CollectorError(f"slug {slug!r} is not lower-case words joined by hyphens")
    if not config:
        raise CollectorError("no configuration: give --config FILE (see docs/collectors.md)")
    cfg, problems = read_config(Path(config))
    if cfg is None:
        raise CollectorError("\n".join(str(p) for p in problems))
    if problems := preflight(cfg, slug):
        raise CollectorError("\n".join(str(p) for p in problems))
    final = Path(out_dir) / slug
    if final.exists() or final.is_symlink():
        raise CollectorError(f"{final} already exists; collect into a new slug")
    try:
        host, port = parse_server(server)
    except TrexError as exc:
        raise CollectorError(str(exc)) from None
    client = RpcClient(host, port, timeout_s=timeout_s)
    extra = {k: v for k, v in (("sleep", sleep), ("clock", clock)) if v is not None}
    gen = TrexGenerator(client, cfg.tx_port, cfg.rx_port, force=force, **extra)
    start = dt.datetime.now(dt.timezone.utc)
    try:
        client.connect()
        version = client.call("get_version")
        system = client.call("get_system_info")
        gen.acquire()
        link = _link(cfg, gen)
        runs = _run_trials(cfg, gen, link, progress)
    except TrexError as exc:
        raise CollectorError(str(exc)) from None
    finally:
        gen.release()
        client.close()
    end = dt.datetime.now(dt.timezone.utc)
    files = _files(cfg, gen, client, runs)
    doc = _document(cfg, slug, runs, link, version, system, start, end, server)
    _write(Path(out_dir), slug, doc, files)
    return final


def preflight(cfg: Config, slug: str) -> list[Problem]:
    """Before anything runs: would result.toml, as this configuration describes it, pass the schema?
    Problems are named at the configuration's own fields and lines ([set], [dut], [test])."""
    from wirespeed.resultset.load import _schema_problem, _validator
    from wirespeed.resultset.tomllines import with_lines

    now = dt.datetime.now(dt.timezone.utc)
    p = cfg.trials[0]
    probe = [{"frame_size": p.frame_size, "trial": 1, "rate_fps": 1.0, "duration_s": p.duration_s, "tx_frames": 0, "rx_frames": 0, "lost_frames": 0,
              "rx_fps": 0.0, "load_pct": 1.0}]
    doc = _document(cfg, slug, probe, parse_speed("10G"), {}, {}, now, now, "preflight")
    out = []
    for err in _validator().iter_errors(doc):
        prob = _schema_problem(err, cfg.path)
        field = prob.field
        for prefix, to in (("tests[0].", "test."), ("dut.", "dut."), ("dut", "dut")):
            if field.startswith(prefix):
                field = to + field[len(prefix):]
                break
        else:
            field = f"set.{field}" if field.split(".")[0].split("[")[0] in cfg.raw["set"] else field
        out.append(replace(prob, field=field, message=f"result.toml would not validate: {prob.message}"))
    try:
        text = Path(cfg.path).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return out
    return with_lines(out, cfg.path, text)


def _run_trials(cfg: Config, gen: TrexGenerator, link: Link | None, progress) -> list[dict]:
    if link is None and any(p.rate_pct is not None for p in cfg.trials):
        raise CollectorError(f"{cfg.path}: rates in % of line rate need the port speed: the server did not report it; set test.port_speed")
    runs = []
    for i, p in enumerate(cfg.trials):
        line = port_fps(p.frame_size, link) if link else None
        rate = p.rate_fps if p.rate_fps is not None else p.rate_pct * line / 100
        if line is not None and rate > line * 1.000001:
            raise CollectorError(f"{cfg.path}: trial {i + 1}: {rate:,.0f} frames/s of {p.frame_size} bytes is above the {link.label} line rate ({line:,.0f})")
        res: TrialResult = gen.trial(p.frame_size, rate, p.duration_s)
        offered = rate * p.duration_s
        if abs(res.tx_frames - offered) > GENERATOR_TOLERANCE * offered + 10:
            raise CollectorError(f"trial {i + 1} ({p.frame_size} bytes at {rate:,.2f} frames/s for {p.duration_s:g} s): T-Rex sent {res.tx_frames:,} frames "
                                 f"against {offered:,.0f} offered (more than {GENERATOR_TOLERANCE:.0%} off); nothing written")
        run = {"frame_size": p.frame_size, "trial": p.repeat, "rate_fps": round(rate, 6), "duration_s": res.duration_s,
               "tx_frames": res.tx_frames, "rx_frames": res.rx_frames, "lost_frames": res.lost_frames,
               "rx_fps": round(res.rx_frames / res.duration_s, 6)}
        if line is not None:
            run["load_pct"] = round(rate / line * 100, 6)
        runs.append(run)
        if progress:
            progress(i + 1, len(cfg.trials))
    return runs


def _stats_doc(reading: dict, tx_port: int, rx_port: int) -> dict:
    """One trial's counters in the shape of T-Rex's get_stats(): per port, and their total."""
    out: dict[str, Any] = {}
    for port in sorted({tx_port, rx_port}):
        b, a = reading["before"][str(port)], reading["after"][str(port)]
        out[str(port)] = {**{k: a[k] - b[k] for k in ("opackets", "ipackets", "obytes", "ibytes", "oerrors", "ierrors")},
                          "tx_pps": a["m_total_tx_pps"], "rx_pps": a["m_total_rx_pps"], "tx_bps": a["m_total_tx_bps"], "rx_bps": a["m_total_rx_bps"]}
    out["total"] = {k: sum(v[k] for v in out.values()) for k in next(iter(out.values()))}
    out["global"] = {}
    return out


def _files(cfg: Config, gen: TrexGenerator, client: RpcClient, runs: list[dict]) -> dict[str, bytes]:
    files = {SWEEP: (json.dumps(runs, indent=1) + "\n").encode()}
    for i, reading in enumerate(gen.readings, 1):
        files[f"raw/trial-{i:03d}.stats.json"] = (json.dumps(_stats_doc(reading, cfg.tx_port, cfg.rx_port), indent=1) + "\n").encode()
    transcript = [{"request": e.request, "reply": e.reply} for e in client.transcript]
    files["raw/rpc-transcript.json"] = (json.dumps(transcript, indent=1) + "\n").encode()
    return files


def _document(cfg: Config, slug: str, runs: list[dict], link: Link | None, version: Any, system: Any,
              start: dt.datetime, end: dt.datetime, server: str) -> dict:
    s, test = cfg.raw["set"], cfg.raw["test"]
    version = version if isinstance(version, dict) else {}
    system = system if isinstance(system, dict) else {}
    trex_ver = str(version.get("version") or "unknown")
    sizes = sorted({r["frame_size"] for r in runs})
    durations = {r["duration_s"] for r in runs}
    loads = sorted({r["load_pct"] for r in runs if "load_pct" in r})
    lost = sum(r["lost_frames"] for r in runs)
    summary = s.get("summary") or (f"{len(runs)} trials of {cfg.trials[0].duration_s:g} s" if len(durations) == 1 else f"{len(runs)} trials") + (
        f" with {', '.join(map(str, sizes))}-byte frames from T-Rex port {cfg.tx_port} to port {cfg.rx_port}; "
        f"{'no frame was lost' if lost == 0 else f'{lost:,} frames were lost in all'}.")
    ports = [p for p in system.get("ports", []) if isinstance(p, dict) and p.get("index") in (cfg.tx_port, cfg.rx_port)]
    meth: dict[str, Any] = {"frame_sizes": sizes, "trials": max(r["trial"] for r in runs), "frame_size_convention": "ethernet-frame",
                            "search": "step" if cfg.mode == "ramp" else "fixed-rate",
                            "notes": "Each trial is one continuous stream of one UDP/IPv4 frame, started with start_traffic's duration (T-Rex times it) and "
                                     "counted as the difference of the transmit port's opackets and the receive port's ipackets read before and after. "
                                     "Frame sizes include the FCS; T-Rex sends the packet 4 bytes shorter."}
    if len(durations) == 1:
        meth["trial_duration_s"] = durations.pop()
    if loads and len(loads) <= 50:
        meth["offered_loads_pct"] = loads
    t: dict[str, Any] = {"id": test["id"], "title": test["title"], "rfc": ["vendor"], "scenario": test["scenario"], "topology": "port-pairs",
                         "ports": 2, "port_speed": link.label if link else "unknown", "media": "ethernet", "direction": "unidirectional",
                         "address_family": test.get("address_family", "ipv4"), "flows": 1, "methodology": meth}
    if link is None:
        del t["port_speed"]
    if isinstance(test.get("description"), str):
        t["description"] = test["description"]
    d0 = start.date().isoformat()
    modules = [f"port {p.get('index')}: {p.get('description', '?')} ({p.get('driver', '?')}, PCI {p.get('pci_addr', '?')})" for p in ports]
    return {
        "format_version": 1, "slug": slug, "title": s["title"], "summary": summary, "status": s.get("status", "draft"),
        "licence": s.get("licence", "CC-BY-4.0"), "tags": s.get("tags", ["trex"]),
        "source": {"kind": "measured", "publisher": "wirespeed", "publication_kind": "test-run", "published": d0,
                   "notes": f"Measured by wirespeed.collectors.trex_collect through T-Rex's JSON-RPC API on {server}; every number comes from the "
                            "server's port counters (raw/rpc-transcript.json has every request and reply)."},
        "campaign": {"start": d0, "end": end.date().isoformat(), **({"location": s["location"]} if isinstance(s.get("location"), str) else {})},
        "dut": cfg.raw["dut"],
        "instrument": {"vendor": "Cisco (open source)", "product": "T-Rex traffic generator (stateless)",
                       "software": [{"name": "T-Rex", "version": trex_ver}, {"name": "wirespeed trex collector", "version": wirespeed.__version__}],
                       **({"modules": modules} if modules else {}),
                       "notes": one_line(f"Server {system.get('hostname', '?')}, {system.get('core_type', '?')}, {system.get('dp_core_count', '?')} data-plane cores; "
                                         f"T-Rex {trex_ver} built {version.get('build_date', '?')} by {version.get('built_by', '?')}.")},
        "tests": [t],
        "files": {"native": [{"path": SWEEP, "importer": "trex-sweep", "test": test["id"],
                              "mapping": {**MAPPING, **({"load_pct": "load_pct"} if loads else {})}}],
                  "attachments": [{"path": f"raw/trial-{i:03d}.stats.json", "title": f"Trial {i}: port counters in T-Rex get_stats() form (differences over the trial)"}
                                  for i in range(1, len(runs) + 1)] + [{"path": "raw/rpc-transcript.json", "title": "Every JSON-RPC request and reply exchanged with the T-Rex server"}]},
    }


def _write(out_dir: Path, slug: str, doc: dict, files: dict[str, bytes]) -> None:
    """Write the set into a scratch folder through the one writer, validate it, then rename it into place."""
    from wirespeed.checks import run_checks
    from wirespeed.resultset.load import load
    from wirespeed.resultset.writer import WriteError, write_set

    out_dir.mkdir(parents=True, exist_ok=True)
    scratch = out_dir / f".trex-collect-{slug}-{os.getpid()}"
    shutil.rmtree(scratch, ignore_errors=True)
    try:
        folder = write_set(scratch / slug, doc, files)
        rs, problems = load(folder)
        problems = problems + (run_checks(rs) if rs is not None else [])
        errors = [p for p in problems if p.severity == "error"]
        if errors:
            raise CollectorError(f"the collected set does not validate, nothing written: {errors[0]}")
        try:
            os.rename(folder, out_dir / slug)
        except OSError as exc:
            raise CollectorError(f"cannot move the result set into place: {exc}") from None
    except WriteError as exc:
        raise CollectorError(str(exc)) from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

"""Collector `trex`: declared trials, NDR/PDR searches with latency, or a ramp loadtest on a T-Rex server.

    wirespeed collect trex --server HOST[:PORT] --config lab.toml --into SLUG [--record FILE]
    wirespeed collect trex --replay FILE --into SLUG

Connects and syncs the API (trex_rpc), takes the two ports (trex_generator) and runs what the
configuration (trex_config, trex_plans) asks for:

- declared trials ([trials], [ramp], [[trial]]): the set of trex_set (native/sweep.json and each
  trial's counters in get_stats() form);
- searches ([search], [latency]): the same search drivers as the netns collector
  (wirespeed.collectors.search: RFC 2544 binary search or MLRsearch, repeated), then latency trials
  with a latency stream at loads of the mean NDR or PDR (trex_search_set);
- a loadtest ([loadtest]): warm-up, ramp and hold with a sample a second (trex_loadtest).

Hooks run before and after the test and each trial (hooks.py). Everything the session takes from
outside goes through a tape (trex_tape): `--record FILE` keeps a lab's real session, `--replay FILE`
runs the collector on one without a server. The set's provenance comes from the flags, the [set]
table and the machine (provenance.py; the T-Rex server's own description is the default test bed). A
server whose get_version reply names a `simulator` (the T-Rex API simulator of wirespeed's tests) is
not a device: its set is synthetic (source.kind = "synthetic"), which can never be published.

Nothing is written until everything has run; the set is written through the one writer into a
scratch folder, validated (schema, semantics and checks) and renamed into place, so an interrupted
or failed collection leaves no set and no scratch folder behind, and the ports are released.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

from wirespeed.collectors import provenance as prov
from wirespeed.collectors import trex_loadtest, trex_search_set, trex_set
from wirespeed.collectors.hooks import HookedGenerator, HookError, HookRunner
from wirespeed.collectors.search.repeat import PointResult, search_point
from wirespeed.collectors.search.session import SearchConfig, SearchError, Session, Trial
from wirespeed.collectors.trex_config import Config, read_config
from wirespeed.collectors.trex_generator import LatencyStreams, TrexGenerator
from wirespeed.collectors.trex_rpc import RpcClient, TrexError, one_line, parse_server
from wirespeed.collectors.trex_tape import Replay, Tape, TapeError
from wirespeed.collectors.trial import TrialResult
from wirespeed.engine.linerate import Link, parse_speed, port_fps
from wirespeed.extensions import CollectorOption
from wirespeed.problems import Problem

GENERATOR_TOLERANCE = 0.01  # declared trials: sent frames that miss rate × duration by more (plus 10 frames) fail the run
TRANSCRIPT = "raw/rpc-transcript.json"


class CollectorError(Exception):
    """The collection cannot run or failed; the message is one line (config problems: one line each)."""


def run(out_dir: Path, slug: str, *, config: Path | None = None, server: str | None = None, force: bool = False, timeout: float = 5.0,
        record: Path | None = None, replay: Path | None = None, quick: bool = False, progress: Callable[..., None] | None = None,
        provenance: dict[str, str | None] | None = None) -> Path:
    """Trials, NDR/PDR searches with latency, or a ramp loadtest on a T-Rex server; --record/--replay a session.

    Runs what the configuration asks for and writes the result set out_dir/slug; returns its path."""
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) or len(slug) > 80:
        raise CollectorError(f"slug {slug!r} is not lower-case words joined by hyphens")
    flags = {k: v for k, v in (provenance or {}).items() if v is not None}
    try:
        if replay is not None:
            if server is not None or record is not None:
                raise CollectorError("--replay runs a recorded session: it takes no --server or --record")
            tape: Tape = Replay.load(Path(replay))
            recorded = tape.header.get("options") if isinstance(tape.header.get("options"), dict) else {}
            quick = quick or bool(recorded.get("quick"))
            flags = {**{k: v for k, v in recorded.items() if k in prov.FLAGS and v is not None}, **flags}
            server = str(tape.header.get("server", "recorded server"))
            name, text = (Path(config), None) if config is not None else (Path(str(tape.header["config"].get("name", "config.toml"))), tape.header["config"]["text"])
        else:
            if not config or not server:
                raise CollectorError("give --server HOST[:PORT] and --config FILE (or --replay FILE: see docs/collectors.md)")
            name, text = Path(config), None
        cfg, problems = read_config(name, text, quick)
        if cfg is None:
            raise CollectorError("\n".join(str(p) for p in problems))
        if replay is None:
            tape = Tape(Path(record) if record else None, {"server": server, "config": {"name": Path(config).name, "text": cfg.text},
                                                             "options": {"quick": quick, **flags}})
        facts = tape.fact("machine", prov.machine)
        lab = prov.resolve(flags, cfg.provenance, f"{cfg.path}: set", facts)
    except (TapeError, prov.ProvenanceError) as exc:
        raise CollectorError(str(exc)) from None
    if problems := preflight(cfg, slug, lab):
        raise CollectorError("\n".join(str(p) for p in problems))
    final = Path(out_dir) / slug
    if final.exists() or final.is_symlink():
        raise CollectorError(f"{final} already exists; collect into a new slug")
    try:
        host, port = parse_server(server) if replay is None else ("recorded", 0)
    except TrexError as exc:
        raise CollectorError(str(exc)) from None
    client = RpcClient(host, port, timeout_s=timeout, tape=tape)
    gen = TrexGenerator(client, cfg.tx_port, cfg.rx_port, force=force, sleep=tape.sleep, clock=tape.clock)
    runner = HookRunner(cfg.hooks, (), clock=tape.clock, tape=tape)
    try:
        start = tape.now()
        client.connect()
        version, system = client.call("get_version"), client.call("get_system_info")
        simulator = version.get("simulator") if isinstance(version, dict) and isinstance(version.get("simulator"), str) else None
        if simulator and lab.status != "draft":
            raise CollectorError(f"T-Rex server {server} is a simulator ({one_line(simulator, 120)}): its set is synthetic and can never be "
                                 f"{lab.status}; collect it as a draft")
        gen.acquire()
        link = _link(cfg, gen)
        runner.run("before-test", variant=cfg.raw["test"]["id"])
        if cfg.mode == "search":
            outcome: Any = _searches(cfg, gen, link, runner, tape, progress)
        elif cfg.mode == "loadtest":
            outcome = trex_loadtest.run(cfg, gen, link, tape.clock, tape.sleep, progress)
        else:
            outcome = _run_trials(cfg, HookedGenerator(gen, runner, cfg.raw["test"]["id"]), link, progress)
        runner.run("after-test", variant=cfg.raw["test"]["id"])
        end = tape.now()
    except (TrexError, TapeError, HookError, SearchError) as exc:
        raise CollectorError(str(exc)) from None
    finally:
        gen.release()
        client.close()
        try:
            tape.save()
        except TapeError as exc:
            raise CollectorError(str(exc)) from None
    if isinstance(tape, Replay):
        try:
            tape.finish()
        except TapeError as exc:
            raise CollectorError(str(exc)) from None
    doc, files = _document(cfg, slug, outcome, gen, link, version, system, start, end, server, runner)
    transcript = [{"request": e.request, "reply": e.reply} for e in client.transcript]
    files[TRANSCRIPT] = ("[\n" + ",\n".join(_json(x) for x in transcript) + "\n]\n").encode()
    doc["files"].setdefault("attachments", []).append({"path": TRANSCRIPT, "title": "Every JSON-RPC request and reply exchanged with the T-Rex server"})
    if "testbed" not in lab.stated:
        lab = replace(lab, testbed=trex_set.server_testbed(cfg, system, server))
    prov.stamp(doc, lab, files)
    if cfg.quick:
        prov.mark_quick(doc, doc["title"] if "title" in (cfg.raw.get("quick") or {}) else f"{doc['title']} (quick run)", quick_what(cfg))
    if simulator:
        synthetic(doc, simulator)
    _write(Path(out_dir), slug, doc, files)
    return final


run.options = (  # type: ignore[attr-defined]
    CollectorOption("config", "The collector configuration (TOML, see docs/collectors.md); with --replay, the recorded one by default.", "FILE", kind=Path),
    CollectorOption("server", "The T-Rex server's RPC address (port 4501 unless given).", "HOST[:PORT]"),
    CollectorOption("force", "Take the ports even when another user owns them.", flag=True),
    CollectorOption("timeout", "Seconds to wait for each reply.", "SECONDS", kind=float, default=5.0),
    CollectorOption("record", "Record the session (every request and reply, clock reading and fact) into FILE, to replay or share.", "FILE", kind=Path),
    CollectorOption("replay", "Run on a recorded session instead of a server: the same set again, no hardware needed.", "FILE", kind=Path),
    CollectorOption("quick", "Apply the configuration's [quick] table: a short run, titled and tagged as one.", flag=True),
)


def quick_what(cfg: Config) -> str:
    """What a quick run measured, for its summary."""
    def n(k: int, what: str) -> str:
        return f"{k} {what}{'' if k == 1 else 'es' if what.endswith('h') else 's'}"
    if cfg.search:
        s, lat = cfg.search, cfg.latency
        return (f"{n(len(s.frame_sizes), 'frame size')}, {n(s.repeats, 'search')} per size to {s.resolution * 100:g} %"
                + (f", {n(len(lat.loads_pct), 'latency load')}" if lat else ""))
    if cfg.loadtest:
        return f"a {cfg.loadtest.rampup_s} s ramp and a {cfg.loadtest.hold_s} s hold"
    return n(len(cfg.trials), "trial")


def _json(x: Any) -> str:
    import json

    return json.dumps(x, separators=(",", ":"))


def synthetic(doc: dict, simulator: str) -> None:
    """A set made by a simulator: source.kind = "synthetic" (never published), tagged, and its notes quote the declared device model."""
    doc["source"]["kind"] = "synthetic"
    said = one_line(simulator, 1000).rstrip(".")
    doc["source"]["notes"] = one_line(f"Synthetic: made by a T-Rex API simulator, not measured on a device; it can never be published. "
                                      f"The simulator declares: {said}. " + doc["source"]["notes"], 4000)
    doc["tags"] = [*doc.get("tags", []), *(["synthetic"] if "synthetic" not in doc.get("tags", []) else [])]


def _link(cfg: Config, gen: TrexGenerator) -> Link | None:
    stated = cfg.raw["test"].get("port_speed")
    try:
        if isinstance(stated, str):
            return parse_speed(stated)
        if gen.tx_port in gen.speeds_bps:
            return parse_speed(trex_set.speed_label(gen.speeds_bps[gen.tx_port]))
    except ValueError as exc:
        raise CollectorError(f"{cfg.path}: test.port_speed: {exc}") from None
    return None


def preflight(cfg: Config, slug: str, lab: prov.Provenance | None = None) -> list[Problem]:
    """Before anything runs: would result.toml, as this configuration describes it, pass the schema?
    Problems are named at the configuration's own fields and lines ([set], [dut], [test])."""
    import datetime as dt

    from wirespeed.resultset.schemacheck import schema_problem, validator
    from wirespeed.resultset.tomllines import with_lines

    now = dt.datetime.now(dt.timezone.utc)
    size = cfg.trials[0].frame_size if cfg.trials else cfg.search.frame_sizes[0] if cfg.search else cfg.loadtest.frame_size
    duration = cfg.trials[0].duration_s if cfg.trials else 1.0
    probe = [{"frame_size": size, "trial": 1, "rate_fps": 1.0, "duration_s": duration, "tx_frames": 0, "rx_frames": 0, "lost_frames": 0,
              "rx_fps": 0.0, "load_pct": 1.0}]
    probe_cfg = cfg if cfg.trials else dataclasses.replace(cfg, trials=[])
    doc = trex_set.fixed_document(probe_cfg, slug, probe, parse_speed("10G"), {}, {}, now, now, "preflight")
    if lab is not None:
        prov.stamp(doc, lab)
    out = []
    for err in validator().iter_errors(doc):
        p = schema_problem(err, cfg.path)
        field = p.field
        for prefix, to in (("tests[0].", "test."), ("dut.", "dut."), ("dut", "dut")):
            if field.startswith(prefix):
                field = to + field[len(prefix):]
                break
        else:
            field = f"set.{field}" if field.split(".")[0].split("[")[0] in cfg.raw["set"] else field
        out.append(replace(p, field=field, message=f"result.toml would not validate: {p.message}"))
    return with_lines(out, cfg.path, cfg.text)


def _searches(cfg: Config, gen: TrexGenerator, link: Link | None, runner: HookRunner, tape: Tape, progress) -> list[PointResult]:
    """The searches of every frame size, then the latency trials at the loads of their mean answer."""
    plan, lat = cfg.search, cfg.latency
    test_id = cfg.raw["test"]["id"]
    searches_total, done, points = len(plan.frame_sizes) * plan.repeats, [0], []
    hooked = HookedGenerator(gen, runner, test_id)
    lat_gen = HookedGenerator(LatencyStreams(gen, lat.rate_fps, lat.first_pg_id), runner, test_id) if lat else None
    basis = plan.loss_ratios[0] if lat is None or lat.of == "ndr" else plan.loss_ratios[-1]
    for size in plan.frame_sizes:
        line = port_fps(size, link) if link else None
        hi, lo = plan.max_rate.fps(line), plan.min_rate.fps(line)
        if hi is None or lo is None:
            raise CollectorError(f"{cfg.path}: search: rates in % of line rate need the port speed: the server did not report it; set test.port_speed")
        if line is not None and hi > line * 1.000001:
            raise CollectorError(f"{cfg.path}: search: {hi:,.0f} frames/s of {size} bytes is above the {link.label} line rate ({line:,.0f})")
        sc = SearchConfig(frame_bytes=size, max_rate_fps=hi, min_rate_fps=lo, trial_duration_s=plan.trial_duration_s, resolution=plan.resolution,
                          resolution_fps=plan.resolution_fps, max_trials=plan.max_trials, time_budget_s=plan.time_budget_s,
                          loss_ratios=plan.loss_ratios, shortfall=plan.shortfall)

        def on_trial(s: Session, t: Trial, size=size) -> None:
            if t.number == 1:
                done[0] += 1
            if progress:
                progress(done[0], searches_total, f"trex {size} B search {done[0]}/{searches_total}: trial {t.number} at {t.load_fps:,} fps, "
                         f"loss {t.result.loss_ratio:.2%}")

        points.append(search_point(hooked, sc, plan.repeats, plan.algorithm, tuple(p / 100 for p in lat.loads_pct) if lat else (),
                                   lat.duration_s if lat else None, on_trial, lat_gen, latency_of=basis,
                                   latency_repeats=lat.repeats if lat else None, clock=tape.clock))
    return points


def _run_trials(cfg: Config, gen: HookedGenerator, link: Link | None, progress) -> list[dict]:
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


def _document(cfg: Config, slug: str, outcome: Any, gen: TrexGenerator, link: Link | None, version: Any, system: Any, start, end,
              server: str, runner: HookRunner) -> tuple[dict, dict[str, bytes]]:
    """result.toml and the files of the collection, by mode; the hooks' records and attachments added."""
    if cfg.mode in ("fixed-rate", "ramp"):
        doc = trex_set.fixed_document(cfg, slug, outcome, link, version, system, start, end, server)
        files = trex_set.fixed_files(cfg, gen.readings, outcome)
    else:
        if cfg.mode == "search":
            basis = cfg.search.loss_ratios[0] if cfg.latency is None or cfg.latency.of == "ndr" else cfg.search.loss_ratios[-1]
            test, section, files, summary = trex_search_set.build(cfg, outcome, link, gen.readings, basis)
            how = "every number comes from the server's port counters and packet group statistics"
        else:
            test, section, files, summary = trex_loadtest.build(cfg, outcome, link)
            how = "every number comes from the server's port counters, read every second"
        doc = trex_set.base(cfg, slug, summary, version, system, start, end, server, how)
        doc["tests"], doc["files"] = [test], section
    if runner.records:
        files["raw/hooks.json"] = runner.json().encode()
        doc["files"].setdefault("attachments", []).append({"path": "raw/hooks.json", "title": "Every hook call: when, name, start, duration, exit status, output"})
    attached, entries = runner.files()
    files.update(attached)
    doc["files"].setdefault("attachments", []).extend(entries)
    return doc, files


def _write(out_dir: Path, slug: str, doc: dict, files: dict[str, bytes]) -> None:
    """Write the set into a scratch folder through the one writer, validate it, then rename it into place."""
    from wirespeed.checks import run_checks
    from wirespeed.catalog.load import load
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

"""Collector `netns`: NDR/PDR searches and latency trials through Linux devices in network namespaces.

    wirespeed collect netns --config examples/collect/netns-ab.toml --into SLUG [--quick] [--publisher …]

For each device variant of the config (netns_trafgen: bridge, IPv4 forwarding, IPv4 forwarding
through nftables) and each frame size: `repeats` independent searches (MLRsearch or RFC 2544
binary) for the NDR and PDR, then `latency_repeats` (default `repeats`) captured latency trials at each fraction of the mean
NDR. Hooks run around the test and each trial. The result set is built in a temporary folder beside
the target by the one writer, validated, and renamed into place; on any failure or interrupt
(Ctrl-C, SIGTERM, a failing hook) the namespaces, their processes and the temporary folder go away
and nothing is written. The set's provenance (publisher, licence, location, status…) comes from the
flags, the config's [set] table and the machine (wirespeed.collectors.provenance); a --quick run is
titled and tagged as one.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Callable

from wirespeed.collectors import netns_trafgen as tg
from wirespeed.collectors.hooks import HookedGenerator, HookError, HookRunner
from wirespeed.collectors import provenance as prov
from wirespeed.collectors.netns_config import CollectConfig, ConfigError, load, quick_what
from wirespeed.collectors.netns_latency import CapturingTrafgen
from wirespeed.collectors.search.repeat import PointResult, search_point
from wirespeed.collectors.search.session import SearchConfig, SearchError, Session, Trial
from wirespeed.collectors.search_set import build
from wirespeed.extensions import CollectorOption
from wirespeed.system import locking

LOCK_FILE = locking.NETNS_LOCK
Progress = Callable[..., None]


class CollectorError(Exception):
    """The collection cannot run or failed; one line saying why."""


def _bounds_text(s: Session) -> str:
    return "  ".join(f"{'NDR' if r == 0 else f'PDR {r * 100:g}%'} [{b[0] or '–'}, {b[1] or '–'}]" for r, b in s.bounds.items())


def run(out_dir: Path, slug: str, *, config: Path, quick: bool = False, progress: Progress | None = None,
        provenance: dict[str, str | None] | None = None) -> Path:
    """NDR/PDR searches and latency through Linux devices in network namespaces (root; examples/collect/netns-ab.toml).

    Runs the collection described by `config` and writes the result set out_dir/slug; returns its path."""
    if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", slug) or len(slug) > 80:
        raise CollectorError(f"slug {slug!r} is not lower-case words joined by hyphens")
    try:
        cfg = load(config, quick)
        lab = prov.resolve(provenance, dict(cfg.provenance), f"{config}: set")
    except (ConfigError, prov.ProvenanceError) as exc:
        raise CollectorError(str(exc)) from None
    final = Path(out_dir) / slug
    if final.exists():
        raise CollectorError(f"{final} already exists")
    if os.geteuid() != 0:
        raise CollectorError("network namespaces need root")
    if missing := tg.missing_tools():
        raise CollectorError(f"not installed: {', '.join(missing)}")
    try:
        with locking.exclusive(LOCK_FILE):
            scratch = Path(tempfile.mkdtemp(prefix="wirespeed-netns-"))
            try:
                doc, files = _collect(cfg, slug, scratch, Path(config), progress)
                prov.stamp(doc, lab, files)
                if cfg.quick:
                    prov.mark_quick(doc, cfg.title, quick_what(cfg))
                return _write(Path(out_dir), slug, doc, files)
            finally:
                tg.cleanup()
                shutil.rmtree(scratch, ignore_errors=True)
    except (tg.GeneratorError, HookError, SearchError, locking.Busy) as exc:
        raise CollectorError(str(exc)) from None


run.options = (CollectorOption("config", "The collector config (TOML): devices, frame sizes, search, hooks, [set] provenance.", "FILE", kind=Path, required=True),
               CollectorOption("quick", "Apply the config's [quick] table: a short run, titled and tagged as one.", flag=True))  # type: ignore[attr-defined]


def _collect(cfg: CollectConfig, slug: str, scratch: Path, config_path: Path, progress: Progress | None) -> tuple[dict, dict[str, bytes]]:
    started, uptime = dt.datetime.now(dt.timezone.utc), [_uptime()]
    runner = HookRunner(cfg.hooks, tg.NAMESPACES)
    points: dict[str, list[PointResult]] = {}
    log: list[str] = []
    searches_total = len(cfg.variants) * len(cfg.frame_sizes) * cfg.repeats
    done = [0]
    for variant in cfg.variants:
        tg.cleanup()
        tg.setup(variant, log, mtu=cfg.mtu, nft_rules=cfg.nft_rules)
        gen = tg.NetnsTrafgen(variant, scratch, log=log)
        try:
            hooked = HookedGenerator(gen, runner, variant)
            runner.run("before-test", variant=variant)
            hooked.trial(cfg.frame_sizes[0], cfg.min_rate_fps, min(1.0, cfg.trial_duration_s))  # warm-up, not recorded
            for size in cfg.frame_sizes:
                sc = SearchConfig(frame_bytes=size, max_rate_fps=cfg.max_rate_fps, min_rate_fps=cfg.min_rate_fps,
                                  trial_duration_s=cfg.trial_duration_s, resolution=cfg.resolution, resolution_fps=cfg.resolution_fps,
                                  max_trials=cfg.max_trials, time_budget_s=cfg.time_budget_s, loss_ratios=cfg.loss_ratios, shortfall=cfg.shortfall)

                def on_trial(s: Session, t: Trial, variant=variant, size=size) -> None:
                    if t.number == 1 and s.trials[0] is t:
                        done[0] += 1
                    if progress:
                        progress(done[0], searches_total, f"{variant} {size} B search {done[0]}/{searches_total}: trial {t.number} "
                                 f"at {t.load_fps:,} fps, loss {t.result.loss_ratio:.2%}  {_bounds_text(s)}")

                lat_gen = HookedGenerator(CapturingTrafgen(gen, scratch), runner, variant) if cfg.latency else None
                point = search_point(hooked, sc, cfg.repeats, cfg.algorithm, cfg.latency_fractions if cfg.latency else (),
                                     cfg.latency_duration_s, on_trial, lat_gen, latency_repeats=cfg.latency_repeats or cfg.repeats)
                points.setdefault(variant, []).append(point)
            runner.run("after-test", variant=variant)
        finally:
            gen.close()
            tg.cleanup()
    uptime.append(_uptime())
    doc, files = build(slug, cfg, points, started, dt.datetime.now(dt.timezone.utc), log, runner, uptime, config_path)
    attached, entries = runner.files()  # hooks with `attach`: the device's counters and configuration as files of the set
    files.update(attached)
    doc["files"]["attachments"] += entries
    return doc, files


def _uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()


def _write(out_dir: Path, slug: str, doc: dict[str, Any], files: dict[str, bytes]) -> Path:
    """Write through the one writer into a temporary folder, validate it, then rename it into place."""
    from wirespeed.checks import run_checks
    from wirespeed.catalog.load import load_many
    from wirespeed.resultset.writer import write_set

    out_dir.mkdir(parents=True, exist_ok=True)
    work = out_dir / f".{slug}.collect-{os.getpid()}"
    try:
        write_set(work / slug, doc, files)
        errors = []
        for _folder, rs, problems in load_many([work / slug]):
            errors += [p for p in problems + (run_checks(rs) if rs is not None else []) if p.severity == "error"]
        if errors:
            raise CollectorError(f"the collected set does not validate: {errors[0]}")
        try:
            os.rename(work / slug, out_dir / slug)
        except OSError as exc:
            raise CollectorError(f"cannot move the result set into place: {exc}") from None
        return out_dir / slug
    finally:
        shutil.rmtree(work, ignore_errors=True)


def leftovers() -> list[str]:
    """Namespaces or processes a collection left behind (for tests): empty after every run."""
    present = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True, timeout=10).stdout.split()
    left = [ns for ns in tg.NAMESPACES if ns in present]
    with contextlib.suppress(FileNotFoundError):
        out = subprocess.run(["pgrep", "-a", "-f", "trafgen -o wst-g0|tcpdump -i wst-"], capture_output=True, text=True, timeout=10).stdout
        left += [line for line in out.splitlines() if "pgrep" not in line]
    return left

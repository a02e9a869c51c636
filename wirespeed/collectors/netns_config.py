"""The netns search collector's config file (TOML): what to measure, how to search, which hooks to run.

    [collect]                      # every field optional; defaults below
    variants = ["bridge", "ipv4-forward", "ipv4-nftables"]
    frame_sizes = [64, 512, 1518]  # Ethernet frames with FCS, 64-1518 (9000 with mtu = 9000)
    algorithm = "mlrsearch"        # or "rfc2544-binary"
    ...
    [quick]                        # overrides applied by --quick
    frame_sizes = [64]

    [[hooks]]                      # see wirespeed.collectors.hooks

    [set]                          # provenance (wirespeed.collectors.provenance): publisher, licence,
    publisher = "Acme Test Lab"    # location, operator, testbed, status, embargo_until; the flags
                                   # --publisher, --licence, --location, --status win over it
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, fields, replace
from pathlib import Path

from wirespeed.collectors.hooks import Hook, HookError
from wirespeed.collectors.netns_trafgen import VARIANTS
from wirespeed.collectors.provenance import CONFIG_KEYS as PROVENANCE_KEYS
from wirespeed.collectors.search.repeat import ALGORITHMS


class ConfigError(Exception):
    """The config file is wrong: `file: field: rule`."""


@dataclass(frozen=True)
class CollectConfig:
    title: str = "Linux software forwarding in network namespaces: NDR/PDR search"
    variants: tuple[str, ...] = VARIANTS
    frame_sizes: tuple[int, ...] = (64, 512, 1518)
    algorithm: str = "mlrsearch"
    repeats: int = 2
    trial_duration_s: float = 1.0
    min_rate_fps: float = 1000.0
    max_rate_fps: float = 200000.0
    resolution: float = 0.02
    resolution_fps: float = 100.0
    max_trials: int = 16
    time_budget_s: float = 60.0  # per search
    loss_ratios: tuple[float, ...] = (0.0, 0.005)
    shortfall: float = 0.001  # the clock tolerance (wirespeed.checks.tolerance): slower than that, a trial tested the rate it sent
    latency_fractions: tuple[float, ...] = (0.1, 0.5, 0.9)
    latency_duration_s: float = 1.0
    latency_repeats: int = 0  # captured latency trials at each fraction; 0: as many as `repeats`
    latency: bool = True
    nft_rules: int = 1000
    mtu: int = 1500
    nominal_port_speed: str = "10G"
    hooks: tuple[Hook, ...] = ()
    provenance: tuple[tuple[str, object], ...] = ()  # the [set] table, checked by wirespeed.collectors.provenance
    quick: bool = False  # loaded with --quick: the [quick] table applied


def _coerce(name: str, value, default, where: str):
    if isinstance(default, tuple):
        if not isinstance(value, list) or not value:
            raise ConfigError(f"{where}: {name}: expected a non-empty list")
        kind = type(default[0]) if default else str
        if kind is float:
            value = [float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else v for v in value]
        if not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
            raise ConfigError(f"{where}: {name}: expected a list of {kind.__name__}")
        return tuple(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: {name}: expected true or false")
        return value
    if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
        value = float(value)
    if not isinstance(value, type(default)) or isinstance(value, bool):
        raise ConfigError(f"{where}: {name}: expected a {type(default).__name__}")
    return value


def _apply(cfg: CollectConfig, table, where: str) -> CollectConfig:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a table")
    known = {f.name: f for f in fields(CollectConfig) if f.name not in ("hooks", "provenance", "quick")}
    changes = {}
    for k, v in table.items():
        if k in PROVENANCE_KEYS:
            raise ConfigError(f"{where}.{k}: provenance goes in the [set] table ({', '.join(PROVENANCE_KEYS)})")
        if k not in known:
            raise ConfigError(f"{where}.{k}: unknown field (known: {', '.join(known)})")
        changes[k] = _coerce(k, v, getattr(CollectConfig(), k), f"{where}")
    return replace(cfg, **changes)


def quick_title(cfg: CollectConfig) -> str:
    """A quick run's title: what it measured (its own devices and frame sizes), and that it was quick."""
    from wirespeed.collectors.search_set import device_title

    devices = " vs ".join(device_title(v, cfg.nft_rules) for v in cfg.variants)
    return f"{devices} in network namespaces, {', '.join(map(str, cfg.frame_sizes))} bytes: NDR/PDR search (quick run)"


def quick_what(cfg: CollectConfig) -> str:
    """What a quick run left out, for its summary."""
    return (f"{len(cfg.variants)} device{'s' if len(cfg.variants) > 1 else ''}, {len(cfg.frame_sizes)} frame size{'s' if len(cfg.frame_sizes) > 1 else ''}, "
            f"{cfg.repeats} search{'es' if cfg.repeats > 1 else ''} per point to {cfg.resolution * 100:g} %")


def check(cfg: CollectConfig, where: str) -> CollectConfig:
    rules = [(all(v in VARIANTS for v in cfg.variants), "variants", f"each one of {', '.join(VARIANTS)}"),
             (cfg.mtu in (1500, 9000), "mtu", "1500 or 9000"),
             (all(64 <= s <= (9018 if cfg.mtu == 9000 else 1518) for s in cfg.frame_sizes), "frame_sizes",
              "64-1518 bytes (up to 9018 with mtu = 9000)"),
             (cfg.algorithm in ALGORITHMS, "algorithm", f"one of {', '.join(ALGORITHMS)}"),
             (1 <= cfg.repeats <= 20, "repeats", "1-20"),
             (0 <= cfg.latency_repeats <= 50, "latency_repeats", "0-50 (0: as many as repeats)"),
             (all(0 < f <= 1 for f in cfg.latency_fractions), "latency_fractions", "fractions in (0, 1]"),
             (0 < cfg.latency_duration_s <= 60 and 0 < cfg.trial_duration_s <= 120, "trial_duration_s", "0-120 s (latency_duration_s 0-60 s)"),
             (1 <= cfg.nft_rules <= 100_000, "nft_rules", "1-100000")]
    for ok, name, rule in rules:
        if not ok:
            raise ConfigError(f"{where}: {name}: expected {rule}")
    return cfg


def load(path: Path, quick: bool = False) -> CollectConfig:
    """Read and check the config; --quick applies its [quick] table."""
    try:
        doc = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: cannot be read as TOML: {exc}") from None
    unknown = set(doc) - {"collect", "quick", "hooks", "set"}
    if unknown:
        raise ConfigError(f"{path}: {sorted(unknown)[0]}: unknown table (expected collect, quick, hooks, set)")
    prov = doc.get("set", {})
    if not isinstance(prov, dict) or (bad := sorted(set(prov) - set(PROVENANCE_KEYS))):
        raise ConfigError(f"{path}: set{'.' + bad[0] if isinstance(prov, dict) else ''}: "
                          f"{'unknown field' if isinstance(prov, dict) else 'expected a table'} (known: {', '.join(PROVENANCE_KEYS)})")
    cfg = _apply(CollectConfig(), doc.get("collect", {}), f"{path}: collect")
    if quick:
        table = doc.get("quick", {})
        cfg = _apply(cfg, table, f"{path}: quick")
        cfg = replace(cfg, quick=True, title=cfg.title if "title" in table else quick_title(cfg))
    hooks = doc.get("hooks", [])
    if not isinstance(hooks, list):
        raise ConfigError(f"{path}: hooks: expected an array of tables ([[hooks]])")
    try:
        cfg = replace(cfg, hooks=tuple(Hook.from_config(i, h, str(path)) for i, h in enumerate(hooks)))
    except HookError as exc:
        raise ConfigError(str(exc)) from None
    return check(replace(cfg, provenance=tuple(prov.items())), str(path))

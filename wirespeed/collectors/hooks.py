"""Hooks around a collection: commands or Python entry points run before/after the test and each trial.

Declared in the collector config:

    [[hooks]]
    when = "before-trial"              # before-test, after-test, before-trial or after-trial
    name = "dut-counters"              # names the record; default: the command or entry point
    command = ["ip", "-s", "link"]     # argv, run inside `namespace` when given (no shell)
    namespace = "wst-dut"
    timeout_s = 10

    [[hooks]]
    when = "after-test"
    entry_point = "link-counters"      # a callable in the entry point group wirespeed.collector_hooks

    [[hooks]]
    when = "after-test"
    name = "dut-ruleset"
    command = ["nft", "list", "ruleset"]
    namespace = "wst-dut"
    attach = "The device's nftables rule set after the test"   # keep the whole output as an attachment

An entry point is called with one dict (when, variant, frame_bytes, trial, namespaces) and returns the
text to record. Every call is recorded — when, name, context, start (seconds from the collection's
start), duration, exit status and the output (first OUTPUT_LIMIT characters) — into the result set's
raw/hooks.json. A hook with `attach` (before-test and after-test only) also keeps its whole output (up
to ATTACH_LIMIT bytes) as an attachment of the set, raw/hooks/WHEN-NAME[-VARIANT].txt, titled with the
`attach` text, which the set's page lists with its other files. A hook that fails (non-zero exit,
timeout, exception) stops the collection: nothing is written, the namespaces are removed.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any, Callable

from wirespeed.collectors.trial import TrafficGenerator, TrialResult

WHEN = ("before-test", "after-test", "before-trial", "after-trial")
GROUP = "wirespeed.collector_hooks"
OUTPUT_LIMIT = 4000
ATTACH_LIMIT = 1024 * 1024  # bytes of one attached output (a text attachment may hold 8 MiB: resultset/limits.py)
MAX_RECORDS = 5000


class HookError(Exception):
    """A hook is declared wrongly or failed; one line naming it."""


@dataclass(frozen=True)
class Hook:
    when: str
    name: str
    command: tuple[str, ...] = ()
    namespace: str | None = None
    entry_point: str | None = None
    timeout_s: float = 10.0
    attach: str | None = None  # the attachment's title: keep the output as a file of the set

    @classmethod
    def from_config(cls, i: int, d: Any, where: str) -> "Hook":
        """One [[hooks]] table; HookError names its place (hooks[i].field) when it is wrong."""
        if not isinstance(d, dict):
            raise HookError(f"{where}: hooks[{i}]: expected a table")
        unknown = set(d) - {"when", "name", "command", "namespace", "entry_point", "timeout_s", "attach"}
        if unknown:
            raise HookError(f"{where}: hooks[{i}].{sorted(unknown)[0]}: unknown field")
        if d.get("when") not in WHEN:
            raise HookError(f"{where}: hooks[{i}].when: expected one of {', '.join(WHEN)}")
        cmd, ep = d.get("command"), d.get("entry_point")
        if (cmd is None) == (ep is None):
            raise HookError(f"{where}: hooks[{i}]: give exactly one of command or entry_point")
        if cmd is not None and (not isinstance(cmd, list) or not cmd or not all(isinstance(a, str) for a in cmd)):
            raise HookError(f"{where}: hooks[{i}].command: expected a non-empty list of strings (argv, no shell)")
        if ep is not None and ep not in {e.name for e in entry_points(group=GROUP)}:
            raise HookError(f"{where}: hooks[{i}].entry_point: {ep!r} is not in the entry point group {GROUP}")
        timeout = d.get("timeout_s", 10.0)
        if not isinstance(timeout, (int, float)) or not 0 < timeout <= 300:
            raise HookError(f"{where}: hooks[{i}].timeout_s: expected a number of seconds in (0, 300]")
        attach = d.get("attach")
        if attach is not None and (not isinstance(attach, str) or not attach.strip() or len(attach) > 300):
            raise HookError(f"{where}: hooks[{i}].attach: expected the attachment's title (1 to 300 characters)")
        if attach is not None and d["when"] not in ("before-test", "after-test"):
            raise HookError(f"{where}: hooks[{i}].attach: only a before-test or after-test hook's output is attached (one file per test)")
        name = str(d.get("name") or ep or cmd[0])
        if attach is not None and not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,60}", name):
            raise HookError(f"{where}: hooks[{i}].name: an attached hook's name names its file: letters, digits, '.', '_' and '-'")
        return cls(d["when"], name, tuple(cmd or ()), d.get("namespace"), ep, float(timeout), " ".join(attach.split()) if attach else None)


@dataclass
class HookRunner:
    """Runs the declared hooks and keeps their records."""

    hooks: tuple[Hook, ...]
    namespaces: tuple[str, ...] = ()
    records: list[dict[str, Any]] = field(default_factory=list)
    clock: Callable[[], float] = time.monotonic
    tape: Any = None  # a trex_tape.Tape: each call's result recorded, or replayed without running the hook
    attachments: dict[str, tuple[str, str]] = field(default_factory=dict)  # path in the set -> (title, output)
    t0: float | None = None

    def __post_init__(self) -> None:
        if self.t0 is None:
            self.t0 = self.clock()

    def run(self, when: str, **context: Any) -> None:
        for hook in (h for h in self.hooks if h.when == when):
            started = self.clock()
            ctx = {"when": when, **context, "namespaces": list(self.namespaces)}
            if self.tape is not None:
                status, output = self.tape.fact(f"hook {hook.name} {when}", lambda hook=hook, ctx=ctx: self._call(hook, ctx))
            else:
                status, output = self._call(hook, ctx)
            if len(self.records) < MAX_RECORDS:
                self.records.append({"when": when, "name": hook.name, **{k: v for k, v in context.items() if v is not None},
                                     "started_s": round(started - self.t0, 3), "duration_s": round(self.clock() - started, 3),
                                     "exit": status, "output": output[:OUTPUT_LIMIT]})
            if hook.attach and status == 0:
                self._attach(hook, when, context.get("variant"), output)
            if status != 0:
                raise HookError(f"hook {hook.name!r} ({when}) failed: exit {status}: {(output.strip().splitlines() or [''])[-1][:200]}")

    def _attach(self, hook: Hook, when: str, variant: Any, output: str) -> None:
        suffix = f"-{variant}" if isinstance(variant, str) and re.fullmatch(r"[a-z0-9][a-z0-9-]{0,79}", variant) else ""
        path = f"raw/hooks/{when}-{hook.name}{suffix}.txt"
        data = output.encode("utf-8", "replace")
        if len(data) > ATTACH_LIMIT:
            output = data[:ATTACH_LIMIT].decode("utf-8", "ignore") + f"\n[cut: the output was {len(data):,} bytes, the first {ATTACH_LIMIT:,} are kept]\n"
        output = output or "(the hook printed nothing)\n"
        where = f"{when}{f', {variant}' if suffix else ''}"
        self.attachments[path] = (f"{hook.attach} ({where}: hook {hook.name})", output)

    def files(self) -> tuple[dict[str, bytes], list[dict[str, str]]]:
        """The attached outputs: (files, attachment entries for result.toml's files.attachments)."""
        return ({path: text.encode("utf-8") for path, (_t, text) in self.attachments.items()},
                [{"path": path, "title": title} for path, (title, _o) in self.attachments.items()])

    def _call(self, hook: Hook, context: dict[str, Any]) -> tuple[int, str]:
        if hook.entry_point:
            fn: Callable[[dict[str, Any]], str] = next(e for e in entry_points(group=GROUP) if e.name == hook.entry_point).load()
            try:
                return 0, str(fn(context))
            except Exception as exc:  # noqa: BLE001 - a hook's failure is recorded and stops the run
                return 1, f"{type(exc).__name__}: {exc}"
        argv = ["ip", "netns", "exec", hook.namespace, *hook.command] if hook.namespace else list(hook.command)
        try:
            p = subprocess.run(argv, capture_output=True, text=True, timeout=hook.timeout_s)
        except subprocess.TimeoutExpired:
            return 124, f"timed out after {hook.timeout_s:g} s"
        except OSError as exc:
            return 127, str(exc)
        return p.returncode, p.stdout + p.stderr

    def json(self) -> str:
        return json.dumps(self.records, indent=1) + "\n"


class HookedGenerator:
    """A TrafficGenerator that runs the before-trial and after-trial hooks around each trial."""

    def __init__(self, generator: TrafficGenerator, runner: HookRunner, variant: str):
        self.generator, self.runner, self.variant, self.trials = generator, runner, variant, 0

    def trial(self, frame_bytes: int, rate_fps: float, duration_s: float) -> TrialResult:
        self.trials += 1
        ctx = {"variant": self.variant, "frame_bytes": frame_bytes, "trial": self.trials, "rate_fps": rate_fps}
        self.runner.run("before-trial", **ctx)
        result = self.generator.trial(frame_bytes, rate_fps, duration_s)
        self.runner.run("after-trial", **ctx)
        return result


def link_counters(context: dict[str, Any]) -> str:
    """Example hook: every interface's counters in each namespace of the collection (`ip -s -j link`) and the CPU times (/proc/stat)."""
    out: dict[str, Any] = {}
    for ns in context.get("namespaces") or []:
        p = subprocess.run(["ip", "-n", ns, "-s", "-j", "link", "show"], capture_output=True, text=True, timeout=10)
        if p.returncode:
            raise RuntimeError(f"ip -n {ns} -s -j link show: {p.stderr.strip()}")
        out[ns] = {i["ifname"]: i.get("stats64", {}) for i in json.loads(p.stdout or "[]")}
    with open("/proc/stat") as f:
        out["cpu"] = [line.split() for line in f if line.startswith("cpu")]
    return json.dumps(out, separators=(",", ":"))

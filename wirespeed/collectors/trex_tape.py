"""A T-Rex session on tape: a lab records its real session, anyone replays it, without a server or hardware.

Everything a T-Rex collection takes from outside itself is an event on the tape, in order: every
JSON-RPC request with the server's reply, every clock reading, the wall-clock time it started and
ended, the collecting machine's facts and every hook's result. Live (`Tape`), the events happen and,
with `--record FILE`, go to FILE when the collection ends, whether it succeeded or not. Replayed
(`Replay`, `--replay FILE`), the collector runs the same code against the recorded events: each
request must be the one recorded (method and parameters; request ids and the random session id
aside) and gets the recorded reply, clock readings and facts come from the tape, nothing sleeps and
no hook runs. With the configuration and the provenance flags the recording keeps, a replay writes
the same result set, byte for byte.

The file (JSON):

    {"recording": "wirespeed collect trex", "format": 1, "wirespeed": "…", "server": "HOST:PORT",
     "config": {"name": "lab.toml", "text": "…"}, "options": {"quick": false, "publisher": …},
     "events": [{"rpc": {request}, "reply": {reply}}, {"rpc": {request}, "failed": "no reply…"}, {"clock": 12.5}, {"now": "2026-11-20T10:00:00+00:00"},
                {"fact": "machine", "value": {…}}, …]}
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from pathlib import Path
from typing import Any, Callable

import wirespeed

KIND, FORMAT = "wirespeed collect trex", 1
MAX_BYTES = 256 * 1024 * 1024
IGNORED_PARAMS = ("session_id",)  # random per run: not part of what the collector asked


class TapeError(Exception):
    """A recording cannot be read, or the collector asked for something it does not hold; one line."""


def pause(seconds: float) -> None:
    """How a live collection waits (a module function: tests put a simulated clock in its place)."""
    time.sleep(seconds)


def monotonic() -> float:
    """The live clock (a module function, like pause)."""
    return time.monotonic()


def wall_clock() -> dt.datetime:
    """The live date and time, UTC."""
    return dt.datetime.now(dt.timezone.utc)


class Tape:
    """A live session: the events happen, and are kept for `save()` when recording."""

    replaying = False

    def __init__(self, record_to: Path | None = None, header: dict[str, Any] | None = None):
        self.record_to, self.header, self.events = record_to, dict(header or {}), []

    def rpc(self, request: dict, send: Callable[[dict], Any], failure: type[Exception] = TapeError) -> tuple[dict, Any]:
        """The request as sent and the server's reply; a failure to get one (`failure`: no reply in time…) is kept too."""
        try:
            reply = send(request)
        except failure as exc:
            self.events.append({"rpc": request, "failed": str(exc)})
            raise
        self.events.append({"rpc": request, "reply": reply})
        return request, reply

    def clock(self) -> float:
        v = monotonic()
        self.events.append({"clock": v})
        return v

    def sleep(self, seconds: float) -> None:
        pause(seconds)

    def now(self) -> dt.datetime:
        v = wall_clock()
        self.events.append({"now": v.isoformat()})
        return v

    def fact(self, name: str, read: Callable[[], Any]) -> Any:
        """Something the collection reads from its machine (its facts, a hook's result): read live, kept as JSON."""
        v = json.loads(json.dumps(read()))
        self.events.append({"fact": name, "value": v})
        return v

    def save(self) -> None:
        """Write the recording (atomically: a file that is there is whole)."""
        if self.record_to is None:
            return
        doc = {"recording": KIND, "format": FORMAT, "wirespeed": wirespeed.__version__, **self.header, "events": self.events}
        tmp = self.record_to.with_name(f".{self.record_to.name}.{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(doc, separators=(",", ":")).replace(',{"', ',\n{"') + "\n", encoding="utf-8")
            os.replace(tmp, self.record_to)
        except OSError as exc:
            raise TapeError(f"--record {self.record_to}: cannot write the recording: {exc.strerror or exc}") from None
        finally:
            tmp.unlink(missing_ok=True)


def _same(asked: dict, recorded: dict) -> str | None:
    """Why a request differs from the recorded one (None: the same), ids and random session ids aside."""
    if asked.get("method") != recorded.get("method"):
        return f"the collector asked for {asked.get('method')!r}, the recording has {recorded.get('method')!r}"
    a, r = asked.get("params") or {}, recorded.get("params") or {}
    for key in sorted(set(a) | set(r)):
        if key not in IGNORED_PARAMS and a.get(key) != r.get(key):
            return f"{asked.get('method')}: params.{key} is {json.dumps(a.get(key))[:80]}, the recording has {json.dumps(r.get(key))[:80]}"
    return None


class Replay(Tape):
    """A recorded session, served in order; `load()` reads and checks the file."""

    replaying = True

    def __init__(self, path: Path, doc: dict[str, Any]):
        super().__init__(None, {k: v for k, v in doc.items() if k != "events"})
        self.path, self.recorded, self.at = path, doc["events"], 0

    @classmethod
    def load(cls, path: Path) -> "Replay":
        shown = str(path)
        if path.is_symlink() or not path.is_file():
            raise TapeError(f"--replay {shown}: expected a recording file (not a link or folder)")
        if path.stat().st_size > MAX_BYTES:
            raise TapeError(f"--replay {shown}: larger than {MAX_BYTES // 2**20} MiB")
        try:
            doc = json.loads(path.read_text("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise TapeError(f"--replay {shown}: not a JSON recording: {exc}") from None
        if not isinstance(doc, dict) or doc.get("recording") != KIND:
            raise TapeError(f"--replay {shown}: not a recording of wirespeed collect trex (no \"recording\": \"{KIND}\")")
        if doc.get("format") != FORMAT:
            raise TapeError(f"--replay {shown}: recording format {doc.get('format')!r}; this wirespeed reads format {FORMAT}")
        config = doc.get("config")
        if not isinstance(doc.get("events"), list) or not isinstance(config, dict) or not isinstance(config.get("text"), str):
            raise TapeError(f"--replay {shown}: expected \"events\" and the recorded \"config\" text")
        return cls(path, doc)

    def _next(self, kind: str) -> dict:
        if self.at >= len(self.recorded):
            raise TapeError(f"replay {self.path}: the recording ends after {self.at} events, but the collector needs a {kind} "
                            "(a different configuration or wirespeed version from the recorded run)")
        event = self.recorded[self.at]
        if not isinstance(event, dict) or kind not in event:
            got = next(iter(event), "?") if isinstance(event, dict) else type(event).__name__
            raise TapeError(f"replay {self.path}: event {self.at + 1}: the collector needs a {kind}, the recording has a {got} "
                            "(a different configuration or wirespeed version from the recorded run)")
        self.at += 1
        return event

    def rpc(self, request: dict, send: Callable[[dict], Any], failure: type[Exception] = TapeError) -> tuple[dict, Any]:
        try:
            event = self._next("rpc")
        except TapeError as exc:
            raise failure(str(exc)) from None  # as a failed request: the collector still releases what it holds
        recorded = event["rpc"] if isinstance(event["rpc"], dict) else {}
        if why := _same(request, recorded):
            number, self.at = self.at, len(self.recorded)  # off the recording: every later request fails too, without masking this one
            raise failure(f"replay {self.path}: event {number}: {why}")
        if "failed" in event:
            raise failure(str(event["failed"]))
        return recorded, event.get("reply")

    def clock(self) -> float:
        v = self._next("clock")["clock"]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TapeError(f"replay {self.path}: event {self.at}: a clock reading that is not a number")
        return float(v)

    def sleep(self, seconds: float) -> None:
        return None

    def now(self) -> dt.datetime:
        try:
            v = dt.datetime.fromisoformat(self._next("now")["now"])
        except (TypeError, ValueError):
            raise TapeError(f"replay {self.path}: event {self.at}: not an ISO date and time") from None
        return v

    def fact(self, name: str, read: Callable[[], Any]) -> Any:
        event = self._next("fact")
        if event["fact"] != name:
            raise TapeError(f"replay {self.path}: event {self.at}: the collector reads {name!r}, the recording has {event['fact']!r}")
        return event.get("value")

    def finish(self) -> None:
        """The collection is over: every recorded event was used (else the replay did not follow the recording)."""
        if self.at != len(self.recorded):
            raise TapeError(f"replay {self.path}: the collection ended after {self.at} of the {len(self.recorded)} recorded events")

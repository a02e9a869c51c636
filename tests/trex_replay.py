"""An in-process ZeroMQ REP server on 127.0.0.1 that replays recorded T-Rex RPC replies.

A session (tests/fixtures/trex-rpc/sessions.json) is an ordered list of exchanges
[method, params the request must carry, reply name in responses.json]. Each request received is
checked against the next exchange: JSON-RPC 2.0 framing (id, "jsonrpc": "2.0", method, params
object) and every listed parameter; the recorded reply is sent back with the request's id. A
request that does not match gets a JSON-RPC error and is kept in `mismatches`, so a test can fail
on it. `silent=True` receives requests and never answers (for timeouts); `tamper` rewrites replies.
"""

from __future__ import annotations

import copy
import json
import threading
from pathlib import Path

import zmq

FIXTURES = Path(__file__).parent / "fixtures" / "trex-rpc"
RESPONSES = json.loads((FIXTURES / "responses.json").read_text("utf-8"))
SESSIONS = json.loads((FIXTURES / "sessions.json").read_text("utf-8"))


class ReplayServer:
    def __init__(self, session: str | list | None = None, *, silent: bool = False, tamper=None):
        exchanges = SESSIONS[session]["exchanges"] if isinstance(session, str) else (session or [])
        self.pending = list(exchanges)
        self.silent = silent
        self.tamper = tamper  # reply -> reply, applied before sending (to break framing on purpose)
        self.requests: list[dict] = []
        self.mismatches: list[str] = []
        self._ctx = zmq.Context()
        self._sock = self._ctx.socket(zmq.REP)
        self._sock.setsockopt(zmq.LINGER, 0)
        self.port = self._sock.bind_to_random_port("tcp://127.0.0.1")
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> "ReplayServer":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)
        self._sock.close(linger=0)
        self._ctx.term()

    def _check(self, req) -> tuple[dict | None, str | None]:
        if not isinstance(req, dict) or req.get("jsonrpc") != "2.0" or not isinstance(req.get("id"), str) or not isinstance(req.get("params"), dict):
            return None, f"not a JSON-RPC 2.0 request with a string id and a params object: {req!r}"
        if not self.pending:
            return None, f"unexpected request {req.get('method')!r}: the session is over"
        method, params, reply = self.pending[0]
        if req.get("method") != method:
            return None, f"expected {method}, got {req.get('method')!r}"
        for k, v in params.items():
            if req["params"].get(k) != v:
                return None, f"{method}: params.{k}: expected {v!r}, got {req['params'].get(k)!r}"
        self.pending.pop(0)
        out = copy.deepcopy(RESPONSES[reply]["reply"])
        out["id"] = req["id"]
        return out, None

    def _serve(self) -> None:
        poller = zmq.Poller()
        poller.register(self._sock, zmq.POLLIN)
        while not self._stop.is_set():
            if not poller.poll(50):
                continue
            raw = self._sock.recv()
            try:
                req = json.loads(raw)
            except ValueError:
                req = None
            self.requests.append(req)
            if self.silent:
                continue  # a REP socket that never answers: the client's receive times out
            reply, problem = self._check(req)
            if problem:
                self.mismatches.append(problem)
                reply = {"id": req.get("id") if isinstance(req, dict) else None, "jsonrpc": "2.0", "error": {"code": -32600, "message": f"replay: {problem}"}}
            if self.tamper is not None:
                reply = self.tamper(reply)
            self._sock.send(reply if isinstance(reply, bytes) else json.dumps(reply).encode())

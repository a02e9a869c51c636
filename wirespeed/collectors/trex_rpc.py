"""A JSON-RPC 2.0 client for T-Rex's stateless RPC server over ZeroMQ (REQ/REP, TCP port 4501).

Written from T-Rex's documentation (doc/trex_rpc_server_spec.asciidoc: transport, framing, methods)
and its server's error codes (src/rpc-server/trex_rpc_jsonrpc_v2_parser.cpp), not from its Python
client. One request, one reply (or, with a `tape`, a request recorded or replayed: trex_tape): every request is `{"id", "jsonrpc": "2.0", "method", "params"}`; the
reply carries the same id and either `result` or `error: {code, message, specific_err?}`.

The handshake is `api_sync_v2` (`{"name": "STL", "major", "minor"}` → `{"api_h"}`); the API handler it
returns goes into the params of every later call. Servers older than v2.31 do not know api_sync_v2.

Every failure is a `TrexError` whose message is one line: connection refused, no reply in time,
version mismatch, an RPC error object (method, code, server message), a port owned by someone else.
"""

from __future__ import annotations

import json
import secrets
import socket
import string
from dataclasses import dataclass, field
from typing import Any

DEFAULT_PORT = 4501
API_NAME, API_MAJOR, API_MINOR = "STL", 5, 1  # the STL API class the T-Rex v3 Python client syncs with
MAX_REPLY_BYTES = 64 * 1024 * 1024

# JSON-RPC 2.0 error codes T-Rex's server sends (trex_rpc_jsonrpc_v2_parser.cpp)
ERR_PARSE, ERR_INVALID_REQ, ERR_METHOD_NOT_FOUND, ERR_INVALID_PARAMS = -32700, -32600, -32601, -32602
ERR_INTERNAL, ERR_EXECUTE, ERR_TRY_AGAIN, ERR_WIP, ERR_NO_RESULTS = -32603, -32000, -32001, -32002, -32003
CODE_NAMES = {ERR_PARSE: "parse error", ERR_INVALID_REQ: "invalid request", ERR_METHOD_NOT_FOUND: "method not found",
              ERR_INVALID_PARAMS: "bad parameters", ERR_INTERNAL: "internal server error", ERR_EXECUTE: "failed to execute",
              ERR_TRY_AGAIN: "try again later", ERR_WIP: "work in progress", ERR_NO_RESULTS: "no results"}


class TrexError(Exception):
    """Talking to the T-Rex server failed; the message is one line saying why."""


class RpcError(TrexError):
    """The server answered with a JSON-RPC error object."""

    def __init__(self, method: str, code: int | None, message: str, specific: str):
        self.method, self.code, self.server_message, self.specific = method, code, message, specific
        text = specific or message or "no message"
        name = CODE_NAMES.get(code, "error") if isinstance(code, int) else "error"
        super().__init__(f"{method}: {name} ({code}): {one_line(text)}")


def one_line(text: Any, limit: int = 300) -> str:
    """Server text as one bounded line (T-Rex's version messages span two lines)."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def parse_server(server: str) -> tuple[str, int]:
    """HOST[:PORT] (IPv6 as [addr]:port) → (host, port); the default port is 4501."""
    s = server.strip()
    host, port = s, DEFAULT_PORT
    if s.startswith("["):
        host, _, rest = s[1:].partition("]")
        if rest:
            if not rest.startswith(":"):
                raise TrexError(f"--server {server!r}: expected HOST[:PORT]")
            port = _port(rest[1:], server)
    elif s.count(":") == 1:
        host, p = s.split(":")
        port = _port(p, server)
    if not host or any(c.isspace() for c in host) or "/" in host:
        raise TrexError(f"--server {server!r}: expected HOST[:PORT]")
    return host, port


def _port(text: str, server: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise TrexError(f"--server {server!r}: the port must be a number from 1 to 65535")
    return int(text)


def _new_id() -> str:
    """A request id like the T-Rex client's: 8 random lower-case letters and digits."""
    return "".join(secrets.choice(string.ascii_lowercase + string.digits) for _ in range(8))


@dataclass
class Exchange:
    """One request and its reply as sent and received (kept for the result set's transcript)."""

    request: dict
    reply: Any


@dataclass
class RpcClient:
    """A synchronous JSON-RPC 2.0 client on a ZeroMQ REQ socket; `connect()` probes and syncs."""

    host: str
    port: int = DEFAULT_PORT
    timeout_s: float = 5.0
    api_h: str | None = None
    transcript: list[Exchange] = field(default_factory=list)
    tape: Any = None  # a trex_tape.Tape: every exchange recorded, or (Replay) served from a recording instead of a server

    def __post_init__(self) -> None:
        self._ctx = self._sock = None
        self._awaiting = False

    @property
    def where(self) -> str:
        return f"{self.host}:{self.port}"

    def connect(self) -> str:
        """Probe the TCP port, open the REQ socket and sync the API; returns the api_h handler."""
        if self.tape is not None and self.tape.replaying:
            self._sock = "replay"  # no server: the tape answers
            return self._sync()
        try:
            socket.create_connection((self.host, self.port), timeout=self.timeout_s).close()
        except ConnectionRefusedError:
            raise TrexError(f"T-Rex server {self.where}: connection refused (is t-rex-64 -i running, and is this its RPC port?)") from None
        except (socket.timeout, TimeoutError):
            raise TrexError(f"T-Rex server {self.where}: no TCP answer within {self.timeout_s:g} s") from None
        except OSError as exc:
            raise TrexError(f"T-Rex server {self.where}: cannot connect: {one_line(exc.strerror or exc)}") from None
        self._open()
        return self._sync()

    def _sync(self) -> str:
        try:
            result = self.call("api_sync_v2", {"name": API_NAME, "major": API_MAJOR, "minor": API_MINOR}, with_api_h=False)
        except RpcError as exc:
            if exc.code == ERR_METHOD_NOT_FOUND:
                raise TrexError(f"T-Rex server {self.where}: version mismatch: the server does not know api_sync_v2 (T-Rex v2.30 or older); "
                                f"this client speaks the {API_NAME} API {API_MAJOR}.{API_MINOR}") from None
            if "mismatch" in (exc.specific or "").lower():
                raise TrexError(f"T-Rex server {self.where}: version mismatch: {one_line(exc.specific)}") from None
            raise
        if not isinstance(result, dict) or not isinstance(result.get("api_h"), str) or not result["api_h"]:
            raise TrexError(f"T-Rex server {self.where}: api_sync_v2: expected {{\"api_h\": \"…\"}}, got {one_line(json.dumps(result))}")
        self.api_h = result["api_h"]
        return self.api_h

    def _open(self) -> None:
        """A fresh REQ socket to the server (also after a call was cut short: REQ cannot send again before its reply)."""
        import zmq

        self.close()
        self._ctx = zmq.Context()
        self._sock = self._ctx.socket(zmq.REQ)
        self._sock.setsockopt(zmq.LINGER, 0)
        self._sock.setsockopt(zmq.SNDTIMEO, int(self.timeout_s * 1000))
        self._sock.setsockopt(zmq.RCVTIMEO, int(self.timeout_s * 1000))
        self._sock.setsockopt(zmq.MAXMSGSIZE, MAX_REPLY_BYTES)
        if ":" in self.host:
            self._sock.setsockopt(zmq.IPV6, 1)
        self._sock.connect(f"tcp://{f'[{self.host}]' if ':' in self.host else self.host}:{self.port}")
        self._awaiting = False

    def call(self, method: str, params: dict | None = None, *, with_api_h: bool = True) -> Any:
        """Send one request and return its `result`; raise TrexError (one line) on any failure."""
        if self._sock is None:
            raise TrexError(f"{method}: not connected to a T-Rex server")
        params = dict(params or {})
        if with_api_h:
            params["api_h"] = self.api_h
        request = {"id": _new_id(), "jsonrpc": "2.0", "method": method, "params": params}
        if self.tape is not None:
            request, reply = self.tape.rpc(request, self._send, TrexError)  # replayed: the recorded request and its reply
        else:
            reply = self._send(request)
        self.transcript.append(Exchange(request, reply))
        if not isinstance(reply, dict) or reply.get("jsonrpc") != "2.0":
            raise TrexError(f"{method}: the reply is not a JSON-RPC 2.0 response object")
        if reply.get("id") != request["id"]:
            raise TrexError(f"{method}: the reply's id {reply.get('id')!r} is not the request's {request['id']!r}")
        if "error" in reply:
            err = reply["error"] if isinstance(reply["error"], dict) else {}
            code = err.get("code") if isinstance(err.get("code"), int) else None
            raise RpcError(method, code, str(err.get("message") or ""), str(err.get("specific_err") or ""))
        if "result" not in reply:
            raise TrexError(f"{method}: the reply has neither result nor error")
        return reply["result"]

    def _send(self, request: dict) -> Any:
        """One request over the REQ socket and its decoded reply."""
        import zmq

        method = request["method"]
        if self._awaiting:  # the previous call was interrupted (Ctrl-C) before its reply
            self._open()
        try:
            self._sock.send(json.dumps(request).encode("utf-8"))
            self._awaiting = True
            raw = self._sock.recv()
            self._awaiting = False
        except zmq.Again:
            self.close()  # a REQ socket without its reply cannot send again
            raise TrexError(f"T-Rex server {self.where}: no reply to {method} within {self.timeout_s:g} s") from None
        except zmq.ZMQError as exc:
            self.close()
            raise TrexError(f"T-Rex server {self.where}: {method}: {one_line(exc)}") from None
        return self._decode(method, raw)

    def _decode(self, method: str, raw: bytes) -> Any:
        try:
            return json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise TrexError(f"{method}: the reply is not JSON: {one_line(exc)}") from None

    def close(self) -> None:
        if self._sock is not None and self._sock != "replay":
            self._sock.close(linger=0)
        if self._ctx is not None:
            self._ctx.term()
        self._sock = self._ctx = None

    def __enter__(self) -> "RpcClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

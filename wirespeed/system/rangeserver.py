"""A static file server that honours HTTP Range requests, as the hosts the site is published on do
(GitHub Pages, Netlify): the archive's Parquet files are read in the browser a byte range at a time
(hyparquet on the results page, DuckDB-Wasm on the SQL page), which Python's http.server cannot serve
(it ignores Range and sends the whole file). `make serve` runs it; the browser tests count its bytes.

    python -m wirespeed.system.rangeserver [--directory public] [--bind 127.0.0.1] [--port 8000]

One range per request (`bytes=first-last`, `bytes=first-`, `bytes=-suffix`): 206 with Content-Range; a
range past the end is 416; a request for several ranges gets the whole file (200), which RFC 9110 allows.
A missing file is answered as GitHub Pages answers it: status 404 with the nearest 404.html above the
requested path (a project site's own under its sub-path).
RangeHTTPServer (PyPI) was not used: it sends the whole file for `bytes=0-0`, which DuckDB-Wasm asks
for, and it has no suffix ranges.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import os
import re
import sys
from collections.abc import Callable

RANGE = re.compile(r"^bytes=(\d*)-(\d*)$")
CHUNK = 64 * 1024


def byte_range(header: str, size: int) -> tuple[int, int] | None | str:
    """The inclusive (first, last) of a `Range` header on a file of `size` bytes; None to send the whole
    file (no range, several ranges, a unit other than bytes); "unsatisfiable" for a range past the end."""
    m = RANGE.match(header.strip())
    if not m or m.group(1) == m.group(2) == "":
        return None
    first, last = m.group(1), m.group(2)
    if first == "":  # the last N bytes
        n = int(last)
        return (max(0, size - n), size - 1) if n and size else "unsatisfiable"
    a = int(first)
    b = min(int(last), size - 1) if last else size - 1
    if a >= size or (last and int(last) < a):
        return "unsatisfiable"
    return a, b


class RangeHandler(http.server.SimpleHTTPRequestHandler):
    """SimpleHTTPRequestHandler with single byte ranges. `served(path, first, last)` is called with each
    response's file path (under the directory, '/'-separated) and the inclusive byte range it sent."""

    served: Callable[[str, int, int], None] | None = None
    _span: tuple[int, int] | None = None

    def send_head(self):
        header = self.headers.get("Range")
        path = self.translate_path(self.path)
        if not header or os.path.isdir(path):
            return self._whole()
        try:
            f = open(path, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        size = os.fstat(f.fileno()).st_size
        span = byte_range(header, size)
        if span is None:
            f.close()
            return self._whole()
        if span == "unsatisfiable":
            f.close()
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{size}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        first, last = span
        self.send_response(206)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Range", f"bytes {first}-{last}/{size}")
        self.send_header("Content-Length", str(last - first + 1))
        self.send_header("Last-Modified", self.date_time_string(os.fstat(f.fileno()).st_mtime))
        self.end_headers()
        f.seek(first)
        self._span = (first, last)
        return f

    def send_error(self, code, message=None, explain=None):
        page = self._not_found_page() if code == 404 else None
        if page is None:
            return super().send_error(code, message, explain)
        with open(page, "rb") as f:
            body = f.read()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _not_found_page(self) -> str | None:
        """The 404.html nearest above the requested path, within the served directory."""
        root = os.path.realpath(self.directory)
        folder = os.path.dirname(self.translate_path(self.path))
        while True:
            real = os.path.realpath(folder)
            if real != root and not real.startswith(root + os.sep):
                return None
            candidate = os.path.join(real, "404.html")
            if os.path.isfile(candidate):
                return candidate
            if real == root:
                return None
            folder = os.path.dirname(real)

    def _whole(self):
        """The plain response (the whole file, a directory listing or an error)."""
        self._span = None
        f = super().send_head()
        if f is not None and hasattr(f, "fileno"):
            self._span = (0, os.fstat(f.fileno()).st_size - 1)
        elif f is not None:  # a directory listing: a BytesIO
            self._span = (0, len(f.getvalue()) - 1)
        return f

    def end_headers(self):
        self.send_header("Accept-Ranges", "bytes")
        super().end_headers()

    def copyfile(self, source, outputfile):
        first, last = self._span if self._span else (0, -1)
        if self.served and self._span:  # counted before the body goes: once a client has read it, its count is in
            rel = os.path.relpath(self.translate_path(self.path), self.directory).replace(os.sep, "/")
            self.served(rel, first, last)
        left = last - first + 1
        while left > 0:
            buf = source.read(min(CHUNK, left))
            if not buf:
                break
            outputfile.write(buf)
            left -= len(buf)


class Server(http.server.ThreadingHTTPServer):
    """A threading HTTP server that says a failed request in one line, and nothing when the reader went away.

    Its queue of connections not yet accepted holds 128 (socketserver's default is 5): a browser opens six at once per
    page, several browsers (a test's, or readers') more, and on a busy machine a connection beyond the queue is dropped
    without a word, its client trying again after 1, 3, 7, 15 … s. That is how a chart in the browser tests came alive
    only minutes late (the kernel counted the drops: ListenOverflows in /proc/net/netstat)."""

    request_queue_size = 128

    def handle_error(self, request, client_address) -> None:
        exc = sys.exc_info()[1]
        if isinstance(exc, ConnectionError):  # a reader closed the page or the download while it was sent
            return
        print(f"serve: a request from {client_address[0]} failed: {type(exc).__name__}: {exc}", file=sys.stderr)


def server(directory: str, bind: str = "127.0.0.1", port: int = 8000, served: Callable[[str, int, int], None] | None = None,
           quiet: bool = False) -> http.server.ThreadingHTTPServer:
    """A threading server of `directory` with Range support (port 0: any free port)."""
    attrs: dict = {"served": staticmethod(served)} if served else {}
    if quiet:
        attrs["log_message"] = lambda self, *args: None
    handler = type("Handler", (RangeHandler,), attrs)
    return Server((bind, port), functools.partial(handler, directory=directory))


def serve(directory: str, bind: str, port: int, announce: Callable[[str], None]) -> None:
    """Serve `directory` until Ctrl-C, first announcing its address (port 0: a free one)."""
    httpd = server(directory, bind, port)
    announce(f"serving {directory}/ on http://{bind}:{httpd.server_address[1]}/ (Ctrl-C stops)")
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m wirespeed.system.rangeserver", description="Serve a folder with HTTP Range support.")
    ap.add_argument("--directory", default="public")
    ap.add_argument("--bind", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=8000)
    args = ap.parse_args()
    serve(args.directory, args.bind, args.port, lambda line: print(line, flush=True))


if __name__ == "__main__":
    main()

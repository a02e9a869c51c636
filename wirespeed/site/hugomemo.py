"""Hugo asked only when what it reads changed: a build whose site data, reports, layouts, content and assets are
those of the last Hugo build, with the same Hugo, flags and environment, into a site folder nobody touched since,
keeps that site instead of building it again (about 4 s for the examples, and the most of a build after a commit
that changes no set at 10,000 sets).

The key hashes every file under every source config.toml mounts (content, layouts, assets, static, node_modules,
build/hugo-data, build/site-static, build/reports, build/trends, …), the files Hugo is given or reads by name
(config.toml and any other --config file, package.json), Hugo's binary, its arguments but the temporary destination,
and its HUGO_* environment. Files are walked without following links, and a file whose size, time and inode are
those of the last build keeps its hash (as the build stamp does). The site folder is the last build's when the name,
size, time and inode of every file in it are. The memory is build/cache/hugo.json, written only after Hugo
succeeded; one that cannot be read is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from pathlib import Path
from typing import Any

from wirespeed.pipeline import buildstamp
from wirespeed.system import atomic

FORMAT = 1
READ_BY_NAME = ("package.json",)  # read by the templates themselves (os.ReadFile), not through a mount


def _sources(root: Path, configs: list[Path]) -> list[Path]:
    """Every file and folder Hugo reads: the config files, the mounts' sources they declare, the files read by name."""
    found = [*configs, *(root / n for n in READ_BY_NAME)]
    for config in configs:
        try:
            mounts = tomllib.loads(config.read_text(encoding="utf-8")).get("module", {}).get("mounts", [])
        except (OSError, ValueError):
            continue
        found += [root / m["source"] for m in mounts if isinstance(m, dict) and isinstance(m.get("source"), str)]
    return sorted(set(found))


def key(root: Path, configs: list[Path], args: list[str], env: dict[str, str], binary: Path, previous: dict[str, list]) -> tuple[str, dict[str, list]]:
    """(the key of a Hugo build now, each input file's [size, mtime_ns, inode, sha256]); hashes reused from `previous`."""
    files: dict[str, list] = {}
    for top in _sources(root, configs):
        relpath = buildstamp.relative(top, root)
        for p, st in buildstamp.walk(top):
            rel = relpath(p)
            files[rel] = buildstamp.signed(p, st, previous.get(rel))
    try:
        st = os.stat(binary)
        tool = [str(binary), st.st_size, st.st_mtime_ns]
    except OSError:
        tool = [str(binary)]
    whole = {"format": FORMAT, "files": {k: v[3] for k, v in files.items()}, "args": args, "hugo": tool,
             "env": {k: v for k, v in env.items() if k.upper().startswith("HUGO")}}
    return hashlib.sha256(json.dumps(whole, sort_keys=True).encode()).hexdigest(), files


def site_mark(destination: Path) -> str | None:
    """The built site as it is on disk: every file's name, size, time and inode (None: there is no site)."""
    if destination.is_symlink() or not destination.is_dir():
        return None
    h = hashlib.sha256()
    relpath = buildstamp.relative(destination, destination)
    for p, st in buildstamp.walk(destination):
        h.update(f"{relpath(p)}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\n".encode())
    return h.hexdigest()


def load(memo: Path) -> dict[str, Any]:
    try:
        data = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("files"), dict) else {}


def fresh(last: dict[str, Any], now_key: str, destination: Path) -> bool:
    """Is the site in `destination` what Hugo would build now (the last build's key, and its site untouched)?"""
    return bool(last) and last.get("key") == now_key and last.get("site") is not None and last.get("site") == site_mark(destination)


def save(memo: Path, now_key: str, files: dict[str, list], destination: Path) -> None:
    atomic.write_text(memo, json.dumps({"format": FORMAT, "key": now_key, "site": site_mark(destination), "files": files}, sort_keys=True) + "\n")


def forget(memo: Path) -> None:
    memo.unlink(missing_ok=True)

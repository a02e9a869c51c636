"""Static files published by hard link instead of Hugo's copy.

Hugo copies every file of every `static` mount into the site it builds: at 10,000 result sets that is about 330,000
files and 4 GB written again on every build (each set's notebooks, charts, tables, data and PDF report), for files the
pipeline has already written whole under build/. So `wirespeed site` gives Hugo the configuration without its static
mounts (an overlay restating the other mounts, since Hugo does not merge mount lists across configuration files: the
last file that declares them wins), and links the same files into the built site itself, with Hugo's rules:

- a mount's `files` globs select what it publishes, matched case-insensitively against the path under its source,
  `*` within one folder, `**` across folders, `!` excluding (as Hugo's own matcher does);
- when two static mounts publish the same path the later mount's file is published;
- a page Hugo rendered keeps its path (Hugo's own copy races its rendering there: either may end up in the site);
- links are never followed: a symbolic link under a source is not published;
- where a hard link cannot be made (another file system), the file is copied.

The pipeline replaces its outputs by rename (wirespeed.system.atomic) and never rewrites one in place, so a linked file
of the published site is never changed under it. `hugo server` (`wirespeed serve`) keeps config.toml as it is: it
serves the static mounts from memory.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CONFIG_NAMES = ("hugo.toml", "config.toml")  # the configuration Hugo reads from its source folder without --config
KEYS = {"source", "target", "files"}  # a static mount with any other key (lang, excludeFiles, …) is left to Hugo
OVERLAY_SUFFIX = ".mounts.json"  # the overlay beside the temporary site folder (removed after the build, or by interrupts.sweep)


class StaticError(RuntimeError):
    """A configuration this module cannot read; the message names the file and the problem."""


@dataclass(frozen=True)
class Mount:
    """A static mount this module publishes: its source (a folder or one file), the path under the site it goes to,
    and its `files` globs."""

    source: Path
    target: str
    files: tuple[str, ...] = ()


def config_files(root: Path, extra: list[str]) -> tuple[list[Path], int | None]:
    """The configuration files of a Hugo run in `root` with the arguments `extra`: (the files, the index in `extra` of
    the --config value, or None when Hugo finds its configuration by name)."""
    for i, arg in enumerate(extra):
        if arg == "--config" and i + 1 < len(extra):
            return [_under(root, p) for p in extra[i + 1].split(",") if p], i + 1
        if arg.startswith("--config="):
            raise StaticError("give --config and its files as two arguments")
    return [p for p in (root / n for n in CONFIG_NAMES) if p.is_file()][:1], None


def _under(root: Path, path: str) -> Path:
    p = Path(path)
    return p if p.is_absolute() else root / p


def mounts(configs: list[Path]) -> list[dict[str, Any]] | None:
    """The mounts in effect: those of the last configuration file that declares any; None when none does."""
    found = None
    for config in configs:
        try:
            text = config.read_text(encoding="utf-8")
            data = json.loads(text) if config.suffix == ".json" else tomllib.loads(text)
        except (OSError, ValueError) as exc:
            raise StaticError(f"{config}: cannot be read as Hugo configuration: {exc}") from None
        declared = data.get("module", {}).get("mounts") if isinstance(data.get("module"), dict) else None
        if declared:
            found = declared
    return found


def _static_target(target: object) -> str | None:
    """The path under the site of a mount target in `static` (\"\" for the site's root), else None."""
    if not isinstance(target, str):
        return None
    t = target.strip("/")
    if t == "static":
        return ""
    return t[len("static/"):] if t.startswith("static/") else None


def split(root: Path, declared: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[Mount]]:
    """(the mounts Hugo keeps, the static mounts this module links instead)."""
    kept, linked = [], []
    for m in declared:
        target = _static_target(m.get("target")) if isinstance(m, dict) else None
        files = m.get("files", []) if isinstance(m, dict) else None
        if target is None or set(m) - KEYS or not isinstance(m.get("source"), str) or not isinstance(files, list) \
                or not all(isinstance(f, str) for f in files):
            kept.append(m)
            continue
        linked.append(Mount(_under(root, m["source"]), target, tuple(files)))
    if linked:  # with no static mount left Hugo would fall back to its default one (the static/ folder)
        kept.append({"source": str(linked[0].source), "target": "static", "files": ["! **"]})
    return kept, linked


def overlay(kept: list[dict[str, Any]], path: Path) -> Path:
    """A configuration file restating the mounts Hugo keeps, to be given last to --config."""
    path.write_text(json.dumps({"module": {"mounts": kept}}, ensure_ascii=False), encoding="utf-8")
    return path


def prepare(root: Path, extra: list[str], overlay_path: Path) -> tuple[list[str], list[Mount]]:
    """Hugo's arguments `extra` with the static mounts taken out (the overlay written to `overlay_path` and given last to
    --config), and the mounts to link into the site once Hugo has built it; `extra` as it is when there are none."""
    configs, at = config_files(root, extra)
    kept, linked = split(root, mounts(configs) or [])
    if not linked:
        return list(extra), []
    files = ",".join([*(str(c.resolve()) for c in configs), str(overlay(kept, overlay_path).resolve())])
    return (extra[:at] + [files] + extra[at + 1:] if at is not None else ["--config", files, *extra]), linked


_GLOB_TOKEN = re.compile(r"\*\*|\*|\?|\[[^\]]*\]|\{[^}]*\}|.", re.S)


def glob_regex(pattern: str) -> re.Pattern[str]:
    """A Hugo mount glob as a regular expression over a slash-separated path (case-insensitive)."""
    out = []
    for tok in _GLOB_TOKEN.findall(pattern):
        if tok == "**":
            out.append(".*")
        elif tok == "*":
            out.append("[^/]*")
        elif tok == "?":
            out.append("[^/]")
        elif tok.startswith("[") and len(tok) > 1:
            body = tok[1:-1]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
        elif tok.startswith("{") and len(tok) > 1:
            out.append("(?:" + "|".join(glob_regex(alt).pattern[:-2] for alt in tok[1:-1].split(",")) + ")")
        else:
            out.append(re.escape(tok))
    return re.compile("".join(out) + r"\Z", re.I | re.S)


def selector(files: tuple[str, ...]):
    """A test of a path under a mount's source against its `files` globs."""
    include = [glob_regex(f) for f in files if not f.lstrip().startswith("!")]
    exclude = [glob_regex(f.lstrip()[1:].strip()) for f in files if f.lstrip().startswith("!")]

    def selected(rel: str) -> bool:
        return (not include or any(r.match(rel) for r in include)) and not any(r.match(rel) for r in exclude)

    return selected


def _walk(folder: Path, prefix: str = ""):
    """(path, path under `folder`) of every regular file under `folder`, links not followed."""
    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return
    for e in entries:
        rel = f"{prefix}{e.name}"
        if e.is_dir(follow_symlinks=False):
            yield from _walk(Path(e.path), rel + "/")
        elif e.is_file(follow_symlinks=False):
            yield Path(e.path), rel


def link(linked: list[Mount], site: Path) -> int:
    """Publish the linked mounts' files into the built site `site`; the number of files published."""
    made: set[Path] = set()
    count = 0
    for m in reversed(linked):  # the later mount wins: it goes first, and a path already in the site is kept
        if m.source.is_symlink():
            continue
        if m.source.is_file():
            pairs = [(m.source, m.target)]
        else:
            selected = selector(m.files)
            pairs = [(p, f"{m.target}/{rel}" if m.target else rel) for p, rel in _walk(m.source) if selected(rel)]
        for src, rel in pairs:
            dest = site / rel
            if dest.parent not in made:
                dest.parent.mkdir(parents=True, exist_ok=True)
                made.add(dest.parent)
            try:
                os.link(src, dest, follow_symlinks=False)
            except FileExistsError:  # a page Hugo rendered, or a later mount's file
                continue
            except OSError:
                shutil.copy2(src, dest, follow_symlinks=False)
            count += 1
    return count


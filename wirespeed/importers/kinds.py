"""The kinds of file an importer reads, told from content: the name a set keeps a native file under,
and the check loading makes before an importer sees a byte.

A native file is recognised by what it holds, never refused for its name: `wirespeed import` reads
any regular file, decompresses it when it is gzip or Zstandard (wirespeed.resultset.compressed), and
keeps it under its own name with the extension of its kind added when the name does not already
say it (`golden.cap` holding a pcap is kept as `golden.cap.pcap`, `run.res` holding JSON as
`run.res.json`, a gzip-compressed `rrul.flent.gz` as `rrul.flent.json.gz`), so that the set's
layout check and publishing (wirespeed.resultset.attachments, wirespeed.resultset.publish) know what
it is. Loading then checks that the importer reads the kind the name states and that the content,
decompressed within its limit, is that kind (`opened`).
"""

from __future__ import annotations

import hashlib
import io
import re

from wirespeed.importers.contract import Importer
from wirespeed.problems import Problem
from wirespeed.resultset.attachments import KINDS, FileType, content_problem, inner_kind, is_of, native_type
from wirespeed.resultset.compressed import unpack

EXTENSION = {"gzip": ".gz", "zstd": ".zst"}


def reads(importer: Importer) -> str:
    """'csv, text' for messages: the kinds an importer reads."""
    return ", ".join(importer.kinds)


def content_kinds(data: bytes, name: str) -> list[FileType]:
    """The kinds the (decompressed) content passes, most likely first: a magic number's kind, else
    the kind the name states when the text fits it, then JSON, XML, CSV or plain text by the first character."""
    magic = [t for t in KINDS.values() if t.signed and is_of(data, t)]
    if magic:
        return magic
    if not is_of(data, KINDS["text"]):
        return []
    out = []
    named = inner_kind(name)
    if named is not None and named.text:
        out.append(named)
    lead = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    if lead in (b"{", b"["):
        out.append(KINDS["json"])
    if lead == b"<":
        out.append(KINDS["xml"])
    out += [KINDS["csv"], KINDS["text"]]
    return list(dict.fromkeys(out))


_HTML = re.compile(rb"\A(?:\xef\xbb\xbf)?\s*(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html[\s>]|head[\s>]|body[\s>]|script[\s>])", re.I | re.S)


def html_page(data: bytes, shown: str) -> Problem | None:
    """A problem when the content is an HTML page: active content, which no set keeps (an importer that
    converts one, ImportPlan.converted, keeps its extraction instead)."""
    if _HTML.match(data[:4096]):
        return Problem(shown, None, "", "an HTML page: a result set may not keep one (HTML is active content); "
                       "only an importer that converts a report (trex-loadtest-viz) reads HTML", "import.file-kind")
    return None


def kept_name(name: str, data: bytes, compression: str | None, importer: Importer, fmt: str, shown: str) -> tuple[str | None, list[Problem]]:
    """The file name a set keeps a native file under: its own, with its kind's extension (and its
    compression's) added when the name does not say them; a problem when the importer reads no kind
    the content is."""
    if (page := html_page(data, shown)) is not None:
        return None, [page]
    ext = EXTENSION.get(compression or "", "")
    base = name[: -len(ext)] if ext and name.lower().endswith(ext) else name
    kinds = [k for k in content_kinds(data, base) if k.name in importer.kinds]
    if not kinds:
        found = content_kinds(data, base)
        what = found[0].what if found and found[0].signed else "binary data" if not found else "text"
        return None, [Problem(shown, None, "", f"{fmt} reads {reads(importer)} files; this file holds {what}", "import.file-kind")]
    kind = kinds[0]
    if inner_kind(base) is not kind:
        base += kind.extensions[0]
    return base + ext, []


def opened(rel: str, raw: bytes, shown: str, importer: Importer, fmt: str) -> tuple[bytes | None, list[Problem]]:
    """The bytes an importer converts, from a native file of a set as stored (`rel`: its path in the
    set): its kind, from the name, is one the importer reads; the compression the name states is the
    one the content has; decompressed within the limit; the content is of that kind."""
    kind = inner_kind(rel)
    if kind is None or native_type(rel) is None:
        return None, [Problem(shown, None, "", "the name ends in no file kind a set keeps (wirespeed import names a file after its content)", "layout.native-type")]
    if kind.name not in importer.kinds:
        return None, [Problem(shown, None, "importer", f"{fmt} reads {reads(importer)} files, not {kind.what} ({kind.extensions[0]})", "import.file-kind")]
    data, compression, problems = unpack(raw, shown)
    named = native_type(rel)
    stated = named.name if named.compression else None
    if compression != stated:
        said = f"compressed with {stated}" if stated else "not compressed"
        found = f"compressed with {compression}" if compression else "not compressed"
        return None, [Problem(shown, None, "", f"the name says {said}; the content is {found}", "layout.attachment-content")]
    if data is None:
        return None, problems
    bad = content_problem(io.BytesIO(data), kind, shown, hashlib.sha256()) or html_page(data, shown)
    return (None, [bad]) if bad else (data, [])


def found(data: bytes) -> str:
    """What a file holds, in a few words, for a refusal: its kind, JSON's top-level keys, a text's first line."""
    import json

    from wirespeed.resultset.nesting import json_depth_problem

    magic = [t for t in KINDS.values() if t.signed and is_of(data, t)]
    if magic:
        return magic[0].what
    if not data.strip():
        return "an empty file"
    if not is_of(data, KINDS["text"]):
        return f"binary data starting {data[:8].hex(' ')}"
    text = data.decode("utf-8").lstrip("\ufeff")
    if text.lstrip()[:1] in ("{", "[") and json_depth_problem(text, "") is None:
        try:
            doc = json.loads(text)
        except ValueError:
            doc = None
        if isinstance(doc, dict):
            keys = list(doc)
            return "a JSON object with the keys " + ", ".join(map(repr, keys[:8])) + (", …" if len(keys) > 8 else "") if keys else "an empty JSON object"
        if isinstance(doc, list):
            return f"a JSON array of {len(doc)} items"
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return f"text whose first line is {first[:72] + ('…' if len(first) > 72 else '')!r}"

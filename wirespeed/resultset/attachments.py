"""The allowlist of file types a result set may carry as attachments or native files.

One place for the types: loading checks every attachment and native file against it (extension,
then a cheap content check: a magic number, or UTF-8 text without NUL), and publishing imports
it to re-check files and to choose a safe Content-Type. Everything else (HTML, SVG, XML,
scripts, executables, archives, unknown) is refused: nothing a browser would run is published.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import BinaryIO

from wirespeed.problems import Problem


@dataclass(frozen=True)
class FileType:
    """One allowed type: its extensions, the Content-Type to publish it with, its size limit, its check."""

    name: str
    extensions: tuple[str, ...]
    media_type: str
    size_limit: str  # a key of wirespeed.resultset.limits.LIMITS
    what: str
    magic: tuple[bytes, ...] = ()  # the file starts with one of these
    text: bool = False  # UTF-8 without NUL


TYPES: tuple[FileType, ...] = (
    FileType("csv", (".csv",), "text/csv; charset=utf-8", "file_size.csv", "a CSV file", text=True),
    FileType("json", (".json",), "application/json", "file_size.json", "a JSON file", text=True),
    FileType("toml", (".toml",), "application/toml", "file_size.toml", "a TOML file", text=True),
    FileType("text", (".txt", ".log", ".cfg", ".conf"), "text/plain; charset=utf-8", "file_size.text", "a text file", text=True),
    FileType("pdf", (".pdf",), "application/pdf", "file_size.pdf", "a PDF file", magic=(b"%PDF-",)),
    FileType("png", (".png",), "image/png", "file_size.png", "a PNG image", magic=(b"\x89PNG\r\n\x1a\n",)),
    FileType("pcap", (".pcap",), "application/vnd.tcpdump.pcap", "file_size.pcap", "a pcap capture",
             magic=(b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")),
    FileType("pcapng", (".pcapng",), "application/x-pcapng", "file_size.pcap", "a pcapng capture", magic=(b"\x0a\x0d\x0d\x0a",)),
)

BY_EXTENSION: dict[str, FileType] = {ext: t for t in TYPES for ext in t.extensions}
ALLOWED = ", ".join(ext for t in TYPES for ext in t.extensions)


def file_type(path: str) -> FileType | None:
    """The allowed type of a path by its extension (case-insensitive), or None when it is not allowed."""
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return BY_EXTENSION.get("." + name.rsplit(".", 1)[1].lower())


def type_problem(path: str, file: str, field: str) -> Problem | None:
    """One problem when a declared attachment or native file is not of an allowed type."""
    if file_type(path) is not None:
        return None
    ext = "." + path.rsplit(".", 1)[1] if "." in path.rsplit("/", 1)[-1] else "no extension"
    return Problem(file, None, field, f"{path!r}: {ext} is not an allowed attachment type (allowed: {ALLOWED})", "layout.attachment-type")


def content_problem(stream: BinaryIO, ftype: FileType, file: str, hasher) -> Problem | None:
    """Read a file to its end (feeding the hasher) and check that its content is what its extension says."""
    first = True
    decoder = codecs.getincrementaldecoder("utf-8")("strict") if ftype.text else None
    offset, line = 0, 1
    problem: Problem | None = None
    while chunk := stream.read(1 << 16):
        hasher.update(chunk)
        if problem is not None:
            continue
        if first and ftype.magic and not chunk.startswith(ftype.magic):
            # a magic number is at most 8 bytes and the first chunk is 64 KiB unless the file is shorter
            problem = Problem(file, None, "", f"does not start like {ftype.what} (its extension says {ftype.name}): refused", "layout.attachment-content")
        first = False
        if decoder is not None and problem is None:
            try:
                text = decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                at = line + chunk[: max(exc.start, 0)].count(b"\n")
                problem = Problem(file, at, "", f"not UTF-8: byte 0x{exc.object[exc.start]:02x} at offset {offset + exc.start} ({ftype.what} must be UTF-8 text)", "encoding.utf8")
                continue
            if "\x00" in text:
                at = line + chunk[: chunk.index(b"\x00")].count(b"\n")
                problem = Problem(file, at, "", f"contains a NUL byte: {ftype.what} must be text", "encoding.text")
                continue
        offset += len(chunk)
        line += chunk.count(b"\n")
    if problem is None and first and ftype.magic:
        problem = Problem(file, None, "", f"is empty: not {ftype.what}", "layout.attachment-content")
    if problem is None and decoder is not None:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            problem = Problem(file, line, "", f"not UTF-8: the file ends inside a character ({ftype.what} must be UTF-8 text)", "encoding.utf8")
    return problem

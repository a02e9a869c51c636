"""The allowlist of file types a result set may carry as attachments or native files.

One place for the types: loading checks every attachment and native file against it (extension,
then a cheap content check: a magic number, or UTF-8 text without NUL), and publishing imports
it to re-check files and to choose a safe Content-Type. Everything else (HTML, SVG, scripts,
executables, archives, unknown) is refused: nothing a browser would run is published.

Some kinds are kept only as native files, for an importer that declares it reads them
(`Importer.kinds`): XML (published as plain text), Parquet, and a native file compressed with gzip
or Zstandard (`run.json.gz`: the name before the compression's extension gives the kind inside).
A set keeps a native file under a name ending in its kind's extension, which `wirespeed import`
chooses from the content (`run.res` holding JSON is kept as `run.res.json`); loading checks that
the importer reads that kind and that the content, decompressed within its limit, is that kind.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import BinaryIO, Callable

from wirespeed.capture import erf
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
    probe: Callable[[bytes], bool] | None = None  # a format without magic number: True when its first 64 KiB are of it
    text: bool = False  # UTF-8 without NUL
    native: bool = False  # kept only as a native file an importer reads, never as an attachment
    compression: bool = False  # wraps a file of another kind (its name before the extension says which)

    @property
    def signed(self) -> bool:
        """A binary kind told by its first bytes (a magic number or a probe), not a text."""
        return bool(self.magic) or self.probe is not None

    def starts_like(self, first: bytes) -> bool:
        return first.startswith(self.magic) if self.magic else self.probe(first) if self.probe else True


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
    FileType("erf", (".erf",), "application/octet-stream", "file_size.pcap", "an ERF capture", probe=erf.looks_like, native=True),
    FileType("xml", (".xml",), "text/plain; charset=utf-8", "file_size.xml", "an XML file", text=True, native=True),
    FileType("parquet", (".parquet",), "application/vnd.apache.parquet", "file_size.parquet", "a Parquet file", magic=(b"PAR1",), native=True),
    FileType("gzip", (".gz",), "application/gzip", "file_size.compressed", "a gzip-compressed file", magic=(b"\x1f\x8b",), native=True, compression=True),
    FileType("zstd", (".zst",), "application/zstd", "file_size.compressed", "a Zstandard-compressed file", magic=(b"\x28\xb5\x2f\xfd",), native=True, compression=True),
)

BY_EXTENSION: dict[str, FileType] = {ext: t for t in TYPES for ext in t.extensions if not t.native}
NATIVE_BY_EXTENSION: dict[str, FileType] = {ext: t for t in TYPES for ext in t.extensions}
KINDS: dict[str, FileType] = {t.name: t for t in TYPES if not t.compression}
ALLOWED = ", ".join(ext for t in TYPES if not t.native for ext in t.extensions)
NATIVE_ALLOWED = ", ".join(ext for t in TYPES if not t.compression for ext in t.extensions)


def file_type(path: str) -> FileType | None:
    """The allowed type of a path by its extension (case-insensitive), or None when it is not allowed."""
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return BY_EXTENSION.get("." + name.rsplit(".", 1)[1].lower())


def _suffix(name: str) -> str:
    return "." + name.rsplit(".", 1)[1].lower() if "." in name else ""


def native_type(path: str) -> FileType | None:
    """The type of a native file by its name: any kind, native-only ones too, or its compression
    (`run.json.gz` is gzip) when the name before the compression's extension is of a kind."""
    name = path.rsplit("/", 1)[-1]
    ftype = NATIVE_BY_EXTENSION.get(_suffix(name))
    if ftype is not None and ftype.compression:
        return ftype if inner_kind(path) is not None else None
    return ftype


def inner_kind(path: str) -> FileType | None:
    """The kind of a native file's content: `run.json.gz` -> json, `run.csv` -> csv."""
    name = path.rsplit("/", 1)[-1]
    ftype = NATIVE_BY_EXTENSION.get(_suffix(name))
    if ftype is not None and ftype.compression:
        name = name[: -len(_suffix(name))]
        ftype = NATIVE_BY_EXTENSION.get(_suffix(name))
    return None if ftype is None or ftype.compression else ftype


def native_type_problem(path: str, file: str, field: str) -> Problem | None:
    """One problem when a declared native file's name ends in the extension of no kind."""
    if native_type(path) is not None:
        return None
    return Problem(file, None, field, f"{path!r}: the name ends in no file kind a set keeps: expected one of {NATIVE_ALLOWED}, "
                   "optionally followed by .gz or .zst (wirespeed import names a file after its content)", "layout.native-type")


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
        if first and ftype.signed and not ftype.starts_like(chunk):
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
    if problem is None and first and ftype.signed:
        problem = Problem(file, None, "", f"is empty: not {ftype.what}", "layout.attachment-content")
    if problem is None and decoder is not None:
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            problem = Problem(file, line, "", f"not UTF-8: the file ends inside a character ({ftype.what} must be UTF-8 text)", "encoding.utf8")
    return problem


class _NoHash:
    def update(self, _chunk: bytes) -> None:
        pass


def is_of(data: bytes, ftype: FileType) -> bool:
    """True when the bytes pass the content check of a kind (its magic number, or UTF-8 text without NUL)."""
    import io

    return content_problem(io.BytesIO(data), ftype, "", _NoHash()) is None

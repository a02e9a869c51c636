"""The allowlist of file types a result set may carry as attachments or native files, and what each
must be, read to its end.

One place for the types: loading checks every attachment and native file against it (extension,
then the whole content), and publishing imports it to check files again and to choose a safe
Content-Type. Everything else (HTML, SVG, XML, scripts, executables, archives, unknown) is refused:
nothing a browser would run is published. A file must be what its extension says all the way
through, not only in its magic number, so that no polyglot (a PNG that is also an HTML page, a PDF
with a ZIP after it) passes:

- text types (CSV, JSON, TOML, text): UTF-8 without NUL or other control characters (tab, line
  breaks, form feed and ESC, for terminal colours in tool logs, are allowed); a CSV file reads as
  CSV with strict quoting (the reader the site's formula neutraliser uses, wirespeed.system.csvsafe);
  JSON and TOML parse (JSON without NaN or Infinity), within the depth limit;
- PDF: parses without repair, ends at %%EOF, and has no active content (wirespeed.resultset.pdffile);
- PNG: one complete image to IEND, nothing after it (wirespeed.resultset.pngfile);
- pcap and pcapng: records or blocks to the file's last byte (wirespeed.resultset.capturefile).

Each type is one row of TYPES with its check, so a new type is one row and one function.

Some kinds are kept only as native files, for an importer that declares it reads them
(`Importer.kinds`): XML (published as plain text), Parquet, and a native file compressed with gzip
or Zstandard (`run.json.gz`: the name before the compression's extension gives the kind inside).
A set keeps a native file under a name ending in its kind's extension, which `wirespeed import`
chooses from the content (`run.res` holding JSON is kept as `run.res.json`); loading checks that
the importer reads that kind and that the content, decompressed within its limit, is that kind
(wirespeed.importers.kinds.opened).
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from typing import BinaryIO, Callable

from wirespeed.resultset import erf
from wirespeed.problems import Problem
from wirespeed.resultset import capturefile, pdffile, pngfile
from wirespeed.resultset.nesting import json_depth_problem, toml_depth_problem
from wirespeed.system import csvsafe

# (line or None, message, rule) of the first thing that makes a file not what its type says
Found = tuple[int | None, str, str]
CONTENT = "layout.attachment-content"


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _plain_text(text: str, what: str) -> Found | None:
    """The text rule: no NUL and no control character but tab, line breaks, form feed and ESC."""
    m = _CONTROL.search(text)
    if m is None:
        return None
    ch = m.group()
    if ch == "\x00":
        return _line_of(text, m.start()), f"contains a NUL byte: {what} must be text", "encoding.text"
    return _line_of(text, m.start()), f"contains the control character U+{ord(ch):04X}: {what} must be plain text", "encoding.text"


_CONTROL = re.compile("[\x00-\x08\x0b\x0e-\x1a\x1c-\x1f\x7f-\x9f]")


def _csv(text: str) -> Found | None:
    bad = csvsafe.structure_problem(text)
    return (bad[0], f"not CSV: {bad[1]}", CONTENT) if bad else None


def _json(text: str) -> Found | None:
    if (deep := json_depth_problem(text, "")) is not None:
        return deep.line, deep.message, deep.rule

    def no_constant(name: str):
        raise ValueError(f"{name} is not a JSON number")

    try:
        json.loads(text, parse_constant=no_constant)
    except json.JSONDecodeError as exc:
        return exc.lineno, f"not JSON: {exc.msg} (column {exc.colno})", CONTENT
    except (ValueError, RecursionError) as exc:  # NaN, Infinity; an integer of more than 4,300 digits
        return None, f"not JSON: {str(exc)[:120]}", CONTENT
    return None


def _toml(text: str) -> Found | None:
    if (deep := toml_depth_problem(text, "")) is not None:
        return deep.line, deep.message, deep.rule
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        line = int(msg.split("(at line ")[1].split(",")[0]) if "(at line " in msg else None
        return line, f"not TOML: {msg.split(' (at line ')[0]}", CONTENT
    except (ValueError, RecursionError) as exc:
        return None, f"not TOML: {str(exc)[:120]}", CONTENT
    return None


def _binary(check: Callable[[bytes], str | None], rule: str = CONTENT) -> Callable[[bytes], Found | None]:
    def found(data: bytes) -> Found | None:
        message = check(data)
        return (None, message, rule) if message else None
    return found


def _png(data: bytes) -> Found | None:
    found = pngfile.problem(data)
    return (None, *found) if found else None


def _pdf(data: bytes) -> Found | None:
    found = pdffile.problem(data)
    if found is None:
        return None
    message, active = found
    return None, message, "layout.active-content" if active else CONTENT


@dataclass(frozen=True)
class FileType:
    """One allowed type: its extensions, the Content-Type to publish it with, its size limit, its check."""

    name: str
    extensions: tuple[str, ...]
    media_type: str
    size_limit: str  # a key of wirespeed.resultset.limits.LIMITS
    what: str
    magic: tuple[bytes, ...] = ()  # the file starts with one of these (the cheap first test, and the message for a wrong type)
    probe: Callable[[bytes], bool] | None = None  # a format without magic number: True when its first 64 KiB are of it
    text: Callable[[str], Found | None] | None = None  # a text type: UTF-8 plain text, then this check of the text
    binary: Callable[[bytes], Found | None] | None = None  # a binary type: this check of the whole file
    native: bool = False  # kept only as a native file an importer reads, never as an attachment
    compression: bool = False  # wraps a file of another kind (its name before the extension says which)

    @property
    def signed(self) -> bool:
        """A binary kind told by its first bytes (a magic number or a probe), not a text."""
        return bool(self.magic) or self.probe is not None

    def starts_like(self, first: bytes) -> bool:
        return first.startswith(self.magic) if self.magic else self.probe(first) if self.probe else True


def _no_check(_text: str) -> Found | None:
    return None


def _parquet(data: bytes) -> Found | None:
    """A Parquet file begins and ends with PAR1 around its footer (DuckDB reads it within bounds: importers.columnar)."""
    if len(data) < 12 or not data.endswith(b"PAR1"):
        return None, "does not end like a Parquet file (PAR1 after its footer): a cut or padded file", CONTENT
    return None


def _read_by_importer(_data: bytes) -> Found | None:
    """A native-only binary kind told by its first records (ERF): its reader bounds and refuses what it cannot read."""
    return None


def _wrapped(_data: bytes) -> Found | None:
    """A compressed file: its magic number here; what it holds is checked once decompressed (importers.kinds.opened)."""
    return None


TYPES: tuple[FileType, ...] = (
    FileType("csv", (".csv",), "text/csv; charset=utf-8", "file_size.csv", "a CSV file", text=_csv),
    FileType("json", (".json",), "application/json", "file_size.json", "a JSON file", text=_json),
    FileType("toml", (".toml",), "application/toml", "file_size.toml", "a TOML file", text=_toml),
    FileType("text", (".txt", ".log", ".cfg", ".conf"), "text/plain; charset=utf-8", "file_size.text", "a text file", text=_no_check),
    FileType("pdf", (".pdf",), "application/pdf", "file_size.pdf", "a PDF file", magic=(b"%PDF-",), binary=_pdf),
    FileType("png", (".png",), "image/png", "file_size.png", "a PNG image", magic=(pngfile.SIGNATURE,), binary=_png),
    FileType("pcap", (".pcap",), "application/vnd.tcpdump.pcap", "file_size.pcap", "a pcap capture",
             magic=tuple(capturefile.PCAP_MAGIC), binary=_binary(capturefile.pcap_problem)),
    FileType("pcapng", (".pcapng",), "application/x-pcapng", "file_size.pcap", "a pcapng capture", magic=(b"\x0a\x0d\x0d\x0a",),
             binary=_binary(capturefile.pcapng_problem)),
    FileType("erf", (".erf",), "application/octet-stream", "file_size.pcap", "an ERF capture", probe=erf.looks_like,
             binary=_read_by_importer, native=True),
    FileType("xml", (".xml",), "text/plain; charset=utf-8", "file_size.xml", "an XML file", text=_no_check, native=True),
    FileType("parquet", (".parquet",), "application/vnd.apache.parquet", "file_size.parquet", "a Parquet file", magic=(b"PAR1",),
             binary=_parquet, native=True),
    FileType("gzip", (".gz",), "application/gzip", "file_size.compressed", "a gzip-compressed file", magic=(b"\x1f\x8b",),
             binary=_wrapped, native=True, compression=True),
    FileType("zstd", (".zst",), "application/zstd", "file_size.compressed", "a Zstandard-compressed file", magic=(b"\x28\xb5\x2f\xfd",),
             binary=_wrapped, native=True, compression=True),
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


def check_bytes(data: bytes, ftype: FileType) -> Found | None:
    """The first thing that makes `data` not what its type says, or None: the one check validation and publishing share."""
    if ftype.signed and not ftype.starts_like(data[: 1 << 16]):
        return None, ("is empty: not " + ftype.what) if not data else f"does not start like {ftype.what} (its extension says {ftype.name}): refused", CONTENT
    if ftype.text is not None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            if exc.start >= len(data) - 3 and exc.reason == "unexpected end of data":
                return data.count(b"\n") + 1, f"not UTF-8: the file ends inside a character ({ftype.what} must be UTF-8 text)", "encoding.utf8"
            return (data.count(b"\n", 0, exc.start) + 1, f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
                    f"({ftype.what} must be UTF-8 text)", "encoding.utf8")
        return _plain_text(text, ftype.what) or ftype.text(text)
    if ftype.binary is not None:
        return ftype.binary(data)
    return None


def content_problem(stream: BinaryIO, ftype: FileType, file: str, hasher) -> Problem | None:
    """Read a file to its end (feeding the hasher) and check that its content is what its extension says."""
    data = stream.read()
    hasher.update(data)
    found = check_bytes(data, ftype)
    if found is None:
        return None
    line, message, rule = found
    return Problem(file, line, "", message, rule)


class _NoHash:
    def update(self, _chunk: bytes) -> None:
        pass


def is_of(data: bytes, ftype: FileType) -> bool:
    """True when the bytes pass the content check of a kind (its magic number, or UTF-8 text without NUL)."""
    import io

    return content_problem(io.BytesIO(data), ftype, "", _NoHash()) is None

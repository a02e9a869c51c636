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
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from typing import BinaryIO, Callable

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
    text: Callable[[str], Found | None] | None = None  # a text type: UTF-8 plain text, then this check of the text
    binary: Callable[[bytes], Found | None] | None = None  # a binary type: this check of the whole file


def _no_check(_text: str) -> Found | None:
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


def check_bytes(data: bytes, ftype: FileType) -> Found | None:
    """The first thing that makes `data` not what its type says, or None: the one check validation and publishing share."""
    if ftype.magic and not data.startswith(ftype.magic):
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

"""Attachments are inert by construction (issue 28, item 3): every attachment and native file must be,
read to its end, what its extension says, and a PDF must carry no active content. Each hostile file
below (written here, byte by byte) is refused by validation in one line naming the file and the rule,
and refused again by the publishing side's own check; the real files of tests/real and the examples,
and valid files of every variant of each format, pass both."""

from __future__ import annotations

import io
import json
import struct
import zlib
from pathlib import Path

import pytest

from conftest import ARCHIVE, ROOT
from wirespeed.resultset import limits
from wirespeed.resultset.attachments import check_bytes, file_type
from wirespeed.catalog.load import load
from wirespeed.resultset import publish

MEASUREMENTS = 'measurements = ["baseline.csv", "packet-filtering.csv", "cpu.csv"]\n'


def attach(s: Path, path: str, content: bytes) -> None:
    toml = s / "result.toml"
    text = toml.read_text(encoding="utf-8")
    assert MEASUREMENTS in text
    toml.write_text(text.replace(MEASUREMENTS, MEASUREMENTS + f'attachments = [{{path = "{path}", title = "An attachment"}}]\n', 1), encoding="utf-8")
    (s / path).parent.mkdir(parents=True, exist_ok=True)
    (s / path).write_bytes(content)


def refused(s: Path, path: str, content: bytes, rule: str, words: str) -> str:
    """Attach the file, validate the set: one error line naming the file, the rule and the words; then the
    publishing side refuses the same file on its own. Returns the line."""
    attach(s, path, content)
    rs, problems = load(s)
    errors = [p for p in problems if p.severity == "error"]
    assert rs is None and errors, problems
    line = str(errors[0])
    assert path.rsplit("/", 1)[-1] in line and f"[{rule}]" in line and words in line, line
    assert "\n" not in line and len(line) < 400, line
    with pytest.raises(publish.PublishRefused, match=r"\[publish\.content\]$"):
        publish.publish_set_file(s.name, s, path, s.parent / "out")
    return line


def accepted(s: Path, path: str, content: bytes) -> None:
    attach(s, path, content)
    rs, problems = load(s)
    assert rs is not None and not [p for p in problems if p.severity == "error"], problems
    publish.publish_set_file(s.name, s, path, s.parent / "out")
    assert (s.parent / "out" / "data" / publish.published_name(s.name, path)).is_file()


# --- PDF: raw files, each object written here, with a correct cross-reference table ----------------

PAGE = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << >> %s >>"


def raw_pdf(*objects: bytes, catalog: bytes = b"", page: bytes = b"", tail: bytes = b"", startxref_shift: int = 0) -> bytes:
    """A PDF whose objects 1-3 are the catalog (with `catalog` entries), the page tree and one page (with
    `page` entries), followed by `objects` (4, 5, …); `tail` is appended after %%EOF."""
    objs = [b"<< /Type /Catalog /Pages 2 0 R %s >>" % catalog, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>", PAGE % page, *objects]
    out = b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for i, o in enumerate(objs, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (i, o)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1) + b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref + startxref_shift)
    return out + tail


def link(action: bytes) -> bytes:
    return b"/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A %s >>]" % action


CLEAN_PDFS = {
    "plain": raw_pdf(),
    "open-at-page": raw_pdf(catalog=b"/OpenAction [3 0 R /Fit]"),
    "open-goto": raw_pdf(catalog=b"/OpenAction << /S /GoTo /D [3 0 R /Fit] >>"),
    "web-link": raw_pdf(page=link(b"<< /S /URI /URI (https://example.org/report) >>")),
    "mail-link": raw_pdf(page=link(b"<< /S /URI /URI (mailto:lab@example.org) >>")),
    "named-next-page": raw_pdf(page=link(b"<< /S /Named /N /NextPage >>")),
    "tagged-structure": raw_pdf(b"<< /Type /StructTreeRoot /K 5 0 R >>", b"<< /Type /StructElem /S /P /P 4 0 R /Pg 3 0 R >>",
                                catalog=b"/StructTreeRoot 4 0 R /MarkInfo << /Marked true >>"),
    "border-style": raw_pdf(page=b"/Annots [<< /Type /Annot /Subtype /Square /Rect [0 0 9 9] /BS << /S /D /D [3 2] /W 1 >> >>]"),
}

HOSTILE_PDFS = [  # (name, bytes, rule, words in the line)
    ("openaction-javascript", raw_pdf(b"<< /S /JavaScript /JS (app.alert\\(document.cookie\\)) >>", catalog=b"/OpenAction 4 0 R"),
     "layout.active-content", "/OpenAction runs JavaScript"),
    ("openaction-launch", raw_pdf(catalog=b"/OpenAction << /S /Launch /F (calc.exe) >>"), "layout.active-content", "Launch"),
    ("openaction-uri", raw_pdf(catalog=b"/OpenAction << /S /URI /URI (https://tracker.example/x) >>"), "layout.active-content", "/OpenAction runs a URI action"),
    ("javascript-name-tree", raw_pdf(b"<< /Names [(a) << /S /JavaScript /JS (this.print\\(\\)) >>] >>", catalog=b"/Names << /JavaScript 4 0 R >>"),
     "layout.active-content", "JavaScript"),
    ("page-additional-action", raw_pdf(page=b"/AA << /O << /S /JavaScript /JS (x) >> >>"), "layout.active-content", "/AA"),
    ("link-javascript", raw_pdf(page=link(b"<< /S /JavaScript /JS (x) >>")), "layout.active-content", "a JavaScript action"),
    ("link-javascript-uri", raw_pdf(page=link(b"<< /S /URI /URI (javascript:alert\\(1\\)) >>")), "layout.active-content", "javascript:alert"),
    ("link-file-uri", raw_pdf(page=link(b"<< /S /URI /URI (file:///etc/passwd) >>")), "layout.active-content", "file:///etc/passwd"),
    ("link-launch", raw_pdf(page=link(b"<< /S /Launch /Win << /F (cmd.exe) >> >>")), "layout.active-content", "Launch action"),
    ("link-submitform", raw_pdf(page=link(b"<< /S /SubmitForm /F (https://x.example) >>")), "layout.active-content", "SubmitForm action"),
    ("link-remote-goto", raw_pdf(page=link(b"<< /S /GoToR /F (other.pdf) /D [0 /Fit] >>")), "layout.active-content", "GoToR action"),
    ("chained-javascript", raw_pdf(page=link(b"<< /S /GoTo /D [3 0 R /Fit] /Next << /S /JavaScript /JS (x) >> >>")), "layout.active-content", "a JavaScript action"),
    ("chained-launch", raw_pdf(page=link(b"<< /S /GoTo /D [3 0 R /Fit] /Next [<< /S /Launch /F (a) >>] >>")), "layout.active-content", "Launch"),
    ("embedded-file", raw_pdf(b"<< /Type /EmbeddedFile /Length 3 >>\nstream\nabc\nendstream", b"<< /Type /Filespec /F (a.exe) /EF << /F 4 0 R >> >>",
                              catalog=b"/Names << /EmbeddedFiles << /Names [(a.exe) 5 0 R] >> >>"), "layout.active-content", "embedded file"),
    ("file-attachment-annotation", raw_pdf(page=b"/Annots [<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 9 9] >>]"),
     "layout.active-content", "file attachment"),
    ("xfa-form", raw_pdf(b"<< /Length 6 >>\nstream\n<xdp/>\nendstream", catalog=b"/AcroForm << /Fields [] /XFA 4 0 R >>"), "layout.active-content", "XFA"),
    ("rich-media", raw_pdf(page=b"/Annots [<< /Type /Annot /Subtype /RichMedia /Rect [0 0 9 9] >>]"), "layout.active-content", "rich media"),
    ("unreferenced-javascript", raw_pdf(b"<< /S /JavaScript /JS (x) >>"), "layout.active-content", "object 4 0"),
    ("zip-after-eof", raw_pdf(tail=b"PK\x03\x04\x14\x00\x00\x00\x08\x00" + b"\x00" * 20), "layout.attachment-content", "after the end"),
    ("html-after-eof", raw_pdf(tail=b"<html><script>alert(1)</script></html>\n"), "layout.attachment-content", "after the end"),
    ("html-in-header-line", b"%PDF-<html><script>alert(1)</script>" + raw_pdf()[9:], "layout.attachment-content", "header line"),
    ("broken-xref", raw_pdf(startxref_shift=7), "layout.attachment-content", "does not parse"),
    ("cut-file", raw_pdf()[:-40] + b"%%EOF\n", "layout.attachment-content", "does not parse"),
    ("duplicated-key", raw_pdf(page=link(b"<< /S /Launch /S /URI /URI (https://x.example) >>")), "layout.attachment-content", "without repair"),
]


@pytest.mark.parametrize("name", sorted(CLEAN_PDFS))
def test_a_pdf_without_active_content_is_published(good_set, name):
    accepted(good_set, f"raw/{name}.pdf", CLEAN_PDFS[name])


@pytest.mark.parametrize("name, data, rule, words", HOSTILE_PDFS, ids=[c[0] for c in HOSTILE_PDFS])
def test_a_pdf_with_active_content_or_not_a_pdf_is_refused(good_set, name, data, rule, words):
    refused(good_set, f"raw/{name}.pdf", data, rule, words)


def test_the_repository_pdfs_pass():
    """PDFs made by real tools: XeLaTeX/hyperref (a report, which opens at its first page), vl-convert (charts)."""
    pdfs = [ROOT / "tests" / "site_fixture" / "site-static" / "reports" / "cisco-nexus-9516-100g.pdf", *sorted((ROOT / "reports" / "examples").glob("*.pdf")),
            *sorted((ROOT / "tests" / "site_fixture" / "site-static").rglob("charts/*.pdf"))]
    assert len(pdfs) >= 4
    for p in pdfs:
        assert check_bytes(p.read_bytes(), file_type(p.name)) is None, p


# --- PNG: chunks written here, CRCs computed -----------------------------------------------------

def chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def png(width: int = 2, height: int = 2, colour: int = 2, depth: int = 8, interlace: int = 0, raw: bytes | None = None,
        extra: bytes = b"", tail: bytes = b"", idat: bytes | None = None, palette: bool = False) -> bytes:
    samples = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    row = 1 + (width * depth * samples + 7) // 8
    if raw is None:
        if interlace:
            from wirespeed.resultset.pngfile import _raw_size
            raw = b"\x00" * _raw_size(width, height, depth * samples, True)
        else:
            raw = (b"\x00" + b"\x7f" * (row - 1)) * height
    body = idat if idat is not None else zlib.compress(raw)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace)
    plte = chunk(b"PLTE", b"\x00\x00\x00\xff\xff\xff") if colour == 3 or palette else b""
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + plte + extra + chunk(b"IDAT", body) + chunk(b"IEND", b"") + tail


def pillow_pngs() -> dict[str, bytes]:
    """Valid PNGs of every mode Pillow writes, and the hand-made interlaced ones, which Pillow must decode."""
    from PIL import Image

    out = {}
    for mode in ("1", "L", "LA", "P", "RGB", "RGBA", "I;16"):
        buf = io.BytesIO()
        Image.new(mode, (33, 7)).save(buf, format="PNG")
        out[mode.replace(";", "")] = buf.getvalue()
    for colour, depth in ((0, 1), (0, 16), (2, 8), (3, 4), (6, 16)):
        data = png(13, 11, colour, depth, interlace=1)
        Image.open(io.BytesIO(data)).load()  # a real decoder reads it
        out[f"adam7-{colour}-{depth}"] = data
    return out


def test_valid_pngs_of_every_kind_pass(good_set):
    for name, data in pillow_pngs().items():
        assert check_bytes(data, file_type("x.png")) is None, name
    accepted(good_set, "raw/shot.png", pillow_pngs()["RGBA"])


def _multi_idat() -> bytes:
    body = zlib.compress((b"\x00" + b"\x7f" * 6) * 2)
    one = png()
    start = one.index(b"IDAT") - 4
    end = one.index(b"IEND") - 4
    return one[:start] + chunk(b"IDAT", body[:5]) + chunk(b"tEXt", b"a\x00b") + chunk(b"IDAT", body[5:]) + one[end:]


HOSTILE_PNGS = [
    ("html-after-iend", png(tail=b"<html><script>alert(1)</script></html>"), "layout.attachment-content", "follow the IEND"),
    ("zip-after-iend", png(tail=b"PK\x03\x04" + b"\x00" * 26), "layout.attachment-content", "follow the IEND"),
    ("signature-then-html", b"\x89PNG\r\n\x1a\n<html><script>alert(1)</script></html>", "layout.attachment-content", "runs past the end"),
    ("wrong-crc", png()[:-5] + b"\x00\x00\x00\x01" + png()[-1:], "layout.attachment-content", "wrong CRC"),
    ("no-iend", png()[:-12], "layout.attachment-content", "no IEND"),
    ("no-idat", b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)) + chunk(b"IEND", b""), "layout.attachment-content", "no image data"),
    ("short-image-data", png(raw=b"\x00\x7f"), "layout.attachment-content", "inflates to 2 bytes"),
    ("long-image-data", png(raw=b"\x00" * 4096), "layout.attachment-content", "more than the 14 bytes"),
    ("cut-zlib-stream", png(idat=zlib.compress(b"\x00" * 14)[:-6]), "layout.attachment-content", "zlib"),
    ("garbage-after-zlib", png(idat=zlib.compress(b"\x00" * 14) + b"<script>"), "layout.attachment-content", "follows the end of its zlib stream"),
    ("not-zlib", png(idat=b"<html></html>"), "layout.attachment-content", "zlib"),
    ("unknown-critical-chunk", png(extra=chunk(b"EVIL", b"x")), "layout.attachment-content", "unknown critical chunk EVIL"),
    ("bad-bit-depth", png(colour=2, depth=4), "layout.attachment-content", "bit depth 4"),
    ("split-idat", _multi_idat(), "layout.attachment-content", "not consecutive"),
    ("too-many-pixels", png(width=10_000, height=5_000, idat=b""), "limit.png-pixels", "40,000,000 pixels"),
]


@pytest.mark.parametrize("name, data, rule, words", HOSTILE_PNGS, ids=[c[0] for c in HOSTILE_PNGS])
def test_a_png_that_is_not_one_whole_image_is_refused(good_set, name, data, rule, words):
    refused(good_set, f"raw/{name}.png", data, rule, words)


# --- captures --------------------------------------------------------------------------------------

REAL_PCAPS = sorted((ROOT / "tests" / "real").rglob("*.pcap")) + sorted(ARCHIVE.rglob("*.pcap"))


def pcapng_of(pcap: bytes) -> bytes:
    """The records of a real pcap as pcapng blocks (SHB, IDB, one EPB per record), as editcap writes them."""
    linktype, snaplen = struct.unpack("<I", pcap[20:24])[0], struct.unpack("<I", pcap[16:20])[0]
    shb_body = struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1)
    out = struct.pack("<II", 0x0A0D0D0A, 12 + len(shb_body)) + shb_body + struct.pack("<I", 12 + len(shb_body))
    idb_body = struct.pack("<HHI", linktype & 0xFFFF, 0, snaplen)
    out += struct.pack("<II", 1, 12 + len(idb_body)) + idb_body + struct.pack("<I", 12 + len(idb_body))
    pos = 24
    while pos < len(pcap):
        sec, usec, cap, orig = struct.unpack_from("<IIII", pcap, pos)
        data = pcap[pos + 16:pos + 16 + cap]
        ts = sec * 1_000_000 + usec
        body = struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, cap, orig) + data + b"\x00" * (-cap % 4)
        out += struct.pack("<II", 6, 12 + len(body)) + body + struct.pack("<I", 12 + len(body))
        pos += 16 + cap
    return out


def test_real_captures_pass(good_set):
    assert len(REAL_PCAPS) >= 6
    for p in REAL_PCAPS:
        data = p.read_bytes()
        assert check_bytes(data, file_type("x.pcap")) is None, p
        if data[:4] == b"\xd4\xc3\xb2\xa1":
            assert check_bytes(pcapng_of(data), file_type("x.pcapng")) is None, p
    accepted(good_set, "raw/capture.pcapng", pcapng_of((ROOT / "tests" / "real" / "trex-pcap" / "imix.pcap").read_bytes()))


_PCAP = (ROOT / "tests" / "real" / "trex-pcap" / "imix.pcap").read_bytes()
_PCAPNG = pcapng_of(_PCAP)
HOSTILE_CAPTURES = [
    ("pcap-then-html", "cap.pcap", _PCAP + b"<html><script>alert(1)</script></html>", "not below one second"),
    ("pcap-magic-then-html", "cap.pcap", _PCAP[:4] + b"<html><script>alert(1)</script></html>" + b" " * 40, "pcap version"),
    ("pcap-cut-record", "cap.pcap", _PCAP[:-7], "runs past the end"),
    ("pcap-huge-record", "cap.pcap", _PCAP[:24] + struct.pack("<IIII", 0, 0, 1 << 30, 1 << 30), "above 262,144"),
    ("pcap-bad-fraction", "cap.pcap", _PCAP[:24] + struct.pack("<IIII", 0, 2_000_000, 0, 0), "not below one second"),
    ("pcapng-then-html", "cap.pcapng", _PCAPNG + b"<html><script>alert(1)</script></html>" + b" " * 2, "runs past the end"),
    ("pcapng-cut", "cap.pcapng", _PCAPNG[:-4], "runs past the end"),
    ("pcapng-bad-trailer", "cap.pcapng", _PCAPNG[:-4] + b"\x00\x00\x00\x00", "ends with a length of 0"),
    ("pcapng-no-byte-order", "cap.pcapng", _PCAPNG[:8] + b"<htm" + _PCAPNG[12:], "byte-order magic"),
]


@pytest.mark.parametrize("name, path, data, words", HOSTILE_CAPTURES, ids=[c[0] for c in HOSTILE_CAPTURES])
def test_a_capture_that_is_not_records_to_its_end_is_refused(good_set, name, path, data, words):
    refused(good_set, f"raw/{path}", data, "layout.attachment-content", words)


# --- text types ------------------------------------------------------------------------------------

HOSTILE_TEXT = [
    ("log-with-nul", "run.log", b"ok\nbad\x00\n", "encoding.text", "NUL"),
    ("text-with-backspace", "notes.txt", b"ok\nover\x08write\n", "encoding.text", "U+0008"),
    ("text-with-c1-control", "notes.txt", "ok\nCSI \u009b31m\n".encode(), "encoding.text", "U+009B"),
    ("text-cut-character", "notes.txt", "ok é".encode()[:-1], "encoding.utf8", "ends inside a character"),
    ("json-broken", "r.json", b'{"a": 1,,}', "layout.attachment-content", "not JSON"),
    ("json-nan", "r.json", b'{"a": NaN}', "layout.attachment-content", "NaN is not a JSON number"),
    ("json-html", "r.json", b"<html><script>alert(1)</script></html>", "layout.attachment-content", "not JSON"),
    ("json-huge-integer", "r.json", b"[" + b"9" * 5000 + b"]", "layout.attachment-content", "not JSON"),
    ("json-deep", "r.json", b"[" * 100 + b"]" * 100, "limit.depth", "32 levels"),
    ("toml-broken", "r.toml", b"a = [\n", "layout.attachment-content", "not TOML"),
    ("csv-unclosed-quote", "t.csv", b'a,b\n"open,1\n2,3\n', "layout.attachment-content", "not closed"),
    ("csv-text-after-quote", "t.csv", b'a,b\n"x"y,1\n', "layout.attachment-content", "after a closing quote"),
    ("csv-quote-separator", "t.csv", b'sep="\na"b\n', "layout.attachment-content", "sep="),
    ("csv-formula-separator", "t.csv", b"sep==\na=b\n", "layout.attachment-content", "sep="),
]


@pytest.mark.parametrize("name, path, data, rule, words", HOSTILE_TEXT, ids=[c[0] for c in HOSTILE_TEXT])
def test_a_text_file_that_is_not_its_type_is_refused(good_set, name, path, data, rule, words):
    refused(good_set, f"raw/{path}", data, rule, words)


VALID_TEXT = [
    ("terminal-colours", "run.log", b"\x1b[32mPASS\x1b[0m 64B 14.88 Mpps\r\n\x0cpage two\n"),
    ("semicolon-export", "t.csv", "test;rate\n\"a;b\";1,5\n\"x\"\"y\";2\n".encode()),
    ("sep-line-pipe", "t.csv", b"sep=|\nname|value\n\"a|b\"|1\n"),
    ("tab-export", "t.csv", b"name\tvalue\n\"a\tb\"\t1\n"),
    ("huge-field", "t.csv", b"name,value\n" + b"x" * 200_000 + b",1\n"),  # past the csv module's default field limit
    ("quote-inside-field", "t.csv", b'name,size\nscreen 24",1\n'),
    ("json", "r.json", json.dumps({"a": [1, 2.5, "x"], "b": None}).encode()),
    ("toml", "r.toml", b'a = 1\n[b]\nc = "d"\n'),
]


@pytest.mark.parametrize("name, path, data", VALID_TEXT, ids=[c[0] for c in VALID_TEXT])
def test_valid_text_files_pass_and_publish(good_set, name, path, data):
    accepted(good_set, f"raw/{path}", data)


def test_every_type_has_a_check_and_a_real_file_passes_it():
    """Each allowed type checks its whole content (text or binary), and every typed real file passes."""
    from wirespeed.resultset.attachments import TYPES

    assert all(t.text is not None or t.binary is not None for t in TYPES)
    real = [p for p in [*sorted((ROOT / "tests" / "real").rglob("*")), *sorted(ARCHIVE.rglob("*"))] if p.is_file() and file_type(p.name)]
    assert {file_type(p.name).name for p in real} >= {"csv", "json", "toml", "text", "pcap"}
    for p in real:
        assert check_bytes(p.read_bytes(), file_type(p.name)) is None, p
    assert limits.describe("png_pixels") == "40,000,000 pixels"

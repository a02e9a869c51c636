"""Compressed files (gzip, bzip2, xz) decompressed within the size limit of what they hold.

A 2 KB gzip file can hold gigabytes of zeros. `decompress` inflates at most the limit plus one
byte (the decompressors' max_length), so a bomb is refused after that much work and memory, with
one line naming the file, how much it holds at least, the limit and the rule. Concatenated
members (gzip -c a b, pigz) are read one after another under the same budget.
"""

from __future__ import annotations

import bz2
import lzma
import zlib

from wirespeed.problems import Problem
from wirespeed.resultset import limits

MAGIC = {b"\x1f\x8b": "gzip", b"BZh": "bzip2", b"\xfd7zXZ\x00": "xz"}
_CHUNK = 1 << 20


def kind(data: bytes) -> str | None:
    """'gzip', 'bzip2' or 'xz' from the first bytes, or None for anything else."""
    return next((k for magic, k in MAGIC.items() if data.startswith(magic)), None)


def _decompressor(k: str):
    if k == "gzip":
        return zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    if k == "bzip2":
        return bz2.BZ2Decompressor()
    return lzma.LZMADecompressor(format=lzma.FORMAT_XZ)


def decompress(data: bytes, file: str, limit_key: str = "file_size.json", what: str = "") -> tuple[bytes | None, list[Problem]]:
    """The content of a compressed file, or one problem: damaged, or holding more than the limit `limit_key`
    (the size limit of the content's own type, e.g. file_size.json for a .json.gz). Data that is not
    compressed is returned as it is."""
    k = kind(data)
    if k is None:
        return data, []
    limit = limits.value(limit_key)
    lim = limits.LIMITS[limit_key]
    out = bytearray()
    rest = data
    try:
        while rest:
            d = _decompressor(k)
            pending = rest
            while True:
                piece = d.decompress(pending, min(limit + 1 - len(out), _CHUNK))
                out += piece
                if len(out) > limit:
                    shown = f" ({what})" if what else ""
                    return None, [Problem(file, None, "", f"decompresses to more than the limit of {limits.describe(limit_key)} for {lim.what}{shown}", lim.rule)]
                if d.eof:
                    break
                if k == "gzip":  # input left unread when the output piece was full
                    pending = d.unconsumed_tail
                    if not piece and not pending:
                        break
                else:
                    pending = b""
                    if d.needs_input:
                        break
            if not d.eof:
                return None, [Problem(file, None, "", f"the {k} stream is cut off: the file is truncated", "encoding.compressed")]
            rest = d.unused_data.lstrip(b"\x00") if k == "gzip" else d.unused_data
            if rest and kind(rest) != k:
                return None, [Problem(file, None, "", f"bytes after the end of the {k} stream: not one compressed file", "encoding.compressed")]
    except (zlib.error, OSError, EOFError, lzma.LZMAError, ValueError) as exc:
        return None, [Problem(file, None, "", f"not a valid {k} file: {exc}", "encoding.compressed")]
    return bytes(out), []

"""PNG attachments: the whole file must be one PNG image, read to its end (not only its magic number).

The chunks are walked from the signature to IEND with every CRC checked; IHDR comes first and
describes a valid image of at most `png_pixels` pixels; the critical chunks are only IHDR, PLTE,
IDAT and IEND, the IDAT chunks are consecutive and their zlib stream inflates to exactly the bytes
the image needs (streamed, never held); nothing follows IEND. So a file that is also an HTML page,
a ZIP or a PDF (a polyglot) is refused, and so is a cut or padded one.
"""

from __future__ import annotations

import struct
import zlib

from wirespeed.resultset.limits import describe, value

SIGNATURE = b"\x89PNG\r\n\x1a\n"
CRITICAL = {b"IHDR", b"PLTE", b"IDAT", b"IEND"}
# colour type -> (allowed bit depths, samples per pixel)
COLOUR = {0: ((1, 2, 4, 8, 16), 1), 2: ((8, 16), 3), 3: ((1, 2, 4, 8), 1), 4: ((8, 16), 2), 6: ((8, 16), 4)}
# Adam7 passes: (x start, y start, x step, y step)
ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def _raw_size(width: int, height: int, bits_per_pixel: int, interlaced: bool) -> int:
    """Bytes of the filtered image data: per row one filter byte and the packed pixels."""
    def rows(w: int, h: int) -> int:
        return 0 if w == 0 or h == 0 else h * (1 + (w * bits_per_pixel + 7) // 8)

    if not interlaced:
        return rows(width, height)
    return sum(rows((width - x0 + dx - 1) // dx if width > x0 else 0, (height - y0 + dy - 1) // dy if height > y0 else 0)
               for x0, y0, dx, dy in ADAM7)


def problem(data: bytes) -> tuple[str, str] | None:
    """(why this file is not one complete PNG image, in one line; the rule), or None."""
    found = _problem(data)
    if found is None:
        return None
    return found, "limit.png-pixels" if "above the limit" in found else "layout.attachment-content"


def _problem(data: bytes) -> str | None:
    if not data.startswith(SIGNATURE):
        return "does not start with the PNG signature"
    pos, n = len(SIGNATURE), len(data)
    expected = 0
    inflater = zlib.decompressobj()
    inflated = 0
    seen_idat = idat_done = False
    first = True
    while True:
        if pos + 12 > n:
            return f"ends inside a chunk header at byte {pos} (no IEND chunk)"
        length, ctype = struct.unpack(">I4s", data[pos:pos + 8])
        if length > 0x7FFFFFFF or pos + 12 + length > n:
            return f"chunk {ctype!r} at byte {pos} runs past the end of the file"
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        if zlib.crc32(ctype + body) != crc:
            return f"chunk {ctype!r} at byte {pos} has a wrong CRC"
        if not ctype.isalpha():
            return f"chunk type {ctype!r} at byte {pos} is not four letters"
        if first:
            if ctype != b"IHDR" or length != 13:
                return "the first chunk is not IHDR"
            width, height, depth, colour, compression, filtering, interlace = struct.unpack(">IIBBBBB", body)
            if colour not in COLOUR or depth not in COLOUR[colour][0] or compression or filtering or interlace > 1:
                return f"IHDR describes no valid PNG image (colour type {colour}, bit depth {depth})"
            if not 0 < width <= 0x7FFFFFFF or not 0 < height <= 0x7FFFFFFF:
                return f"IHDR gives an image of {width} × {height} pixels"
            if width * height > value("png_pixels"):
                return f"an image of {width:,} × {height:,} pixels is above the limit of {describe('png_pixels')}"
            expected = _raw_size(width, height, depth * COLOUR[colour][1], interlace == 1)
            first = False
        elif ctype == b"IHDR":
            return f"a second IHDR chunk at byte {pos}"
        elif ctype[:1].isupper() and ctype not in CRITICAL:
            return f"unknown critical chunk {ctype.decode('ascii')} at byte {pos}"
        if ctype == b"IDAT":
            if idat_done:
                return f"IDAT chunks are not consecutive (byte {pos})"
            seen_idat = True
            inflated, bad = _inflate(inflater, body, inflated, expected)
            if bad:
                return bad
        elif seen_idat:
            idat_done = True
        pos += 12 + length
        if ctype == b"IEND":
            break
    if not seen_idat:
        return "has no image data (IDAT)"
    if not inflater.eof:
        return "its image data (IDAT) is a cut zlib stream"
    if inflated != expected:
        return f"its image data inflates to {inflated:,} bytes, not the {expected:,} its size needs"
    if pos != n:
        return f"{n - pos:,} bytes follow the IEND chunk: data after the end of the image is refused"
    return None


def _inflate(inflater, chunk: bytes, done: int, expected: int) -> tuple[int, str | None]:
    """Inflate one IDAT chunk in pieces of 1 MiB, counting bytes; never more than the image needs."""
    if inflater.eof:
        return done, "IDAT data follows the end of its zlib stream"
    piece = 1 << 20
    data = chunk
    try:
        while True:
            out = inflater.decompress(data, piece)
            data = inflater.unconsumed_tail
            done += len(out)
            if done > expected:
                return done, f"its image data inflates to more than the {expected:,} bytes its size needs"
            if inflater.eof:
                return done, ("IDAT data follows the end of its zlib stream" if inflater.unused_data or data else None)
            if not data and len(out) < piece:  # all input taken and no output pending
                return done, None
    except zlib.error as exc:
        return done, f"its image data is not a valid zlib stream ({exc})"

"""A palette PNG writer that compresses only what changed since earlier boards.

Deflate dominates the cost of a board PNG. Successive boards of a match differ in a few
places (a plane moved, the title, a card), so the image is compressed in bands of rows,
each band a deflate segment of its own ended by a full flush (byte-aligned and with no
references to earlier bands), and segments are kept by the band's digest: a band seen
before costs a hash and a copy. The segments are joined into one zlib stream whose
checksum runs over all the rows, so the file is an ordinary PNG. Compressing bands
apart loses matches across band borders; measured, the file grows by a few percent.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from typing import Final

from PIL import Image

BAND: Final = 32  # rows per band
LEVEL: Final = 3  # deflate level, chosen by measurement (docs/render.md)
KEPT: Final = 4096  # segments kept, about 10 MB for 1024 px boards

_segments: OrderedDict[bytes, bytes] = OrderedDict()
_lock = threading.Lock()  # the bot draws in worker threads
_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_LAST_BLOCK: Final = b"\x03\x00"  # an empty final deflate block ends the stream


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def _segment(rows: bytes) -> bytes:
    key = hashlib.blake2b(rows, digest_size=16).digest()
    with _lock:
        found = _segments.get(key)
        if found is not None:
            _segments.move_to_end(key)
            return found
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    found = packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH)
    with _lock:
        _segments[key] = found
        if len(_segments) > KEPT:
            _segments.popitem(last=False)
    return found


def palette_png(img: Image.Image) -> bytes:
    """``img`` (mode "P", 8 bits) as PNG bytes."""
    if img.mode != "P":
        raise ValueError("palette_png takes a palette image")
    w, h = img.size
    raw = img.tobytes()
    colours = bytes(img.getpalette() or [])
    parts = [b"\x78\x01"]  # zlib header: deflate, 32 KB window
    adler = 1
    for top in range(0, h, BAND):
        # Every row starts with its filter type; 0 (none) suits flat palette images.
        rows = b"".join(b"\x00" + raw[y * w : (y + 1) * w] for y in range(top, min(top + BAND, h)))
        adler = zlib.adler32(rows, adler)
        parts.append(_segment(rows))
    parts += [_LAST_BLOCK, struct.pack(">I", adler)]
    header = struct.pack(">IIBBBBB", w, h, 8, 3, 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", colours),
            _chunk(b"IDAT", b"".join(parts)),
            _chunk(b"IEND", b""),
        )
    )

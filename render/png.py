"""A palette PNG writer that compresses only what changed since the last board of a match.

Deflate dominates the cost of a board PNG. Successive boards of a match differ in a few
places (a plane moved, the title, a card), so the image is compressed in bands of rows,
each band a deflate segment of its own ended by a full flush (byte-aligned and with no
references to earlier bands), and segments are kept by the band's digest: a band seen
before costs a hash and a copy. The segments are joined into one zlib stream whose
checksum runs over all the rows, so the file is an ordinary PNG. Compressing bands
apart loses matches across band borders; measured, the file grows by a few percent.

Segments are kept per *family* — the boards of one match (its static layer) — so that
hundreds of matches drawn in turn by one process do not push each other's bands out,
as one shared cache of recent bands did.
"""

from __future__ import annotations

import hashlib
import io
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Hashable
from typing import Final

from PIL import Image

BAND: Final = 32  # rows per band
LEVEL: Final = 3  # deflate level, chosen by measurement (docs/render.md)
FAMILIES: Final = 256  # families kept, about 150 KB each for 1024 px boards
PER_FAMILY: Final = 3  # boards' worth of segments a family keeps (a preview between boards)

_families: OrderedDict[Hashable, OrderedDict[bytes, bytes]] = OrderedDict()
_lock = threading.Lock()  # the bot draws in worker threads
_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_LAST_BLOCK: Final = b"\x03\x00"  # an empty final deflate block ends the stream


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def clear() -> None:
    """Forget every kept segment (benchmarks time cold encodes with it)."""
    with _lock:
        _families.clear()


def _kept(family: Hashable) -> OrderedDict[bytes, bytes]:
    with _lock:
        kept = _families.get(family)
        if kept is None:
            kept = _families[family] = OrderedDict()
            if len(_families) > FAMILIES:
                _families.popitem(last=False)
        else:
            _families.move_to_end(family)
        return kept


def _segment(rows: bytes, kept: OrderedDict[bytes, bytes], limit: int) -> bytes:
    key = hashlib.blake2b(rows, digest_size=16).digest()
    with _lock:
        found = kept.get(key)
        if found is not None:
            kept.move_to_end(key)
            return found
    packer = zlib.compressobj(LEVEL, zlib.DEFLATED, -15)
    found = packer.compress(rows) + packer.flush(zlib.Z_FULL_FLUSH)
    with _lock:
        kept[key] = found
        while len(kept) > limit:
            kept.popitem(last=False)
    return found


def palette_png(img: Image.Image, family: Hashable = None) -> bytes:
    """``img`` (mode "P", 8 bits) as PNG bytes; ``family`` names the pictures (a match's
    boards) whose bands are likely to recur."""
    if img.mode != "P":
        raise ValueError("palette_png takes a palette image")
    w, h = img.size
    # Every row starts with its filter type, 0 (none), which suits flat palette images:
    # a zero column pasted in front gives those bytes in one copy rather than a join.
    framed = Image.new("P", (w + 1, h), 0)
    framed.paste(img, (1, 0))
    raw = framed.tobytes()
    stride = w + 1
    kept = _kept(family)
    limit = PER_FAMILY * -(-h // BAND)
    colours = bytes(img.getpalette() or [])
    parts = [b"\x78\x01"]  # zlib header: deflate, 32 KB window
    adler = 1
    for top in range(0, h, BAND):
        rows = raw[top * stride : min(top + BAND, h) * stride]
        adler = zlib.adler32(rows, adler)
        parts.append(_segment(rows, kept, limit))
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


def sheet_png(image: Image.Image) -> bytes:
    """A card sheet, scoreboard or bracket (drawn once, not banded) as PNG bytes.

    At zlib's default level, not Pillow's ``optimize`` (level 9 and a search over
    filters): for a sheet of twelve cards, 19 ms instead of 63 ms of CPU for a file 7 %
    larger (45 KB, not 42 KB)."""
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()

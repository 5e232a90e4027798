"""What a page sends, read as the live board reads it: a page is a stranger's program, so
every value is checked for its kind before anything looks it up."""

from __future__ import annotations

from typing import TypeGuard


def number(said: object) -> TypeGuard[int]:
    """Whether ``said`` is a number a page may send (a match's, an offer's, a request's)."""
    return isinstance(said, int) and not isinstance(said, bool) and said > 0

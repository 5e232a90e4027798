"""At most once: a state change claimed before its first await.

Two presses of one button arrive ~50 ms apart and interleave at every await. Where the
store cannot refuse the second by itself (a conditional update, a unique key), the
handler claims the change's key synchronously first; the second press finds the claim
and is told so instead of doing the work again."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from contextlib import contextmanager

from bot.services.refusal import Refusal


class InFlight:
    def __init__(self) -> None:
        self._held: set[Hashable] = set()

    @contextmanager
    def claim(self, key: Hashable, busy: str) -> Iterator[None]:
        """Hold ``key`` while the block runs; refuse with ``busy`` if it is held."""
        if key in self._held:
            raise Refusal(busy)
        self._held.add(key)
        try:
            yield
        finally:
            self._held.discard(key)


IN_FLIGHT = InFlight()

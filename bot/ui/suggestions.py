"""Autocomplete offers for a typed turn, made to fit Discord's limits.

Discord refuses a whole autocomplete answer (50035) when it holds more than 25 choices or a
choice whose name or value passes 100 characters. An offer repeats the turn typed so far,
which can be longer than that, so a long offer shows "…" and the tail of the turn, and its
value is a short key the ``move`` command turns back into the whole turn: the offers last
made to each person are remembered (bounded, in memory; an expired key gets a friendly
"type it again").
"""

from __future__ import annotations

from collections import OrderedDict

CHOICES = 25
CHOICE_TEXT = 100
ELLIPSIS = "…"
PEOPLE_REMEMBERED = 2000
OFFERS_REMEMBERED = 100  # per person: a few autocomplete rounds of one turn


def shortened(text: str, limit: int = CHOICE_TEXT) -> str:
    """``text`` if it fits, else "…" and as much of its end as fits: the end is what
    the person is typing, so that is what they must see."""
    if len(text) <= limit:
        return text
    return ELLIPSIS + text[len(text) - limit + len(ELLIPSIS) :]


class Offers:
    """The last offers made to each person: shortened value → the whole turn."""

    def __init__(self, people: int = PEOPLE_REMEMBERED) -> None:
        self._people = people
        self._offers: OrderedDict[int, dict[str, str]] = OrderedDict()

    def make(self, user_id: int, prefix: str, tokens: list[str]) -> list[tuple[str, str]]:
        """(name, value) pairs for ``tokens`` typed after ``prefix``, at most 25, each
        name and value at most 100 characters."""
        offered: list[tuple[str, str]] = []
        kept = self._offers.pop(user_id, {})
        for token in tokens[:CHOICES]:
            whole = prefix + token
            value = shortened(whole)
            if value != whole:
                kept[value] = whole
            offered.append((value, value))
        if kept:
            for old in list(kept)[: max(0, len(kept) - OFFERS_REMEMBERED)]:
                del kept[old]
            self._offers[user_id] = kept
            while len(self._offers) > self._people:
                self._offers.popitem(last=False)
        return offered

    def whole(self, user_id: int, typed: str) -> str | None:
        """The whole turn ``typed`` stands for: itself, or for a shortened offer (and
        whatever was typed after it) the turn it was made from; None for a shortened
        offer no longer remembered."""
        if not typed.startswith(ELLIPSIS):
            return typed
        kept = self._offers.get(user_id, {})
        picked = max((v for v in kept if typed.startswith(v)), key=len, default=None)
        return None if picked is None else kept[picked] + typed[len(picked) :]

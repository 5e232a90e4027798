"""Steps: the smallest decisions a player makes, and their single-step notation.

A plane action is one step (a placement, a climb, a level flight, a crash) or, for a
dive, one step per manoeuvre (swoop, power dive, Immelmann). Shots, ending a dive or
holding fire (``-``) and placing a cloud during setup are steps too. Every possible step
exists once, built at import time, so generating legal steps only collects existing
objects and steps compare by identity::

    >>> Step.parse("C3c<") is Step.parse("c3C<")
    True
    >>> str(Step.parse("+D1ne"))
    '+d1NE'
"""

from __future__ import annotations

import re
from typing import Final

from rules import board
from rules.errors import NotationError

PLACE: Final = "+"
CLIMB: Final = "C"
LEVEL: Final = "F"  # two cells
LEVEL1: Final = "F1"  # one cell, classic ruleset
SWOOP: Final = "S"
POWER: Final = "P"
IMMELMANN: Final = "I"
CRASH: Final = "X"
SHOOT: Final = "*"
END: Final = "-"
CLOUD: Final = "~"

MANOEUVRES: Final = (CLIMB, LEVEL, LEVEL1, SWOOP, POWER, IMMELMANN, CRASH)
DIVES: Final = frozenset((SWOOP, POWER, IMMELMANN))

STRAIGHT, LEFT, RIGHT = 0, 1, -1
_SUFFIX: Final = {STRAIGHT: "", LEFT: "<", RIGHT: ">"}


class Step:
    """One decision. ``cell`` is the acting plane's cell (or the target, for a shot or a
    cloud); ``turn`` is +1 left, -1 right or 0; ``facing`` is a placement's facing."""

    __slots__ = ("cell", "facing", "kind", "token", "turn")

    kind: str
    cell: int
    turn: int
    facing: int
    token: str

    def __init__(self, kind: str, cell: int = -1, turn: int = 0, facing: int = -1) -> None:
        self.kind = kind
        self.cell = cell
        self.turn = turn
        self.facing = facing
        if kind == PLACE:
            self.token = f"+{board.name(cell)}{board.DIRECTIONS[facing]}"
        elif kind in (SHOOT, CLOUD):
            self.token = f"{kind}{board.name(cell)}"
        elif kind == END:
            self.token = END
        else:
            self.token = f"{board.name(cell)}{kind}{_SUFFIX[turn]}"

    def __repr__(self) -> str:
        return f"Step({self.token!r})"

    def __str__(self) -> str:
        return self.token

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Pickled and copied steps come back as the one interned object.
        return (Step.parse, (self.token,))

    @property
    def is_manoeuvre(self) -> bool:
        return self.kind in _MANOEUVRE_SET

    @property
    def is_dive(self) -> bool:
        return self.kind in DIVES

    @staticmethod
    def parse(token: str) -> Step:
        """The step a single-step token names; :class:`NotationError` says why not."""
        found = BY_TOKEN.get(_canonical(token))
        if found is None:
            raise NotationError(token, _why_not(token))
        return found


_MANOEUVRE_SET: Final = frozenset(MANOEUVRES)
_TURNS: Final = (STRAIGHT, LEFT, RIGHT)


def _turning(kind: str) -> tuple[tuple[Step, ...], ...]:
    return tuple(tuple(Step(kind, c, t) for t in _TURNS) for c in board.CELLS)


# Tables indexed by cell; the turning ones hold (straight, left, right).
PLACEMENTS: Final = tuple(tuple(Step(PLACE, c, facing=f) for f in range(6)) for c in board.CELLS)
CLIMBS: Final = _turning(CLIMB)
LEVELS: Final = _turning(LEVEL)
LEVEL1S: Final = _turning(LEVEL1)
SWOOPS: Final = _turning(SWOOP)
POWER_DIVES: Final = _turning(POWER)
IMMELMANNS: Final = tuple(Step(IMMELMANN, c) for c in board.CELLS)
CRASHES: Final = tuple(Step(CRASH, c) for c in board.CELLS)
SHOTS: Final = tuple(Step(SHOOT, c) for c in board.CELLS)
CLOUDS: Final = tuple(Step(CLOUD, c) for c in board.CELLS)
END_STEP: Final = Step(END)

ALL_STEPS: Final[tuple[Step, ...]] = (
    *(s for group in PLACEMENTS for s in group),
    *(s for table in (CLIMBS, LEVELS, LEVEL1S, SWOOPS, POWER_DIVES) for g in table for s in g),
    *IMMELMANNS,
    *CRASHES,
    *SHOTS,
    *CLOUDS,
    END_STEP,
)
BY_TOKEN: Final[dict[str, Step]] = {s.token: s for s in ALL_STEPS}

_CELL_RE: Final = r"[a-k](?:1[01]|[1-9])"
_SPLIT: Final = re.compile(rf"^([+*~]?)({_CELL_RE})(.*)$", re.IGNORECASE | re.ASCII)


def _canonical(token: str) -> str:
    m = _SPLIT.match(token.strip())
    if m is None:
        return token.strip()
    return f"{m.group(1)}{m.group(2).lower()}{m.group(3).upper()}"


def _why_not(token: str) -> str:
    text = token.strip()
    if not text:
        return "the token is empty"
    m = _SPLIT.match(text)
    if m is None:
        head = re.match(r"^[+*~]?([a-z]+[0-9]*)", text, re.IGNORECASE | re.ASCII)
        if head and not board.is_cell_name(head.group(1)):
            return f"{head.group(1)!r} is not a cell of the board (a1..k11)"
        return "a step starts with a cell (c3C), a placement (+d1NE), a shot (*d4) or '-'"
    prefix, _, rest = m.groups()
    rest = rest.upper()
    if prefix == "+":
        return f"a placement ends with a facing (E, NE, NW, W, SW, SE), not {rest!r}"
    if prefix in ("*", "~"):
        return f"nothing may follow the cell of {'a shot' if prefix == '*' else 'a cloud'}"
    if rest == "":
        return "the cell must be followed by a manoeuvre (C, F, F1, S, P, I or X)"
    kind = rest.rstrip("<>")
    if kind not in _MANOEUVRE_SET:
        return (
            f"{kind!r} is not a manoeuvre: C climb, F level flight, F1 one cell (classic), "
            "S swoop, P power dive, I Immelmann, X crash"
        )
    if kind in (IMMELMANN, CRASH):
        return f"{kind} takes no turn suffix"
    return "a manoeuvre takes at most one turn suffix: < left or > right"

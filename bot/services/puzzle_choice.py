"""Which puzzle a person gets, and a try at one in words, without Discord or storage.

A newcomer's first puzzles (:data:`NEWCOMER`) are duels at the level of the lessons
they passed: each puzzle *needs* the lessons whose rules its position and answer use
(:func:`needs`: clouds on the board, a dive or a turn in the answer, a shot, a win …),
and the duels that need the fewest lessons not passed yet come first. Past that, a
puzzle near the person's rating. Among equally fitting puzzles the person's id picks,
so two newcomers do not all meet the same first puzzle.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Sequence
from typing import Final

from i18n import _, n_
from render.palette import SHAPE_WORDS, SHAPES, seat_colour_word
from rules import position
from rules.game import Game
from rules.notation import play_tokens
from rules.training import puzzles
from rules.training.puzzles import Puzzle

NEWCOMER: Final = 5  # puzzles tried: until then, duels at the level of the lessons
LEVEL_WINDOW: Final = 150.0  # a puzzle "at your level" is rated within this of you, if any is
THEME_LESSONS: Final = {  # the lesson that teaches what a theme is about
    "double crosshairs": "shoot",
    "double kill": "shoot",
    "dive attack": "shoot",
    "winning turn": "win",
    "escape": "escape",
    "cloud cover": "escape",
    "forced crash": "crash",
}


def needs(puzzle: Puzzle) -> frozenset[str]:
    """The lessons (ids) whose rules the puzzle's position and answer use."""
    game = position.parse(puzzle.position)
    found = {THEME_LESSONS[t] for t in puzzle.themes if t in THEME_LESSONS}
    if any(game.is_cloud(c) for c in range(91)):
        found.add("clouds")
    for token in puzzle.answer.split():
        moves = token.lstrip("+").lstrip("abcdefghijk0123456789")
        found |= {lesson for mark, lesson in _MOVES if mark in moves}
        if token.startswith("+"):
            found.add("enter")
    if not puzzle.position.startswith("duel/"):
        found.add("ffa")
    return frozenset(found)


_MOVES: Final = (
    ("C", "climb"),
    ("F", "level"),
    ("<", "turn"),
    (">", "turn"),
    ("S", "dive"),
    ("P", "dive"),
    ("X", "crash"),
)


def pick(
    found: Sequence[Puzzle],
    user_id: int,
    rating: float,
    tried: Collection[str],
    passed: Collection[str],
) -> Puzzle:
    """The puzzle to give: see the module's docstring."""
    fresh = [p for p in found if p.id not in tried] or list(found)
    if len(tried) < NEWCOMER:
        duels = [p for p in fresh if p.position.startswith("duel/")] or fresh
        missing = {p.id: len(needs(p) - set(passed)) for p in duels}
        fewest = min(missing.values())
        fresh = [p for p in duels if missing[p.id] == fewest]
    near = [p for p in fresh if abs(p.rating - rating) <= LEVEL_WINDOW]
    pool = near or sorted(fresh, key=lambda p: (abs(p.rating - rating), p.id))[:3]
    digest = hashlib.sha256(f"{user_id}:{len(tried)}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def side(game: Game, seat: int) -> str:
    """A seat named as the board shows it: ``P2 (sky blue, square)``."""
    return _(
        "{seat} ({colour}, {shape})",
        seat=game.mode.seat_label(seat),
        colour=_(seat_colour_word(game.mode, seat)),
        shape=_(SHAPE_WORDS[SHAPES[seat]]),
    )


def rivals(game: Game, seat: int) -> str:
    """The seats hostile to ``seat``, named as the board shows them."""
    hostile = [side(game, s) for s in range(game.seats) if game.hostile(seat, s)]
    return _(" and ").join(hostile)


def solution(start: Game, answer: str) -> Game:
    """The board after the puzzle's answer."""
    shown = start.copy()
    play_tokens(shown, answer.split())
    return shown


def what_it_keeps(start: Game, puzzle: Puzzle) -> str:
    """What the puzzle's answer comes to once the replies are played, in words."""
    if puzzle.best >= puzzles.WIN:
        return _("It wins the game outright.")
    own, hostile = _split(puzzle.best)
    return _(
        "After it and the best replies, planes left (on the board and in reserve): yours "
        "{own}, {rivals} {hostile}.",
        own=own,
        rivals=rivals(start, start.active),
        hostile=hostile,
    )


def why_not(start: Game, puzzle: Puzzle, outcome: int) -> str:
    """Why a try fell short of the puzzle's best outcome, naming the sides."""
    seat = start.active
    if puzzle.best >= puzzles.WIN:
        return _("This position has a turn that wins the game outright; yours did not.")
    if outcome <= -puzzles.WIN:
        return _(
            "After your turn the replies win the game for {rivals}.", rivals=rivals(start, seat)
        )
    own, hostile = _split(outcome)
    best_own, best_hostile = _split(puzzle.best)
    if own < best_own:
        n = best_own - own
        return n_(
            "After your turn and the replies you have {n} plane fewer than after the best turn.",
            "After your turn and the replies you have {n} planes fewer than after the best turn.",
            n,
        )
    n = max(hostile - best_hostile, 1)
    return n_(
        "After the best turn and the replies {rivals} would have {n} plane fewer than after yours.",
        "After the best turn and the replies {rivals} would have {n} planes fewer than after "
        "yours.",
        n,
        rivals=rivals(start, seat),
    )


def _split(outcome: int) -> tuple[int, int]:
    """A material outcome as (own planes, hostile planes)."""
    own = -(-outcome // puzzles.OWN)
    return own, own * puzzles.OWN - outcome

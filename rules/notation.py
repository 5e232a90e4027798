"""Move notation (rules spec §9): one token per plane action, a turn is its tokens.

* placement ``+d1NE``; climb ``c3C`` / ``c3C<``; level flight ``c3F>`` (classic also
  one cell, ``c3F1``); a dive is its manoeuvres after the cell, ``e6SS>P`` (S swoop,
  P power dive, I Immelmann); crash ``e6X``;
* a shot ``*d4`` follows the step it comes after (``e6S*f7P``) or stands alone at the
  start of a turn; ``-`` ends a dive, or the turn when only optional shots are left;
* during setup, ``~d4`` places a cloud (this project's addition to the notation).

A dive may also be written one manoeuvre per token, each from the plane's current cell:
for a plane at e6 facing E, ``e6S e7S> e8P`` is ``e6SS>P``. Tokens are read
case-insensitively and written with lower-case cells and upper-case letters. Only ASCII
letters and digits are read: Unicode case folding would let ``[a-k]`` match the dotless
``ı`` or the dotted ``İ`` (and ``\\d`` match ``٣``), which no cell name contains.

In automatic fire the game fires by itself; a shot in the text is then accepted when
it names a plane that was just shot down automatically, so that a game's own record
reads back in either fire mode.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from rules import board, events, steps
from rules.errors import NotationError
from rules.events import Event
from rules.steps import Step

if TYPE_CHECKING:
    from rules.game import Game

_CELL: Final = r"[a-z]+[0-9]*"
_SEGMENT: Final = re.compile(
    rf"""
    (?P<shot>\*(?P<target>{_CELL}))
    | (?P<cloud>~(?P<ccell>{_CELL}))
    | (?P<end>-)
    | (?P<place>\+(?P<pcell>{_CELL}?)(?P<facing>NE|NW|SE|SW|E|W))
    | (?P<cell>[a-k](?:1[01]|[1-9]))(?P<move>F1|[CFSPIX])(?P<turn1>[<>]?)
    | (?P<more>F1|[CFSPIX])(?P<turn2>[<>]?)
    """,
    re.IGNORECASE | re.VERBOSE | re.ASCII,
)


Applied = list[tuple[Step, tuple[Event, ...]]]


def play_token(game: Game, token: str, undoable: bool = False) -> Applied:
    """Apply one token (single-step or whole-plane) and return each step with its events.

    Raises :class:`NotationError` for a token that cannot be read and
    :class:`IllegalStep` for one the rules refuse; in both cases the steps of the token
    already applied stay applied (play on a copy for all-or-nothing)."""
    return play_tokens(game, [token], undoable)


def play_tokens(game: Game, tokens: Iterable[str], undoable: bool = False) -> Applied:
    """Apply tokens in order; a turn's text split on spaces works too."""
    done: Applied = []
    last = game.history[-1].events if game.history else game.opening
    auto = _auto_shot_cells(last)
    for token in tokens:
        auto = _play_one(game, token, undoable, auto, done)
    return done


def _auto_shot_cells(happened: Iterable[Event]) -> set[int]:
    return {e.cell for e in happened if isinstance(e, events.ShotDown) and e.automatic}


def _scan(token: str) -> list[re.Match[str]]:
    """The segments of a token; reads it whole before any of it is played."""
    text = token.strip()
    if not text:
        raise NotationError(token, "the token is empty")
    found = []
    pos = 0
    while pos < len(text):
        m = _SEGMENT.match(text, pos)
        if m is None or (m.group("more") and not pos):
            raise NotationError(token, _why_not(text, pos))
        if m.group("place") and pos:
            raise NotationError(token, "a placement starts a token")
        if m.group("cell") and pos:
            raise NotationError(token, "one token moves one plane, named at its start")
        found.append(m)
        pos = m.end()
    return found


def _play_one(game: Game, token: str, undoable: bool, auto: set[int], done: Applied) -> set[int]:
    plane_id = -1  # the plane this token moves, once known
    for m in _scan(token):
        if m.group("shot"):
            cell = _cell(token, m.group("target"))
            if game.settings.rules.auto_fire and cell in auto:
                auto.discard(cell)  # already fired by the game itself
                continue
            step = steps.SHOTS[cell]
        elif m.group("cloud"):
            step = steps.CLOUDS[_cell(token, m.group("ccell"))]
        elif m.group("end"):
            step = steps.END_STEP
        elif m.group("place"):
            cell = _cell(token, m.group("pcell") or "")
            step = steps.PLACEMENTS[cell][board.direction(m.group("facing"))]
        elif m.group("cell"):
            step = _manoeuvre(
                token, _cell(token, m.group("cell")), m.group("move"), m.group("turn1")
            )
            mover = game.plane_at(step.cell)
            plane_id = mover.id if mover is not None else -1
        else:
            mover = game.plane(plane_id) if plane_id >= 0 else None
            if mover is None or game.diving != plane_id:
                raise NotationError(token, "only a diving plane goes on with S, P or I")
            step = _manoeuvre(token, mover.cell, m.group("more"), m.group("turn2"))
            if step.kind not in steps.DIVES:
                raise NotationError(token, "a dive goes on only with S, P or I")
        happened = game.push(step) if undoable else game.play(step)
        done.append((step, happened))
        auto = _auto_shot_cells(happened)
    return auto


def _cell(token: str, text: str) -> int:
    try:
        return board.cell(text)
    except ValueError as exc:
        raise NotationError(token, str(exc)) from None


def _manoeuvre(token: str, cell: int, move: str, turn: str) -> Step:
    kind = move.upper()
    if kind in (steps.IMMELMANN, steps.CRASH) and turn:
        raise NotationError(token, f"{kind} takes no turn suffix")
    return Step.parse(f"{board.name(cell)}{kind}{turn}")


def _why_not(text: str, pos: int) -> str:
    rest = text[pos:]
    if pos == 0:
        head = re.match(r"[+*~]?[a-z]+[0-9]*[a-z]*[0-9]*[<>]*", text, re.IGNORECASE | re.ASCII)
        try:
            Step.parse(head.group(0) if head else text)
        except NotationError as exc:
            return exc.why
        return f"cannot read {text!r}"
    if rest[0] in "<>":
        return "a manoeuvre takes at most one turn suffix: < left or > right"
    return f"cannot read {rest!r} after {text[:pos]!r}"


# ------------------------------------------------------------------ writing


def turn_texts(game: Game) -> list[tuple[int, int, str]]:
    """The game record as (player-turn, seat, text) per player-turn, in order. Shots
    fired automatically are written where they happened; resignations and agreed
    draws are not notation and are left out."""
    words: dict[int, list[str]] = {}
    seats: dict[int, int] = {}
    turn = 1

    def add(word: str, attach: bool) -> None:
        line = words.setdefault(turn, [])
        if attach and line and line[-1] != "-":
            line[-1] += word
        else:
            line.append(word)

    def follow(happened: Iterable[Event]) -> None:
        """Write the shots the game fired by itself, in the turn they happened."""
        nonlocal turn
        for e in happened:
            if isinstance(e, events.TurnPassed):
                turn = e.turn
                seats[turn] = e.seat
            elif isinstance(e, events.ShotDown) and e.automatic:
                add(f"*{board.name(e.cell)}", attach=True)

    follow(game.opening)
    dive_cell = -1
    for played in game.history:
        if ":" in played.token or played.token == "draw":
            continue
        step = Step.parse(played.token)
        turn = played.turn
        seats.setdefault(turn, played.seat)
        if step.kind == steps.SHOOT:
            add(step.token, attach=True)
        elif step.kind in steps.DIVES and step.cell == dive_cell:
            add(step.token[len(board.name(step.cell)) :], attach=True)
        elif step.kind != steps.CLOUD:
            add(step.token, attach=False)
        dive_cell = _dive_cell_after(step, played.events, dive_cell)
        follow(played.events)
    return [(t, seats.get(t, 0), " ".join(line)) for t, line in sorted(words.items()) if line]


def _dive_cell_after(step: Step, happened: tuple[Event, ...], before: int) -> int:
    """Where the plane diving after ``step`` stands, or -1 when no dive goes on."""
    if step.kind == steps.SHOOT:
        cell = before
    elif step.kind in steps.DIVES:
        cell = step.cell
    else:
        return -1
    for e in happened:
        if isinstance(e, events.Moved):
            cell = e.path[-1]
        elif isinstance(e, events.DiveEnded | events.TurnPassed | events.GameOver):
            return -1
    return cell

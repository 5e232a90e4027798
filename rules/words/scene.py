"""The position in plain words, from the rules state: whose turn, every plane with its
cell, height and facing, the lines of fire, clouds, reserves and what just happened.

:func:`alt_text` fits Discord's limit for a picture's description (1024 characters,
the ``description`` of an attachment); it drops detail step by step until it fits but
always names every plane with its cell and height. :func:`position_text` is the longer
words-only board.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from rules import board
from rules.words.common import (
    DIRECTION_WORDS,
    SIDE_WORDS,
    join,
    plane_pose,
    plural,
    seat_name,
    turn_line,
)
from rules.words.telling import Told, tell_turns

if TYPE_CHECKING:
    from rules.game import Game, Plane

ALT_TEXT_LIMIT: Final = 1024  # Discord's maximum for an attachment's description


class _Detail(NamedTuple):
    """How much the concise form says; :func:`alt_text` tries these in order."""

    facing: str  # words, short (NE) or none
    told: str  # sentences, notation or none
    clouds: bool  # list every cloud (else only their number)
    aims: bool  # every hostile line of fire (else only caught planes)
    names: bool  # players' names beside their seat labels
    height: str  # "height " or, tersest, "h"


_DETAILS: Final = (
    _Detail("words", "sentences", True, True, True, "height "),
    _Detail("short", "sentences", True, True, True, "height "),
    _Detail("short", "notation", True, True, True, "height "),
    _Detail("short", "notation", False, True, True, "height "),
    _Detail("short", "none", False, False, True, "height "),
    _Detail("none", "none", False, False, True, "height "),
    _Detail("none", "none", False, False, False, "height "),
    _Detail("none", "none", False, False, False, "h"),
)


def header(game: Game) -> str:
    s = game.settings
    parts = [game.mode.title, f"{s.ruleset} rules", f"{s.fire} fire"]
    parts.extend(sorted(s.variants))
    line = ", ".join(parts) + "."
    teams = _teams(game)
    return f"{line} {teams}" if teams else line


def _teams(game: Game) -> str:
    m = game.mode
    if not m.family.teams:
        return ""
    groups: dict[int, list[str]] = {}
    for seat, team in enumerate(m.teams):
        groups.setdefault(team, []).append(m.seat_label(seat))
    return "Teams: " + " against ".join(join(g) for g in groups.values()) + "."


def _aims(game: Game) -> list[tuple[Plane, Plane]]:
    """(shooter, target) for every plane with a hostile plane in its line of fire."""
    found = []
    for p in game.planes():
        t = game.target(p)
        if t is not None and game.hostile(p.seat, t.seat):
            found.append((p, t))
    return found


def _in_cloud(game: Game, p: Plane) -> bool:
    return game.is_cloud(p.cell)


def _seat_facts(game: Game, seat: int, zeros: bool = True) -> list[str]:
    """Reserve, handicap tokens, rings and trophies (``zeros``: say 0 in reserve and
    0 trophies too)."""
    s = game.seat(seat)
    facts = [f"{s.reserve} in reserve"] if s.reserve or zeros else []
    if s.handicap:
        facts.append(plural(s.handicap, "handicap token"))
    if game.settings.rules.rings:
        facts.append(plural(s.rings, "ring"))
    if game.mode.family.trophies and (s.trophies or zeros):
        facts.append(f"{s.trophies} troph{'y' if s.trophies == 1 else 'ies'}")
    return facts


def _seat_heading(game: Game, names: Sequence[str], seat: int) -> str:
    side = SIDE_WORDS[game.mode.sides[seat]]
    return f"{seat_name(game, names, seat)}, home side {side}"


def _short_plane(game: Game, p: Plane, d: _Detail) -> str:
    text = f"{board.name(p.cell)} {d.height}{p.height}"
    if d.facing == "words":
        text += f" facing {DIRECTION_WORDS[p.facing]}"
    elif d.facing == "short":
        text += f" {board.DIRECTIONS[p.facing]}"
    if p.ace:
        text += " ace"
    if _in_cloud(game, p):
        text += " in a cloud"
    return text


def _last_turns(
    game: Game, names: Sequence[str], turns: Sequence[Told] | None
) -> list[tuple[str, Told]]:
    """The previous player-turn and the current one so far, each with a title."""
    told = list(tell_turns(game, names) if turns is None else turns)[-2:]
    out: list[tuple[str, Told]] = []
    current = [t for t in told if t.turn == game.turn and not game.is_over]
    earlier = [t for t in told if t not in current]
    if earlier:
        last = earlier[-1]
        out.append((f"Last turn, {seat_name(game, names, last.seat)}", last))
    if current:
        out.append(("This turn so far", current[0]))
    return out


def _concise(game: Game, names: Sequence[str], d: _Detail, turns: list[tuple[str, Told]]) -> str:
    if not d.names:
        names = ()
    parts = [header(game), turn_line(game, names)]
    for seat in range(game.seats):
        who = seat_name(game, names, seat)
        if game.seat(seat).out:
            parts.append(f"{who} is out.")
            continue
        planes = [_short_plane(game, p, d) for p in game.planes(seat)]
        facts = "; ".join([*planes, *_seat_facts(game, seat, zeros=False)]) or "no plane left"
        parts.append(f"{who}, {SIDE_WORDS[game.mode.sides[seat]]}: {facts}.")
    if d.aims:
        aims = [f"{board.name(p.cell)} aims at {board.name(t.cell)}" for p, t in _aims(game)]
        if aims:
            parts.append(f"Lines of fire: {'; '.join(aims)}.")
    caught = [
        f"{board.name(v.cell)} by {join(board.name(s.cell) for s in shooters)}"
        for v, shooters in _caught(game)
    ]
    if caught:
        parts.append(f"Caught: {'; '.join(caught)}.")
    clouds = sorted(game.clouds)
    if d.clouds and clouds:
        parts.append(f"Clouds: {', '.join(board.name(c) for c in clouds)}.")
    elif clouds:
        parts.append(f"{plural(len(clouds), 'cloud')}.")
    for title, told in turns if d.told != "none" else []:
        said = "; ".join(s.text for s in told.sentences) if d.told == "sentences" else told.notation
        parts.append(f"{title}: {said}.")
    return " ".join(parts)


def _caught(game: Game) -> list[tuple[Plane, tuple[Plane, ...]]]:
    found = []
    for vid, shooters in game.caught().items():
        victim = game.plane(vid)
        if victim is not None:
            found.append((victim, shooters))
    return sorted(found, key=lambda vs: vs[0].cell)


def alt_text(
    game: Game,
    names: Sequence[str] = (),
    limit: int = ALT_TEXT_LIMIT,
    turns: Sequence[Told] | None = None,
) -> str:
    """The position in at most ``limit`` characters, naming every plane with its cell
    and height (detail is dropped in the order of :data:`_DETAILS` until it fits).
    ``turns`` is the game's :func:`~rules.words.telling.tell_turns`, when known."""
    turns_told = _last_turns(game, names, turns)
    text = ""
    for detail in _DETAILS:
        text = _concise(game, names, detail, turns_told)
        if len(text) <= limit:
            return text
    return text[: limit - 1] + "…"


def position_text(game: Game, names: Sequence[str] = ()) -> str:
    """The words-only board: everything :func:`alt_text` says, in full, one fact a line."""
    lines = [header(game), turn_line(game, names)]
    aims = _aims(game)
    caught = {v.id: shooters for v, shooters in _caught(game)}
    for seat in range(game.seats):
        who = seat_name(game, names, seat)
        if game.seat(seat).out:
            lines += ["", f"{who} is out."]
            continue
        lines += ["", f"{_seat_heading(game, names, seat)}; {', '.join(_seat_facts(game, seat))}:"]
        own = game.planes(seat)
        if not own:
            lines.append("- no plane on the board")
        for p in own:
            facts = [f"- Plane at {plane_pose(p)}"]
            if _in_cloud(game, p):
                cannot = "" if game.settings.rules.fire_from_clouds else " (it cannot fire)"
                facts.append(f"in a cloud{cannot}")
            facts += [f"aims at {_plane_of(game, t)}" for s, t in aims if s is p]
            facts += [f"in the sights of {_plane_of(game, s)}" for s, t in aims if t is p]
            if p.id in caught:
                facts.append("caught: two hostile planes have it in their sights")
            lines.append("; ".join(facts) + ".")
    clouds = sorted(game.clouds)
    lines.append("")
    if clouds:
        names_ = ", ".join(board.name(c) for c in clouds)
        lines.append(f"{plural(len(clouds), 'cloud')}: {names_}.")
    else:
        lines.append("No clouds.")
    for title, told in _last_turns(game, names, None):
        lines += ["", f"{title}:", *(f"- {s.text}." for s in told.sentences)]
    return "\n".join(lines)


def _plane_of(game: Game, p: Plane) -> str:
    return f"{game.mode.seat_label(p.seat)}'s plane at {board.name(p.cell)}"

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

from i18n import N_, _, n_
from rules import board
from rules.variants import find_variant
from rules.words.common import direction, join, plane_pose, seat_name, side, turn_line
from rules.words.telling import Told, tell_turns

if TYPE_CHECKING:
    from rules.game import Game, Plane

ALT_TEXT_LIMIT: Final = 1024  # Discord's maximum for an attachment's description


_FIRE: Final = {"auto": N_("automatic fire"), "manual": N_("manual fire")}


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
    parts = [
        _(game.mode.title),
        _("{ruleset} rules", ruleset=s.ruleset),
        _(_FIRE.get(s.fire, s.fire)),
    ]
    parts.extend(sorted(_(find_variant(v).title) for v in s.variants))
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
    against = _(" against ").join(join(g) for g in groups.values())
    return _("Teams: {teams}.", teams=against)


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
    facts = [_("{n} in reserve", n=s.reserve)] if s.reserve or zeros else []
    if s.handicap:
        facts.append(n_("{n} handicap token", "{n} handicap tokens", s.handicap))
    if game.settings.rules.rings:
        facts.append(n_("{n} ring", "{n} rings", s.rings))
    if game.mode.family.trophies and (s.trophies or zeros):
        facts.append(n_("{n} trophy", "{n} trophies", s.trophies))
    return facts


def _seat_heading(game: Game, names: Sequence[str], seat: int) -> str:
    home = side(game.mode.sides[seat])
    return _("{who}, home side {side}", who=seat_name(game, names, seat), side=home)


def _short_plane(game: Game, p: Plane, d: _Detail) -> str:
    height = _("height {n}", n=p.height) if d.height != "h" else _("h{n}", n=p.height)
    text = f"{board.name(p.cell)} {height}"
    if d.facing == "words":
        text = _("{plane} facing {direction}", plane=text, direction=direction(p.facing))
    elif d.facing == "short":
        text += f" {board.DIRECTIONS[p.facing]}"
    if p.ace:
        text = _("{plane} ace", plane=text)
    if _in_cloud(game, p):
        text = _("{plane} in a cloud", plane=text)
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
        out.append((_("Last turn, {who}", who=seat_name(game, names, last.seat)), last))
    if current:
        out.append((_("This turn so far"), current[0]))
    return out


def _concise(game: Game, names: Sequence[str], d: _Detail, turns: list[tuple[str, Told]]) -> str:
    if not d.names:
        names = ()
    parts = [header(game), turn_line(game, names)]
    for seat in range(game.seats):
        who = seat_name(game, names, seat)
        if game.seat(seat).out:
            parts.append(_("{who} is out.", who=who))
            continue
        planes = [_short_plane(game, p, d) for p in game.planes(seat)]
        facts = "; ".join([*planes, *_seat_facts(game, seat, zeros=False)]) or _("no plane left")
        home = side(game.mode.sides[seat])
        parts.append(_("{who}, {side}: {facts}.", who=who, side=home, facts=facts))
    if d.aims:
        aims = [
            _("{cell} aims at {target}", cell=board.name(p.cell), target=board.name(t.cell))
            for p, t in _aims(game)
        ]
        if aims:
            parts.append(_("Lines of fire: {aims}.", aims="; ".join(aims)))
    caught = [
        _(
            "{cell} by {cells}",
            cell=board.name(v.cell),
            cells=join(board.name(s.cell) for s in shooters),
        )
        for v, shooters in _caught(game)
    ]
    if caught:
        parts.append(_("Caught: {caught}.", caught="; ".join(caught)))
    clouds = sorted(game.clouds)
    if d.clouds and clouds:
        parts.append(_("Clouds: {cells}.", cells=", ".join(board.name(c) for c in clouds)))
    elif clouds:
        parts.append(n_("{n} cloud.", "{n} clouds.", len(clouds)))
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
            lines += ["", _("{who} is out.", who=who)]
            continue
        lines += ["", f"{_seat_heading(game, names, seat)}; {', '.join(_seat_facts(game, seat))}:"]
        own = game.planes(seat)
        if not own:
            lines.append("- " + _("no plane on the board"))
        for p in own:
            facts = ["- " + _("Plane at {pose}", pose=plane_pose(p))]
            if _in_cloud(game, p):
                if game.settings.rules.fire_from_clouds:
                    facts.append(_("in a cloud"))
                else:
                    facts.append(_("in a cloud (it cannot fire)"))
            facts += [_("aims at {plane}", plane=_plane_of(game, t)) for s, t in aims if s is p]
            facts += [
                _("in the sights of {plane}", plane=_plane_of(game, s)) for s, t in aims if t is p
            ]
            if p.id in caught:
                facts.append(_("caught: two hostile planes have it in their sights"))
            lines.append("; ".join(facts) + ".")
    clouds = sorted(game.clouds)
    lines.append("")
    if clouds:
        names_ = ", ".join(board.name(c) for c in clouds)
        lines.append(n_("{n} cloud: {cells}.", "{n} clouds: {cells}.", len(clouds), cells=names_))
    else:
        lines.append(_("No clouds."))
    for title, told in _last_turns(game, names, None):
        lines += ["", f"{title}:", *(f"- {s.text}." for s in told.sentences)]
    return "\n".join(lines)


def _plane_of(game: Game, p: Plane) -> str:
    return _("{seat}'s plane at {cell}", seat=game.mode.seat_label(p.seat), cell=board.name(p.cell))

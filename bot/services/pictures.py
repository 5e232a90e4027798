"""The words for every picture that is not a board: cards, the series scoreboard,
tournament standings and brackets, a replay, a rules diagram.

Each description is built from the same rows the picture is drawn from, so the two
cannot disagree; boards are described by :mod:`rules.words.scene`. The bot attaches
these as alt text (``bot/ui/files.py``), which Discord caps at 1024 characters: long
tables drop their tie-break columns first, and the upload cuts whatever is still over.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from i18n import _, n_
from render.scoreboard import ScoreRow
from render.tournament import BracketBox, StandingRow, side_title
from rules.cards import CARDS, Card
from rules.game import Game
from rules.words.common import join, result_line
from rules.words.scene import ALT_TEXT_LIMIT, alt_text


def _number(value: float) -> str:
    return f"{value:g}"


def cards_words(cards: Iterable[Card], title: str = "", claimed_by: str = "") -> str:
    """A sheet of achievement cards (or one card, with who just claimed it)."""
    lead = f"{title}: " if title else ""
    if claimed_by:
        lead += _("Card claimed by {who}: ", who=claimed_by)
    listed = "; ".join(
        n_(
            "{card}, {n} point: {rule}",
            "{card}, {n} points: {rule}",
            c.points,
            card=_(c.name),
            rule=_(c.rule),
        )
        for c in cards
    )
    return f"{lead}{listed}"


def scoreboard_words(
    title: str, rows: Sequence[ScoreRow], subtitle: str = "", pool: Sequence[str] = ()
) -> str:
    """The series scoreboard: every side's wins, points and kept cards, and the pool."""
    parts = [_("Scoreboard, {title}.", title=title) + (f" {subtitle}." if subtitle else "")]
    for place, row in enumerate(rows, start=1):
        kept = join(_(CARDS[c].name) for c in row.kept) if row.kept else _("no cards")
        name = _("{name}, leading", name=row.name) if row.leader else row.name
        wins = n_("{n} win", "{n} wins", row.wins)
        points = n_("{n} point", "{n} points", row.points)
        parts.append(f"{place}. {name}: {wins}, {points}, {kept}.")
    if pool:
        parts.append(_("Still in the pool: {cards}.", cards=join(_(CARDS[c].name) for c in pool)))
    return " ".join(parts)


def standings_words(title: str, rows: Sequence[StandingRow], columns: Sequence[str] = ()) -> str:
    """The standings table, place by place; tie-breaks only while the whole fits."""

    def told(with_tiebreaks: bool) -> str:
        parts = [f"{title}."]
        for row in rows:
            line = n_(
                "{place}. {name}, {score} point",
                "{place}. {name}, {score} points",
                1 if row.score == 1 else 2,
                place=row.place,
                name=row.name,
                score=_number(row.score),
            )
            if with_tiebreaks and columns:
                line += (
                    " ("
                    + ", ".join(
                        f"{name} {_number(v)}"
                        for name, v in zip(columns, row.tiebreaks, strict=False)
                    )
                    + ")"
                )
            parts.append(line + (", " + _("dropped") if row.dropped else "") + ".")
        return " ".join(parts) if rows else _("{title}: nobody has played yet.", title=title)

    full = told(True)
    return full if len(full) <= ALT_TEXT_LIMIT else told(False)


def bracket_words(title: str, boxes: Sequence[BracketBox]) -> str:
    """An elimination bracket side by side and round by round: who meets whom, who won."""
    parts = [f"{title}."]
    sides = {b.side for b in boxes}
    for side in ("W", "L", "3RD", "GF"):
        mine = sorted((b for b in boxes if b.side == side), key=lambda b: (b.round, b.id))
        if not mine:
            continue
        parts.append(_("{side}:", side=side_title(side, sides)))
        for box in mine:
            # the picture shows a dash for both a bye and a slot still to be decided
            meeting = _(
                "round {round}, {first} against {second}",
                round=box.round,
                first=box.first or _("an open slot"),
                second=box.second or _("an open slot"),
            )
            won = ", " + _("{winner} won", winner=box.winner) if box.winner else ""
            parts.append(f"{meeting}{won};")
    return " ".join(parts).rstrip(";") + "."


def replay_words(game: Game, names: Sequence[str], match_id: int) -> str:
    """An animated replay: the match, how it ended, and its final position."""
    lead = _(
        "Animated replay of match #{id}, {players}, {n} turns.",
        id=match_id,
        players=_(" against ").join(names),
        n=game.turn,
    )
    ended = result_line(game, names)
    lead += f" {ended}" if ended else ""
    lead += " " + _("Final position: ")
    return lead + alt_text(game, names, limit=ALT_TEXT_LIMIT - len(lead))


def diagram_words(title: str, game: Game) -> str:
    """A rules page's diagram: the page's title and the position it shows."""
    lead = _("Diagram for {title}: ", title=title)
    return lead + alt_text(game, limit=ALT_TEXT_LIMIT - len(lead))

"""A player's rating told as a story, for ``/crosshairs profile``: the rating after
each rated game per kind of game (from ``rating_history``), the best win (the
highest-rated opponent beaten, rated as they were before that game), the current and
longest win streaks, and the record against one opponent. Read from storage only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from competition.ratings import FAMILIES, display_of, new_rating
from storage.db import Database

NEWCOMER = new_rating().mu  # a first game's rating before it


@dataclass(frozen=True)
class BestWin:
    opponent_id: int
    name: str
    rating: int  # their display rating before the game
    match_id: int


@dataclass(frozen=True)
class HeadToHead:
    won: int
    lost: int
    other: int  # drawn, or neither of the two won (another player of a free-for-all)


@dataclass(frozen=True)
class Story:
    history: dict[
        str, tuple[int, ...]
    ]  # family -> display rating before the first game, then after each
    best_win: BestWin | None
    streak: int  # rated or not, the finished games won in a row up to the latest
    longest: int


def streaks(results: Sequence[bool]) -> tuple[int, int]:
    """The current and the longest run of ``True`` (a win) in ``results``, oldest first."""
    current = longest = 0
    for won in results:
        current = current + 1 if won else 0
        longest = max(longest, current)
    return current, longest


def _winners(result_json: str | None) -> set[int]:
    return set(json.loads(result_json or "{}").get("winners") or ())


async def story(db: Database, user_id: int) -> Story:
    async with db.read() as conn:
        changes = await conn.fetchall(
            "SELECT mode_family, mu_before, mu_after FROM rating_history WHERE user_id = ? "
            "ORDER BY id",
            (user_id,),
        )
        played = await conn.fetchall(
            "SELECT m.id, s.seat, m.result_json FROM seats s JOIN matches m ON m.id = s.match_id "
            "WHERE s.user_id = ? AND m.status = 'finished' ORDER BY m.finished_at, m.id",
            (user_id,),
        )
        beaten = await conn.fetchall(
            "SELECT o.match_id, o.user_id, COALESCE(p.display_name, CAST(o.user_id AS TEXT)), "
            "o.mu_before, s.seat, m.result_json FROM rating_history mine "
            "JOIN rating_history o ON o.match_id = mine.match_id AND o.user_id <> mine.user_id "
            "JOIN seats s ON s.match_id = o.match_id AND s.user_id = o.user_id "
            "JOIN seats me ON me.match_id = mine.match_id AND me.user_id = mine.user_id "
            "JOIN matches m ON m.id = mine.match_id "
            "LEFT JOIN players p ON p.user_id = o.user_id "
            "WHERE mine.user_id = ? AND s.team <> me.team",
            (user_id,),
        )
        seats_won = {int(m): seat in _winners(r) for m, seat, r in played}
    history: dict[str, list[int]] = {}
    for family, before, after in changes:
        points = history.setdefault(
            str(family), [display_of(NEWCOMER if before is None else before)]
        )
        points.append(display_of(after))
    best: BestWin | None = None
    for match, opponent, name, before, seat, result in beaten:
        if not seats_won.get(int(match)) or seat in _winners(result):
            continue
        rating = display_of(NEWCOMER if before is None else before)
        if best is None or (rating, -match) > (best.rating, -best.match_id):
            best = BestWin(int(opponent), str(name), rating, int(match))
    current, longest = streaks(list(seats_won.values()))
    ordered = {f: tuple(history[f]) for f in FAMILIES if f in history}
    return Story(ordered, best, current, longest)


async def head_to_head(db: Database, user_id: int, opponent_id: int) -> HeadToHead:
    """Every finished game both sat in, as ``user_id`` saw it."""
    async with db.read() as conn:
        rows = await conn.fetchall(
            "SELECT a.seat, b.seat, m.result_json FROM seats a "
            "JOIN seats b ON b.match_id = a.match_id JOIN matches m ON m.id = a.match_id "
            "WHERE a.user_id = ? AND b.user_id = ? AND m.status = 'finished'",
            (user_id, opponent_id),
        )
    won = lost = other = 0
    for mine, theirs, result in rows:
        winners = _winners(result)
        if mine in winners and theirs not in winners:
            won += 1
        elif theirs in winners and mine not in winners:
            lost += 1
        else:
            other += 1
    return HeadToHead(won, lost, other)

"""Ratings in play: rate every finished rated match, and answer profile and leaderboard
questions, without Discord.

:mod:`competition.ratings` does the arithmetic; this module decides *whether* a match
is rated, turns its result into ranks, and stores the outcome with
:class:`storage.ratings.RatingRepo` (current rating plus a history row per player).

A match is **rated** when every seat is a person (the computer has no rating to move),
its players did not choose an unrated game (``challenge rated:false``),
and, by :func:`competition.ratings.rated`, nobody has handicap tokens, unless the
series it belongs to opted in. A match is marked as rated by its rating-history rows:
exactly the rated matches have them, so ratings rebuilt from the stored games would
replay those and nothing else. Aborted matches never finish with a result, so they
never reach this module at all, and a game that ended (on the clock) before every side
had flown a turn is unrated (docs/ratings.md, the abort rule).
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.services.live import LiveMatch
from bot.services.stores import Stores
from competition import ratings
from i18n import _, n_
from rules import events
from rules.game import Game
from storage.ratings import RatingChange

log = logging.getLogger(__name__)

HandicapPolicy = Callable[[LiveMatch], Awaitable[bool]]

# A manoeuvre step's token (rules spec §9): its cell, then manoeuvre letters with turns.
_ACTION = re.compile(r"[a-k](?:1[01]|[1-9])((?:(?:F1|[CFSPI])[<>]?)+)", re.IGNORECASE)
_MANOEUVRE = re.compile(r"F1|[CFSPI]", re.IGNORECASE)


@dataclass(frozen=True)
class RatingDecision:
    """Whether a finished match was rated, and why not when it was not."""

    rated: bool
    why_not: str = ""


@dataclass(frozen=True)
class Profile:
    user_id: int
    name: str
    ratings: dict[str, ratings.Rating]  # family → rating; only families played rated
    games: int  # finished matches, rated or not, in every server
    games_here: int  # of those, the ones played in the server asked about
    wins: int
    draws: int
    cards: tuple[str, ...]  # achievement cards kept in series, in the order won
    manoeuvres: tuple[tuple[str, int], ...]  # (step kind, times), most flown first, ≤ 3


@dataclass(frozen=True)
class BoardEntry:
    user_id: int
    name: str
    rating: ratings.Rating


def manoeuvres_in(token: str) -> list[str]:
    """The manoeuvres one stored step token flies, as step kinds (:mod:`rules.steps`):
    ``e6SS>P`` → ``S``, ``S``, ``P`` (swoop, swoop, power dive). Placements, shots,
    clouds, crashes and resignations fly none."""
    found = _ACTION.fullmatch(token)
    if found is None:
        return []
    return [m.upper() for m in _MANOEUVRE.findall(found.group(1))]


def sides_of(game: Game) -> list[list[int]]:
    """Seats per rating side: one per seat, or one per team in team modes."""
    if not game.mode.family.teams:
        return [[s] for s in range(game.seats)]
    teams = sorted(set(game.mode.teams))
    return [[s for s in range(game.seats) if game.mode.teams[s] == t] for t in teams]


def ranks_of(game: Game) -> list[int]:
    """The rank of each side (0 best) from how the finished ``game`` ended."""
    assert game.result is not None
    sides = sides_of(game)
    side_of = {seat: i for i, seats in enumerate(sides) for seat in seats}
    winners = {side_of[s] for s in game.result.winners}
    out: list[int] = []
    for played in game.history:
        for e in played.events:
            if isinstance(e, events.Eliminated) and side_of[e.seat] not in out:
                out.append(side_of[e.seat])
    # a shared trophy win can include sides already out: they place as winners
    eliminated = [s for s in out if s not in winners] if game.mode.family.trophies else []
    return ratings.ranks_from_result(game.mode.family.key, len(sides), winners, eliminated)


class Ratings:
    def __init__(self, stores: Stores, rate_handicapped: HandicapPolicy | None = None) -> None:
        self.db = stores.db
        self.repo = stores.ratings
        self.unrated = stores.unrated
        self._rate_handicapped = rate_handicapped

    async def mark_unrated(self, match_id: int) -> None:
        """Unrated by choice: a challenge its players marked ``rated:false`` is marked
        before its first board is up."""
        await self.unrated.mark(match_id)

    async def chosen_unrated(self, match_id: int) -> bool:
        """Whether the match's players chose it unrated (its rematch asks)."""
        return await self.unrated.contains(match_id)

    async def verdict(self, live: LiveMatch) -> RatingDecision:
        game = live.game
        if game.result is None:
            return RatingDecision(False, _("the game has no result"))
        if game.ended_early:
            return RatingDecision(False, _("the game ended before every side had flown a turn"))
        if any(e.user_id is None for e in live.seats):
            return RatingDecision(False, _("the computer played"))
        if await self.unrated.contains(live.id):
            return RatingDecision(False, _("the players chose an unrated game"))
        if any(e.user_id < 0 for e in live.seats if e.user_id is not None):
            return RatingDecision(False, _("a forgotten pilot played (their data was deleted)"))
        opted_in = self._rate_handicapped is not None and await self._rate_handicapped(live)
        if not ratings.rated(game.settings.handicaps, rate_handicapped=opted_in):
            return RatingDecision(False, _("handicap tokens were in play"))
        return RatingDecision(True)

    async def rate(self, live: LiveMatch) -> RatingDecision:
        """Rate a finished match once: a second call (a restart, a repeated event)
        finds its history rows and changes nothing."""
        verdict = await self.verdict(live)
        if not verdict.rated or await self._already_rated(live.id):
            return verdict
        game = live.game
        family = ratings.family_of(game.settings.mode)
        # verdict() made sure every seat is a person
        users = [[live.seats[s].user_id or 0 for s in seats] for seats in sides_of(game)]
        current: dict[int, ratings.Rating] = {}
        for team in users:
            for user in team:
                stored = await self.repo.get(user, family)
                if stored is not None:
                    current[user] = ratings.Rating(stored.mu, stored.sigma, stored.games)
        new = ratings.rate_game(family, users, ranks_of(game), current)
        await self.repo.apply(
            family, live.id, [RatingChange(u, r.mu, r.sigma) for u, r in new.items()]
        )
        return verdict

    async def _already_rated(self, match_id: int) -> bool:
        async with self.db.read() as conn:
            rows = list(
                await conn.fetchall(
                    "SELECT 1 FROM rating_history WHERE match_id = ? LIMIT 1", (match_id,)
                )
            )
        return bool(rows)

    # ------------------------------------------------------------ queries

    async def rating(self, user_id: int, family: str) -> ratings.Rating | None:
        stored = await self.repo.get(user_id, family)
        return None if stored is None else ratings.Rating(stored.mu, stored.sigma, stored.games)

    async def leaderboard(
        self, family: str, limit: int = 10, guild_id: int | None = None
    ) -> list[BoardEntry]:
        """Players of a family by display rating, best first; established ratings
        before provisional ones, so a lucky newcomer cannot head the board. With
        ``guild_id``, only players with a rated game in that server; their ratings are
        still the global ones."""
        here = (
            ""
            if guild_id is None
            else " AND r.user_id IN (SELECT h.user_id FROM rating_history h "
            "JOIN matches m ON m.id = h.match_id WHERE h.mode_family = r.mode_family "
            "AND m.guild_id = ?)"
        )
        async with self.db.read() as conn:
            rows = await conn.fetchall(
                "SELECT r.user_id, COALESCE(p.display_name, CAST(r.user_id AS TEXT)), r.mu, "
                "r.sigma, r.games FROM ratings r LEFT JOIN players p ON p.user_id = r.user_id "
                "WHERE r.mode_family = ?" + here,
                (family,) if guild_id is None else (family, guild_id),
            )
        entries = [
            BoardEntry(int(u), str(name), ratings.Rating(mu, sigma, games))
            for u, name, mu, sigma, games in rows
        ]
        entries.sort(key=lambda e: (e.rating.provisional, -e.rating.mu, e.user_id))
        return entries[:limit]

    async def profile(self, user_id: int, guild_id: int | None = None) -> Profile:
        """A player's ratings and results over every server; ``games_here`` counts
        the finished games of them played in ``guild_id``."""
        async with self.db.read() as conn:
            names = list(
                await conn.fetchall(
                    "SELECT display_name FROM players WHERE user_id = ?", (user_id,)
                )
            )
            played = await conn.fetchall(
                "SELECT s.seat, m.result_json, m.guild_id FROM seats s "
                "JOIN matches m ON m.id = s.match_id "
                "WHERE s.user_id = ? AND m.status = 'finished'",
                (user_id,),
            )
            kept = await conn.fetchall(
                "SELECT k.card FROM series_kept_cards k JOIN series_players p "
                "ON p.series_id = k.series_id AND p.side = k.side "
                "WHERE p.user_id = ? ORDER BY k.series_id, k.game_no, k.card",
                (user_id,),
            )
            tokens = await conn.fetchall("SELECT token FROM steps WHERE actor_id = ?", (user_id,))
            families = await conn.fetchall(
                "SELECT mode_family, mu, sigma, games FROM ratings WHERE user_id = ?", (user_id,)
            )
        wins = draws = here = 0
        for seat, result_json, guild in played:
            here += guild is not None and guild == guild_id
            # team wins list every seat of the team, so a seat in the list is a win
            winners = json.loads(result_json or "{}").get("winners")
            if winners == []:
                draws += 1
            elif winners and seat in winners:
                wins += 1
        flown = Counter(m for (token,) in tokens for m in manoeuvres_in(token))
        return Profile(
            user_id=user_id,
            name=str(names[0][0]) if names else str(user_id),
            ratings={f: ratings.Rating(mu, sigma, n) for f, mu, sigma, n in families},
            games=len(list(played)),
            games_here=here,
            wins=wins,
            draws=draws,
            cards=tuple(str(c) for (c,) in kept),
            manoeuvres=tuple(flown.most_common(3)),
        )


def shown_rating(rating: ratings.Rating) -> str:
    """``1234``, or ``1086?`` while provisional: the one number players read."""
    return f"{rating.display}{'?' if rating.provisional else ''}"


def describe_rating(rating: ratings.Rating) -> str:
    """``1234 (μ 27.10, σ 3.20, 40 games)``: the profile's full account."""
    games = n_("{n} game", "{n} games", rating.games)
    return f"{shown_rating(rating)} (μ {rating.mu:.2f}, σ {rating.sigma:.2f}, {games})"

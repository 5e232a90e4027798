"""Achievement cards for series play (rules spec §8).

The 2026 edition names eight achievement cards without printing them; these are the
project's eight (their catalogue is :mod:`rules.cards`). During a game the first player
(a team, in team play) to meet an unclaimed card's condition claims it; when the game
ends the winner keeps the cards they claimed and the others' claims go back to the pool.
:func:`series_standings` applies that rule over a list of finished games.

Decisions the spec leaves open (see docs/rules.md):

* a *kill* is made by the active player, the one who fires; a kill is "with a plane"
  when that plane, one of the active player's own, has the victim in its line of fire;
* *Ace of Aces* counts every kill a plane's line of fire took part in, whoever fired;
* *Power Diver* counts height lost by dive manoeuvres (swoop, power dive, Immelmann) in
  the current player-turn, not turbulence;
* *Untouchable* and *Last Ditch* count the winning player's (or team's) planes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from rules import events
from rules.cards import ALL_CARDS, CARDS, Card
from rules.events import Event
from rules.modes import Mode, Settings
from rules.pieces import Plane, Played

__all__ = [
    "ALL_CARDS",
    "CARDS",
    "Card",
    "Claim",
    "SeriesGame",
    "SeriesStandings",
    "Tracker",
    "TrackerState",
    "Watched",
    "claims",
    "series_standings",
]


class Watched(Protocol):
    """What a :class:`Tracker` reads of the game it watches (a game's state)."""

    settings: Settings
    mode: Mode
    phase: str
    active: int

    @property
    def seats(self) -> int: ...

    def planes(self, seat: int | None = None) -> list[Plane]: ...

    def is_cloud(self, cell: int) -> bool: ...

    def planes_left(self, seat: int) -> int: ...


class Record(Protocol):
    """What :func:`claims` reads of a game: its record."""

    opening: tuple[Event, ...]
    history: list[Played]


class TrackerState(NamedTuple):
    claimed: dict[str, int]
    kills: int
    plane_kills: dict[int, int]
    turn_kills: int
    began_in_cloud: frozenset[int]
    dive_loss: dict[int, int]
    lost_plane: frozenset[int]


class Tracker:
    """Watches one game and claims cards from its pool as their conditions are met.

    The game calls it at the moments that matter (a turn starting or ending, a shot,
    a dive, the end) and it appends :class:`~rules.events.CardClaimed` events."""

    def __init__(self, game: Watched) -> None:
        self.game = game
        self.pool = frozenset(game.settings.cards)
        self.state = TrackerState({}, 0, {}, 0, frozenset(), {}, frozenset())

    @property
    def claimed(self) -> dict[str, int]:
        """Card → the seat that claimed it in this game."""
        return dict(self.state.claimed)

    def snapshot(self) -> TrackerState:
        s = self.state
        return s._replace(
            claimed=dict(s.claimed), plane_kills=dict(s.plane_kills), dive_loss=dict(s.dive_loss)
        )

    def restore(self, state: TrackerState) -> None:
        self.state = state

    def clone(self, game: Watched) -> Tracker:
        other = Tracker(game)
        other.pool = self.pool
        other.state = self.snapshot()
        return other

    def _claim(self, card: str, seat: int, ev: list[Event]) -> None:
        if card in self.pool and card not in self.state.claimed:
            self.state.claimed[card] = seat
            ev.append(events.CardClaimed(seat, card))

    def turn_started(self, ev: list[Event]) -> None:
        g = self.game
        in_cloud = frozenset(p.id for p in g.planes(g.active) if g.is_cloud(p.cell))
        self.state = self.state._replace(turn_kills=0, began_in_cloud=in_cloud, dive_loss={})

    def dived(self, plane: Plane, loss: int) -> None:
        self.state.dive_loss[plane.id] = self.state.dive_loss.get(plane.id, 0) + loss

    def lost(self, seat: int) -> None:
        self.state = self.state._replace(lost_plane=self.state.lost_plane | {seat})

    def shot(self, victim: Plane, shooters: Sequence[Plane], by: int, ev: list[Event]) -> None:
        s = self.state
        self.lost(victim.seat)
        if s.kills == 0:
            self._claim("first-blood", by, ev)
        turn_kills = s.turn_kills + 1
        self.state = s = self.state._replace(kills=s.kills + 1, turn_kills=turn_kills)
        if turn_kills >= 2:
            self._claim("double-kill", by, ev)
        own = [p for p in shooters if p.seat == by]
        if any(p.id in s.began_in_cloud for p in own):
            self._claim("out-of-the-blue", by, ev)
        if any(s.dive_loss.get(p.id, 0) >= 4 for p in own):
            self._claim("power-diver", by, ev)
        for p in shooters:
            n = s.plane_kills.get(p.id, 0) + 1
            s.plane_kills[p.id] = n
            if n >= 3:
                self._claim("ace-of-aces", p.seat, ev)

    def turn_ended(self, ev: list[Event]) -> None:
        g = self.game
        if g.phase == "play" and sum(1 for p in g.planes(g.active) if p.height >= 5) >= 3:
            self._claim("top-cover", g.active, ev)

    def game_over(self, winners: tuple[int, ...], ev: list[Event]) -> None:
        g = self.game
        teams = g.mode.teams
        for seat in winners:
            side = [s for s in range(g.seats) if teams[s] == teams[seat]]
            if not any(s in self.state.lost_plane for s in side):
                self._claim("untouchable", seat, ev)
            if sum(g.planes_left(s) for s in side) == 2:
                self._claim("last-ditch", seat, ev)


class Claim(NamedTuple):
    card: str
    seat: int
    step: int  # index into Game.history of the step that earned it; -1: the opening


def claims(game: Record) -> list[Claim]:
    """Every card claimed in ``game``, in the order claimed, with the step that did it."""
    found = [Claim(e.card, e.seat, -1) for e in game.opening if isinstance(e, events.CardClaimed)]
    for i, played in enumerate(game.history):
        found.extend(
            Claim(e.card, e.seat, i) for e in played.events if isinstance(e, events.CardClaimed)
        )
    return found


# ---------------------------------------------------------------- series play


@dataclass(frozen=True)
class SeriesGame:
    """One finished game of a series: who sat where, who won, who claimed what.

    ``players`` names the competitor in each seat (a player, or a team in team play);
    ``winners`` and the claims' seats are seat numbers of that game."""

    players: tuple[str, ...]
    winners: tuple[int, ...]
    claims: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class SeriesStandings:
    kept: dict[str, str]  # card → competitor who keeps it
    pool: tuple[str, ...]  # cards still to be won, in card order
    points: dict[str, int]
    wins: dict[str, int]
    leaders: tuple[str, ...]  # most points, then most games won; several: shared

    @property
    def order(self) -> list[str]:
        """Competitors from first to last by the series tie-breaks."""
        return sorted(self.points, key=lambda p: (-self.points[p], -self.wins[p], p))


def series_standings(
    games: Iterable[SeriesGame],
    competitors: Iterable[str] = (),
    cards: Iterable[str] = ALL_CARDS,
) -> SeriesStandings:
    """Apply the series rule: each game's winners keep the cards they claimed in it,
    every other claim returns to the pool; most points wins the series, ties go to more
    games won and are otherwise shared."""
    pool = list(cards)
    kept: dict[str, str] = {}
    names = list(competitors)
    wins: dict[str, int] = dict.fromkeys(names, 0)
    for game in games:
        for name in game.players:
            wins.setdefault(name, 0)
        winning = {game.players[s] for s in game.winners}
        for name in winning:
            wins[name] += 1
        for card, seat in game.claims:
            who = game.players[seat]
            if who in winning and card in pool:
                pool.remove(card)
                kept[card] = who
    points = dict.fromkeys(wins, 0)
    for card, who in kept.items():
        points[who] += CARDS[card].points
    best = max(((points[p], wins[p]) for p in points), default=(0, 0))
    leaders = tuple(sorted(p for p in points if (points[p], wins[p]) == best))
    return SeriesStandings(kept, tuple(pool), points, wins, leaders)

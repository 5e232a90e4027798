"""Achievement series without Discord: N games between the same players, back to back,
with one pool of achievement cards that belongs to the series (rules spec §8).

The flow, which the Discord cog drives and the tests follow:

1. :meth:`AchievementSeries.create` stores the series: who plays (by *position*, the
   organiser first), each position's handicap tokens and the game settings.
2. :meth:`AchievementSeries.start_game` starts the next game as an ordinary match of the
   :class:`~bot.services.manager.Games` whose ``Settings.cards`` is the series'
   current pool and whose ``Settings.handicaps`` are the series handicaps; with
   ``alternate_first`` the positions rotate round the seats so the first player changes.
3. When the match ends (its :class:`~bot.services.events.MatchFinished` on the one
   bus), :meth:`AchievementSeries.record` books it: the winners keep the cards they claimed
   in it, every other claim goes back to the pool, decided by
   :func:`rules.achievements.series_standings`.
4. After the last game the series is finished, and :meth:`AchievementSeries.standings`
   names the winner by the rules' tie-breaks: most points, then most games won, then
   shared.

Competitors are *sides*: a player, or a team in team modes. Everything is stored, so a
restart anywhere in between loses nothing: the running game is an ordinary match, and
``start_game`` and ``record`` are safe to call twice.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from bot.services.live import AlreadyOver, ClockSettings, LiveMatch, NotYours, Occupant
from bot.services.manager import Games
from bot.services.refusal import Refusal
from competition import ratings
from competition.series import MAX_GAMES, seat_positions
from i18n import N_, _
from rules.achievements import (
    ALL_CARDS,
    CARDS,
    SeriesGame,
    SeriesStandings,
    claims,
    series_standings,
)
from rules.errors import RulesError
from rules.modes import MODES, Mode, Settings
from storage.errors import NotFound
from storage.ratings import RatingRepo
from storage.series import NewSeries, Series, SeriesPlayerSpec, SeriesRepo, SeriesStatus

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SeriesPlan:
    """What the organiser chose for every game of a series."""

    organiser: int
    mode: str = "duel"
    games: int = 3
    ruleset: str = "2026"
    planes: int | None = None
    fire: str = "auto"
    variants: tuple[str, ...] = ()
    clouds: str = "random"
    clock_per_turn: float | None = None
    clock_on_expiry: str = "lose"
    alternate_first: bool = True
    rate_handicapped: bool = False
    names: tuple[str, ...] = field(default=())  # per position
    strengths: tuple[str | None, ...] = field(default=())  # per position; computers only

    def settings(self, handicaps: Sequence[int] = (), cards: Sequence[str] = ()) -> Settings:
        try:
            return Settings(
                mode=self.mode,
                ruleset=self.ruleset,
                planes=self.planes,
                fire=self.fire,
                variants=frozenset(self.variants),
                handicaps=tuple(handicaps),
                cards=tuple(cards),
            )
        except RulesError as exc:
            raise Refusal(str(exc)) from None

    @property
    def clock(self) -> ClockSettings:
        return ClockSettings(self.clock_per_turn, self.clock_on_expiry)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> SeriesPlan:
        data: dict[str, Any] = json.loads(text)
        for key in ("variants", "names", "strengths"):
            data[key] = tuple(data.get(key, ()))
        return cls(**data)


def seating(series: Series, plan: SeriesPlan, game_no: int) -> list[int]:
    """The position sitting in each seat in game ``game_no`` (1-based)."""
    return seat_positions(MODES[plan.mode], series.alternate_first, game_no)


@dataclass(frozen=True)
class GameOutcome:
    """What one finished series game did to the series."""

    series: Series  # as stored after recording the game
    game_no: int
    winners: tuple[int, ...]  # sides; empty: drawn
    kept: dict[str, int]  # card → side keeping it
    returned: tuple[str, ...]  # cards claimed in the game that went back to the pool


class AchievementSeries:
    def __init__(self, games: Games, repo: SeriesRepo, ratings: RatingRepo) -> None:
        self.games = games
        self.repo = repo
        self.ratings = ratings

    async def find(self, series_id: int) -> Series | None:
        """The series of that number; None if there is none."""
        try:
            return await self.repo.get(series_id)
        except NotFound:
            return None

    async def get(self, series_id: int) -> Series:
        """The series of that number, which is known to exist."""
        return await self.repo.get(series_id)

    async def active_in(self, guild_id: int | None) -> list[Series]:
        """The series being played in that server (None: in direct messages)."""
        return await self.repo.list_active(guild_id)

    async def active_ids(self) -> list[int]:
        """Every series being played, in every server."""
        return await self.repo.active_ids()

    async def mark_finished(self, series_id: int) -> None:
        """A series whose every game is played is over."""
        await self.repo.set_status(series_id, SeriesStatus.FINISHED)

    async def stop_homeless(self, series_id: int) -> None:
        """A series whose channel is gone has nowhere to play its next game: it stops."""
        await self.repo.set_status(series_id, SeriesStatus.ABANDONED)

    async def move_to_thread(self, series_id: int, thread_id: int) -> None:
        """The series plays on in another thread (a moderator deleted its own)."""
        await self.repo.set_thread(series_id, thread_id)

    # ------------------------------------------------------------ creating

    async def create(
        self,
        plan: SeriesPlan,
        entrants: Sequence[Occupant],
        handicaps: Sequence[int],
        *,
        channel_id: int,
        guild_id: int | None,
        thread_id: int | None,
    ) -> Series:
        """Store a new series; ``entrants`` and ``handicaps`` are per position, and
        positions sit in the mode's seat order in the first game."""
        spec = self.check(plan.mode, entrants, plan.games)
        plan.settings(handicaps)  # refuses bad settings before anything is stored
        plan = _with_people(plan, entrants)
        series_id = await self.repo.create(
            NewSeries(
                mode=plan.mode,
                channel_id=channel_id,
                guild_id=guild_id,
                thread_id=thread_id,
                games_planned=plan.games,
                players=[
                    SeriesPlayerSpec(
                        position=i,
                        side=spec.teams[i] if spec.family.teams else i,
                        user_id=e.user_id,
                        display_name=e.name if e.user_id is not None else None,
                        handicap=h,
                    )
                    for i, (e, h) in enumerate(zip(entrants, handicaps, strict=True))
                ],
                pool=ALL_CARDS,
                settings_json=plan.to_json(),
                alternate_first=plan.alternate_first,
            )
        )
        return await self.repo.get(series_id)

    @staticmethod
    def check(mode: str, entrants: Sequence[Occupant], games: int) -> Mode:
        """Refuse a series that cannot be played, before anyone is asked to join it."""
        spec = MODES.get(mode)
        if spec is None:
            raise Refusal(_("unknown mode {mode}", mode=repr(mode)))
        if len(entrants) != spec.seats:
            raise Refusal(_("{mode} needs {n} players", mode=_(spec.title), n=spec.seats))
        if not 1 <= games <= MAX_GAMES:
            raise Refusal(_("a series has 1 to {n} games", n=MAX_GAMES))
        humans = [e.user_id for e in entrants if e.user_id is not None]
        if len(set(humans)) != len(humans):
            raise Refusal(_("a player can take only one seat"))
        return spec

    async def suggest_handicaps(self, mode: str, user_ids: Sequence[int | None]) -> list[int]:
        """Handicap tokens per position from the players' ratings in the mode's family:
        each player gets :func:`competition.ratings.suggest_handicap` against the
        strongest player (by mu); computers and the strongest get none."""
        family = ratings.family_of(mode)
        known: list[ratings.Rating | None] = []
        for user_id in user_ids:
            if user_id is None:
                known.append(None)
                continue
            stored = await self.ratings.get(user_id, family)
            known.append(
                ratings.new_rating()
                if stored is None
                else ratings.Rating(stored.mu, stored.sigma, stored.games)
            )
        present = [r for r in known if r is not None]
        if not present:
            return [0] * len(user_ids)
        best = max(present, key=lambda r: r.mu)
        return [0 if r is None else ratings.suggest_handicap(best, r) for r in known]

    # ------------------------------------------------------------- playing

    async def start_game(self, series_id: int) -> tuple[Series, LiveMatch]:
        """Start the series' next game, or return the one already running (so a
        repeated call, after a restart or a double event, starts nothing twice)."""
        series = await self.repo.get(series_id)
        if series.status is not SeriesStatus.ACTIVE:
            raise Refusal(
                _("series #{id} is {status}", id=series_id, status=_status(series.status))
            )
        running = next((g for g in series.games if g.winners is None), None)
        if running is not None and running.match_id is not None:
            live = await self.games.get(running.match_id)
            if not live.aborted:
                return series, live
            # An aborted game (called off before anybody flew) is played again under
            # the same number: nothing was rated or booked (docs/series.md).
        game_no = series.games_played + 1
        if game_no > series.games_planned:
            raise Refusal(_("series #{id} has played all its games", id=series_id))
        plan = SeriesPlan.from_json(series.settings_json)
        order = seating(series, plan, game_no)
        by_position = {p.position: p for p in series.players}
        entrants = [
            Occupant(
                by_position[pos].user_id,
                plan.names[pos],
                None if by_position[pos].user_id is not None else plan.strengths[pos] or "medium",
            )
            for pos in order
        ]
        settings = plan.settings(
            handicaps=[by_position[pos].handicap for pos in order], cards=series.current_pool
        )
        live = await self.games.create(
            entrants,
            settings,
            channel_id=series.channel_id,
            guild_id=series.guild_id,
            thread_id=series.thread_id,
            cloud_setup=plan.clouds,
            seed=series_id * 1009 + game_no,
            clock=plan.clock,
        )
        await self.repo.start_game(series_id, game_no, live.id)
        return await self.repo.get(series_id), live

    async def series_of_match(self, match_id: int) -> tuple[Series, int] | None:
        """The series a match belongs to, with its game number; None for other matches."""
        # SeriesRepo looks series up by id only; this one reverse lookup is all we need.
        async with self.games.db.read() as conn:
            rows = list(
                await conn.fetchall(
                    "SELECT series_id, game_no FROM series_games WHERE match_id = ?", (match_id,)
                )
            )
        if not rows:
            return None
        return await self.repo.get(int(rows[0][0])), int(rows[0][1])

    async def record(self, live: LiveMatch) -> GameOutcome | None:
        """Record the finished match ``live`` if it is a series game not yet recorded;
        finish the series after its last game. None for other matches."""
        found = await self.series_of_match(live.id)
        result = live.game.result
        if found is None or result is None:
            return None
        series, game_no = found
        plan = SeriesPlan.from_json(series.settings_json)
        side_of_seat = self.sides_by_seat(series, plan, game_no)
        winners = tuple(sorted({side_of_seat[s] for s in result.winners}))
        # a game that ended before every side had flown a turn earns no card
        claimed = [(c.card, side_of_seat[c.seat]) for c in claims(live.game)]
        made = [] if live.game.ended_early else claimed
        game = SeriesGame(
            players=tuple(str(s) for s in range(max(side_of_seat) + 1)),
            winners=winners,
            claims=tuple((card, side) for card, side in made),
        )
        kept = {
            card: int(side)
            for card, side in series_standings([game], cards=live.game.settings.cards).kept.items()
        }
        stored = next(g for g in series.games if g.game_no == game_no)
        if stored.winners is None:
            await self.repo.record_game(
                series.id,
                game_no,
                live.id,
                winners,
                [(card, side, CARDS[card].points) for card, side in kept.items()],
            )
            if game_no >= series.games_planned:
                await self.repo.set_status(series.id, SeriesStatus.FINISHED)
        returned = tuple(card for card, _ in claimed if card not in kept)
        return GameOutcome(await self.repo.get(series.id), game_no, winners, kept, returned)

    async def abandon(self, series_id: int, user_id: int) -> Series:
        """The organiser calls the series off; the game being played carries on alone."""
        series = await self.repo.get(series_id)
        if SeriesPlan.from_json(series.settings_json).organiser != user_id:
            raise NotYours(_("only the series' organiser can call it off"))
        if series.status is not SeriesStatus.ACTIVE:
            raise AlreadyOver(
                _("series #{id} is already {status}", id=series_id, status=_status(series.status))
            )
        await self.repo.set_status(series_id, SeriesStatus.ABANDONED)
        return await self.repo.get(series_id)

    async def set_handicap(
        self, series_id: int, organiser: int, user_id: int | None, tokens: int
    ) -> Series:
        """Change one player's handicap tokens from the next game on."""
        series = await self.repo.get(series_id)
        if SeriesPlan.from_json(series.settings_json).organiser != organiser:
            raise NotYours(_("only the series' organiser can set handicaps"))
        if not 0 <= tokens <= ratings.MAX_HANDICAP:
            raise Refusal(_("handicaps are 0 to {n} tokens", n=ratings.MAX_HANDICAP))
        player = next((p for p in series.players if p.user_id == user_id), None)
        if player is None:
            raise Refusal(_("that player is not in this series"))
        await self.repo.set_handicap(series_id, player.position, tokens)
        return await self.repo.get(series_id)

    async def rates_handicapped(self, live: LiveMatch) -> bool:
        """Whether the organiser of the series this match belongs to chose to rate
        handicapped games (False for matches outside a series)."""
        found = await self.series_of_match(live.id)
        return found is not None and SeriesPlan.from_json(found[0].settings_json).rate_handicapped

    # ----------------------------------------------------------- reporting

    @staticmethod
    def sides_by_seat(series: Series, plan: SeriesPlan, game_no: int) -> list[int]:
        """The side sitting in each seat of game ``game_no``."""
        side = {p.position: p.side for p in series.players}
        return [side[pos] for pos in seating(series, plan, game_no)]

    @staticmethod
    def side_names(series: Series) -> dict[int, str]:
        """How each side is called: the player's name, or "Team A: ann & bo"."""
        plan = SeriesPlan.from_json(series.settings_json)
        members: dict[int, list[str]] = {}
        for p in series.players:
            members.setdefault(p.side, []).append(plan.names[p.position])
        if not MODES[plan.mode].family.teams:
            return {side: names[0] for side, names in members.items()}
        return {
            side: f"Team {chr(ord('A') + side)}: {' & '.join(names)}"
            for side, names in members.items()
        }

    @staticmethod
    def standings(series: Series) -> SeriesStandings:
        """The series standings by the rules' own function. Only the kept cards are
        replayed: they are exactly the winners' claims, and the rest never scored."""
        games = [
            SeriesGame(
                players=tuple(str(s) for s in sorted({p.side for p in series.players})),
                winners=g.winners or (),
                claims=tuple((k.card, k.side) for k in series.kept if k.game_no == g.game_no),
            )
            for g in series.games
            if g.winners is not None
        ]
        sides = sorted({str(p.side) for p in series.players})
        return series_standings(games, sides, series.pool)


def _with_people(plan: SeriesPlan, entrants: Sequence[Occupant]) -> SeriesPlan:
    return replace(
        plan,
        names=tuple(e.name for e in entrants),
        strengths=tuple(e.strength for e in entrants),
    )


_STATUS = {  # English, marked for translation (i18n)
    SeriesStatus.ACTIVE: N_("active"),
    SeriesStatus.FINISHED: N_("finished"),
    SeriesStatus.ABANDONED: N_("abandoned"),
}


def _status(status: SeriesStatus) -> str:
    """A series' status in words."""
    return _(_STATUS[status])

"""A match as the services hold it in memory (:class:`LiveMatch`), who sits in it, its
clock settings, and what one action did (:class:`Update`); the game manager's parts
share these."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.services.clock import Clock
from bot.services.refusal import Refusal
from bot.services.shards import Shards
from bot.services.workers import Workers
from i18n import _, current
from rules.events import Event
from rules.game import Game
from rules.steps import Step
from rules.words.common import seat_name, turn_line
from rules.words.telling import Telling, tell
from storage.live_index import LiveIndexRepo
from storage.matches import Match, MatchRepo, MatchStatus

COMPUTER_STRENGTHS = ("easy", "medium", "hard", "expert")
# a player is reminded once less than this share of their turn's time is left
REMIND_SHARE = 0.25


class NotYours(Refusal):
    """The person may not do that here: they are not seated, or it is not their turn."""


class AlreadyOver(Refusal):
    """The moment has passed: the game is over or called off, the seat is already out,
    or the button belongs to a position the game has left."""


class AlreadyOut(AlreadyOver):
    """The person's seat is already out of the game (the others may play on)."""


class MatchUnavailable(Refusal):
    """Storage cannot give or take the match now (it is down, or the stored match is
    damaged); nothing changed, and a later try may work."""


@dataclass(frozen=True)
class Occupant:
    """Who sits in a seat: a Discord user, or the computer (``user_id`` None)."""

    user_id: int | None
    name: str
    strength: str | None = None  # computer players only


@dataclass(frozen=True)
class ClockSettings:
    """Time per player-turn (None: untimed) and what happens when it runs out:
    ``lose`` (the player is out at once) or ``claim`` (an opponent may claim it)."""

    per_turn: float | None = None
    on_expiry: str = "lose"

    def to_json(self) -> str:
        return json.dumps({"per_turn": self.per_turn, "on_expiry": self.on_expiry})

    @classmethod
    def from_json(cls, text: str) -> ClockSettings:
        data: dict[str, Any] = json.loads(text or "{}")
        return cls(data.get("per_turn"), data.get("on_expiry", "lose"))


@dataclass
class LiveMatch:
    """A match in memory: its stored row, the game, and who sits where."""

    record: Match
    game: Game
    seats: list[Occupant]
    clock: ClockSettings
    deadline: float | None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Held while the match's messages are brought up to date: two actions finishing
    # close together must not both replace the same board message, or both would post
    # a new one. Separate from ``lock`` so that drawing never delays the next action.
    showing: asyncio.Lock = field(default_factory=asyncio.Lock)
    draw_offers: set[int] = field(default_factory=set)
    reminded: bool = False
    # while its thread is archived or locked and the bot may not reopen it: the turn's
    # time left (the stored deadline is cleared meanwhile, so no clock runs it down)
    paused: float | None = None
    # the rest of the computer's planned turn, by the ply it starts at
    computer_plan: dict[int, list[list[str]]] = field(default_factory=dict)
    # the game told in words by language, with the state it tells (see :meth:`telling`)
    _told: tuple[Game, object, list[str], dict[str, Telling]] | None = field(
        default=None, repr=False
    )

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.seats]

    @property
    def ply(self) -> int:
        return len(self.game.history)

    @property
    def aborted(self) -> bool:
        return self.record.status is MatchStatus.ABANDONED

    @property
    def over(self) -> bool:
        """Finished or called off: nothing more can be played in it."""
        return self.game.is_over or self.aborted

    def over_text(self) -> str:
        return _("this match was aborted: it is over") if self.aborted else _("this game is over")

    def seats_of(self, user_id: int) -> list[int]:
        return [i for i, e in enumerate(self.seats) if e.user_id == user_id]

    def user_to_move(self) -> int | None:
        seat = self.game.to_move
        return None if seat is None else self.seats[seat].user_id

    @property
    def computer_to_move(self) -> bool:
        seat = self.game.to_move
        return seat is not None and self.seats[seat].user_id is None

    def who(self, seat: int) -> str:
        return seat_name(self.game, self.names, seat)

    def status_line(self) -> str:
        return turn_line(self.game, self.names)

    async def committed(self) -> LiveMatch:
        """The match as storage holds it, to be shown: a copy read under the match's
        lock. An action holds the lock from the moment it changes the game in memory
        until storage has it, so a board drawn meanwhile from the match itself could show
        what a crash then loses (one showed a resignation that never reached storage)."""
        async with self.lock:
            self.telling()  # worked out once: the copy shares what was told of this state
            seen = replace(self, game=self.game.copy(), draw_offers=set(self.draw_offers))
            if (kept := self._told) is not None:
                seen._told = (seen.game, *kept[1:])
            return seen

    def telling(self) -> Telling:
        """The game in words, worked out once per state and language: telling replays
        the game from its start, and an action's sentences, the board's turn so far, the
        finished turns and the picture's alt text all read it (the mover's answer in
        their language, the thread in the server's)."""
        game, names = self.game, self.names
        # the last record entry is a new object after every step, take-back or reload
        last = game.history[-1] if game.history else None
        kept = self._told
        if kept is None or kept[0] is not game or kept[1] is not last or kept[2] != names:
            kept = self._told = (game, last, names, {})
        told = kept[3]
        language = current()
        if language not in told:
            told[language] = tell(game, names)
        return told[language]


def turn_of(live: LiveMatch) -> tuple[int, int | None]:
    """Whose turn it is: the player-turn and the seat to move."""
    return live.game.turn, live.game.to_move


def remind_seconds(clock: ClockSettings) -> float | None:
    """How long before its deadline a turn of this clock is reminded."""
    return None if clock.per_turn is None else clock.per_turn * REMIND_SHARE


def clock_due(live: LiveMatch, now: float) -> float | None:
    """When the match's turn clock next needs a look (storage indexes it): the
    reminder, then the deadline; None when the clock has nothing left to do this turn
    (none runs, or it ran out where the player is not put out at once)."""
    per_turn, deadline = live.clock.per_turn, live.deadline
    if live.over or per_turn is None or deadline is None:
        return None
    if not live.reminded:
        return deadline - per_turn * REMIND_SHARE
    loses = live.clock.on_expiry == "lose" and not live.computer_to_move
    return deadline if deadline > now or loses else None


@dataclass(frozen=True)
class Update:
    """What one action did: its events and the words that explain them."""

    match: LiveMatch
    events: tuple[Event, ...]
    lines: list[str]
    # this action ended the match: of two racing actions, only the one that did
    ended: bool = False
    # this action passed the turn to another player, who is to move from this ply on:
    # the key of its one TurnPassed (bot.services.events)
    passed_at: int | None = None
    # who acted (None: the computer, a clock)
    actor: int | None = None
    # what the board says of this action until the next (a takeback, a vacation): each
    # worded when it is shown, in the language of whoever the board is for
    notes: tuple[Callable[[], str], ...] = field(default=(), compare=False)

    def text(self) -> str:
        """The explanation, then whose turn it is (the result line already says who
        won once the game is over)."""
        status = self.match.status_line()
        lines = self.lines if status in self.lines else [*self.lines, status]
        return "\n".join(lines).strip()

    def noted(self) -> list[str]:
        """The notes, worded in the language spoken now."""
        return [note() for note in self.notes]


class MatchHost(Protocol):
    """What the manager's parts for the computer and the clocks use of the manager: the
    one place that loads matches, commits steps and ends games."""

    clock: Clock
    workers: Workers
    shards: Shards
    repo: MatchRepo
    index: LiveIndexRepo

    async def get(self, match_id: int) -> LiveMatch: ...

    async def current(self, match_id: int) -> LiveMatch: ...

    async def commit(
        self, live: LiveMatch, chosen: Sequence[Step], actor: int | None
    ) -> Update: ...

    async def concede(
        self, live: LiveMatch, seat: int, reason: str, actor: int | None
    ) -> Update: ...

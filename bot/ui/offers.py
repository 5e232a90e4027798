"""What waits for an answer, in memory (it is short-lived, and a press after a restart is
told so politely): a lobby's :class:`Table`, a series :class:`Invitation`,
and the :class:`Pending` book that keeps each kind, built once by :mod:`bot.app`."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

from bot.services.agreed import Plan
from bot.services.live import ClockSettings, Occupant
from bot.services.series import SeriesPlan
from bot.ui.options import game_settings_text, game_settings_words
from i18n import _, n_
from rules.modes import MODES, Settings
from rules.words.common import side

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

KEEP_CLOSED = 1000  # closed offers whose fate a late press is told

T = TypeVar("T")


class Pending(Generic[T]):
    """Offers of one kind waiting for an answer, by number, and what became of the
    recently closed ones, so that a late or second press is told plainly ("already
    accepted") instead of being refused in general terms."""

    def __init__(self, keep_closed: int = KEEP_CLOSED) -> None:
        self._open: dict[int, T] = {}
        self._closed: dict[int, str] = {}
        self._keep = keep_closed
        self._ids = itertools.count(1)

    def number(self) -> int:
        """A new offer's number."""
        return next(self._ids)

    def add(self, offer_id: int, offer: T) -> None:
        """Open an offer (again: one whose match could not be started is put back)."""
        self._closed.pop(offer_id, None)
        self._open[offer_id] = offer

    def get(self, offer_id: int) -> T | None:
        return self._open.get(offer_id)

    def why_closed(self, offer_id: int) -> str | None:
        return self._closed.get(offer_id)

    def close(self, offer_id: int, why: str) -> None:
        """Take the offer off the book, with no await between the caller's check and
        this: of two presses racing to act on one offer, only the first gets past."""
        self._open.pop(offer_id, None)
        self._closed[offer_id] = why
        if len(self._closed) > self._keep:  # only recent presses need the reason
            del self._closed[next(iter(self._closed))]


@dataclass
class Table:
    """A lobby (open seats), or a challenge's two seats as its words describe them
    (:mod:`bot.ui.challenges`)."""

    id: int
    host: Occupant
    settings: Settings
    clouds: str
    clock: ClockSettings
    channel_id: int
    guild_id: int | None
    seats: list[Occupant | None] = field(default_factory=list)
    invited: int | None = None  # the challenged user, for a challenge
    invited_name: str = ""  # their name, shown in the seat they are asked to take
    rated: bool = True  # False: the players chose an unrated game (takebacks allowed)

    @classmethod
    def agreed(
        cls,
        offer_id: int,
        host: Occupant,
        plan: Plan,
        seats: list[Occupant | None] | None = None,
        invited: Occupant | None = None,
    ) -> Table:
        """An offer's game (a challenge, a rematch) as a table, for its words: its
        ``plan``'s seats unless ``seats`` says otherwise, ``invited`` named in theirs."""
        return cls(
            id=offer_id,
            host=host,
            settings=plan.settings,
            clouds=plan.clouds,
            clock=plan.clock,
            channel_id=plan.channel_id,
            guild_id=plan.guild_id,
            seats=list(plan.seats) if seats is None else seats,
            invited=None if invited is None else invited.user_id,
            invited_name="" if invited is None else invited.name,
            rated=plan.rated,
        )

    @property
    def full(self) -> bool:
        return all(s is not None for s in self.seats)

    def describe(self) -> str:
        """The table's settings (each one that differs from the default named) and its
        seats, each with the home side its planes come on from."""
        m = self.settings.spec
        lines = [" · ".join([f"**{_(m.title)}**", *settings_words(self.settings, self)])]
        for i, entrant in enumerate(self.seats):
            if entrant is not None:
                who = entrant.name + (" 🤖" if entrant.user_id is None else "")
            elif self.invited_name:
                who = _("{name} (invited)", name=self.invited_name)
            else:
                who = _("— open —")
            home = _("home side {side}", side=side(m.sides[i]))
            lines.append(f"`{m.seat_label(i)}` {who} · {home}")
        return "\n".join(lines)


def settings_words(settings: Settings, table: Table) -> list[str]:
    """The game's settings (planes and clouds always named), then its clock."""
    said = game_settings_words(settings, table.clouds)
    if not table.rated:
        said.append(_("unrated (takebacks allowed)"))
    if table.clock.per_turn:
        said.append(_clock_text(table.clock))
        if table.clock.on_expiry == "claim":
            said.append(_("on time out the opponent may claim"))
    return said


def _clock_text(clock: ClockSettings) -> str:
    seconds = clock.per_turn or 0
    if seconds >= 86400:
        return _("{n} day(s) a turn", n=f"{seconds / 86400:g}")
    return _("{n} min a turn", n=f"{seconds / 60:g}")


@dataclass
class Invitation:
    id: int
    plan: SeriesPlan
    entrants: list[Occupant]  # per position; the organiser first
    handicaps: list[int]
    guild_id: int | None
    expires_at: float
    waiting: set[int]  # the invited people who have not accepted yet
    accepted: list[str] = field(default_factory=list)

    def text(self) -> str:
        plan = self.plan
        mentions = ", ".join(f"<@{e.user_id}>" for e in self.entrants[1:] if e.user_id)
        invites = n_(
            "**{organiser}** invites you to a series of {n} game of {mode}",
            "**{organiser}** invites you to a series of {n} games of {mode}",
            plan.games,
            organiser=self.entrants[0].name,
            mode=_(MODES[plan.mode].title),
        )
        if plan.clock_per_turn:
            invites += " " + _("({n} s a turn)", n=f"{plan.clock_per_turn:g}")
        every = game_settings_text(plan.settings(self.handicaps), plan.clouds)
        lines = [
            f"🎴 {mentions}: {invites}.",
            _("Every game: {settings}.", settings=every),
            _("Players: {names}", names=", ".join(e.name for e in self.entrants)),
            _(
                "Nothing is rated or timed until everyone accepts; the invitation expires {when}.",
                when=f"<t:{int(self.expires_at)}:R>",
            ),
        ]
        if self.accepted:
            lines.append(_("Accepted: {names}", names=", ".join(self.accepted)))
        return "\n".join(lines)


@dataclass(frozen=True)
class Offers:
    """The bot's books of offers, one of each kind."""

    tables: Pending[Table] = field(default_factory=Pending)  # lobbies
    invitations: Pending[Invitation] = field(default_factory=Pending)  # series


def offers_of(bot: CrosshairsBot) -> Offers:
    found = bot.offers
    assert isinstance(found, Offers), "bot.app sets the offers up before any feature"
    return found

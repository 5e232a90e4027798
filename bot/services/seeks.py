"""Quick pairing without Discord: players seeking a duel in a server, paired with the
first who seeks the same game there, or given the computer once their wait runs out.

Seeks live in memory, like lobbies (:mod:`bot.ui.invites`): a seek is a
few minutes old at most, and a restart forgets it — its waiting message's **Cancel** then
says so, and the player seeks again (docs/correspondence.md, "Quick pairing"). Every
change here is made with no ``await`` between its check and its change, so of two players
seeking the same game at once exactly one finds the other waiting, and of a press on
**Cancel** racing a pairing or the end of the wait only the first takes the seek.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from bot.services.clock import Clock
from bot.services.live import ClockSettings, Occupant
from bot.services.refusal import Refusal
from i18n import N_, _
from rules.modes import Settings

GONE = N_("this seek is no longer waiting (it was paired, cancelled, or the bot restarted)")


@dataclass(frozen=True)
class SoughtGame:
    """The game a seek asks for; two seeks pair only when these are equal."""

    settings: Settings
    clouds: str
    clock: ClockSettings
    rated: bool

    def terms(self) -> tuple[object, ...]:
        s = self.settings
        return (
            s.mode,
            s.ruleset,
            tuple(s.plane_counts()),
            tuple(sorted(s.variants)),
            s.fire,
            self.clouds.lower(),
            self.clock.per_turn,
            self.clock.on_expiry,
            self.rated,
        )


@dataclass
class Seek:
    id: int
    seeker: Occupant
    guild_id: int
    channel_id: int
    game: SoughtGame
    deadline: float | None  # when the computer takes the seat (None: never)
    strength: str  # the computer's, when it does
    message_id: int | None = None  # the waiting message, once it is posted
    # what became of the seek, told in its waiting message (set when paired before the
    # waiting message was posted: its poster shows it then)
    outcome: str | None = field(default=None)


class Seeks:
    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._ids = itertools.count(1)
        self._waiting: dict[int, Seek] = {}

    def of(self, user_id: int) -> Seek | None:
        return next((s for s in self._waiting.values() if s.seeker.user_id == user_id), None)

    def check(self, user_id: int) -> None:
        """Refuse a second seek of the same player."""
        if self.of(user_id) is not None:
            raise Refusal(
                _("you are already seeking a game: cancel that seek first, or wait for it")
            )

    def seek(
        self,
        seeker: Occupant,
        guild_id: int,
        channel_id: int,
        game: SoughtGame,
        wait: float | None,
        strength: str,
    ) -> tuple[Seek, Seek | None]:
        """The new seek, and the waiting one it is paired with (taken off the list), or
        None: then the new seek waits, for ``wait`` seconds before the computer takes the
        seat (None: for a human only)."""
        assert seeker.user_id is not None
        self.check(seeker.user_id)
        deadline = None if wait is None else self.clock.now() + wait
        new = Seek(next(self._ids), seeker, guild_id, channel_id, game, deadline, strength)
        terms = game.terms()
        partner = next(
            (
                s
                for s in self._waiting.values()
                if s.guild_id == guild_id and s.game.terms() == terms
            ),
            None,
        )
        if partner is not None:
            del self._waiting[partner.id]
            return new, partner
        self._waiting[new.id] = new
        return new, None

    def get(self, seek_id: int) -> Seek | None:
        return self._waiting.get(seek_id)

    def mine(self, seek_id: int, user_id: int) -> Seek:
        """The waiting seek ``seek_id`` of ``user_id``, or a refusal saying why not."""
        found = self._waiting.get(seek_id)
        if found is None:
            raise Refusal(_(GONE))
        if found.seeker.user_id != user_id:
            raise Refusal(_("this seek is someone else's"))
        return found

    def cancel(self, seek_id: int, user_id: int) -> Seek:
        found = self.mine(seek_id, user_id)
        del self._waiting[found.id]
        return found

    def due(self) -> list[Seek]:
        """The seeks whose wait has run out, taken off the list: the computer takes
        their seats."""
        now = self.clock.now()
        done = [s for s in self._waiting.values() if s.deadline is not None and s.deadline <= now]
        for seek in done:
            del self._waiting[seek.id]
        return done

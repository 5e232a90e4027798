"""Challenges: a player names an opponent for a duel; the opponent accepts (the match is
made) or declines, and the challenger may withdraw it first.

A challenge is asked with ``/crosshairs challenge`` or on the live board (bot/live, the
App Launcher's page), and answered with the posted challenge's buttons or on the live
board: both surfaces ask this service, which checks each answer (only the one
challenged accepts or declines, only the challenger withdraws, nothing of another
server) and publishes every step (:class:`~bot.services.events.ChallengeChanged`): the
Discord layer posts the challenge pinging only the one challenged and settles its
message, opening the new match's thread; the live board shows the challenges of its
server to their two players and takes both to the new match.

Challenges are stored (:mod:`storage.challenges`), so every process of a sharded bot
answers the same challenge, and an open one outlives a restart; one left unanswered for
:data:`WAITS` lapses. Every answer changes the challenge by a write conditional on its
still being open, so of two answers racing, in one process or two, only one acts: the
other is told what became of it. The computer accepts at once: a challenge to it is
its match, never stored.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Literal

from bot.services.agreed import agreed_match
from bot.services.challenge_offers import Challenge, ChallengeStep
from bot.services.events import ChallengeChanged
from bot.services.live import ClockSettings, Occupant
from bot.services.manager import Games
from bot.services.rating_service import Ratings
from bot.services.refusal import Refusal, stored
from i18n import N_, _
from rules.modes import Settings
from storage.challenges import ChallengeRepo, StoredChallenge
from storage.errors import StorageError

log = logging.getLogger(__name__)

Answer = Literal["accept", "decline"]
GONE = N_("this challenge is no longer open")
MOST_OPEN = 5  # a challenger's challenges waiting at once: enough for a few friends
WAITS = 7 * 86400.0  # how long a challenge waits for its answer (correspondence friends)
CLOSED = {
    "accepted": N_("this challenge has already been accepted: the match is on"),
    "declined": N_("this challenge was declined"),
    "withdrawn": N_("this challenge was withdrawn"),
}


class Challenges:
    def __init__(self, games: Games, ratings: Ratings, repo: ChallengeRepo) -> None:
        self.games = games
        self.ratings = ratings
        self.repo = repo

    async def ask(
        self,
        host: Occupant,
        invited: Occupant,
        settings: Settings,
        *,
        clouds: str,
        clock: ClockSettings,
        channel_id: int,
        guild_id: int | None,
        rated: bool,
        asked_in: int | None = None,
        via: object = None,
    ) -> Challenge:
        """``host`` challenges ``invited``: stored, published as ``asked``; the computer
        (``invited`` with no user) accepts at once, and the match is made, published as
        ``started``. ``via``: the press, for the surfaces."""
        assert host.user_id is not None, "people challenge"
        if invited.user_id == host.user_id:
            raise Refusal(_("you cannot challenge yourself — try the bot instead"))
        if settings.spec.seats != 2:
            raise Refusal(_("a challenge is a duel: open a lobby for more players"))
        challenge = Challenge(
            id=0,  # numbered as it is stored
            host=host,
            invited=invited,
            settings=settings,
            clouds=clouds,
            clock=clock,
            channel_id=channel_id,
            guild_id=guild_id,
            rated=rated and invited.user_id is not None,  # a game with the computer never is
            asked_in=channel_id if asked_in is None else asked_in,
            created=self.games.clock.now(),
        )
        if invited.user_id is None:
            live = await agreed_match(self.games, self.ratings, challenge, "a computer's game")
            await self.games.events.publish(
                ChallengeChanged(challenge, "started", host, match=live, via=via)
            )
            return challenge
        if len(await self.asked_by(host.user_id, guild_id)) >= MOST_OPEN:
            raise Refusal(
                _("you have {n} challenges waiting already: withdraw one first", n=MOST_OPEN)
            )
        challenge.id = await stored(self.repo.open(challenge.stored()), "a challenge")
        await self.games.events.publish(ChallengeChanged(challenge, "asked", host, via=via))
        return challenge

    async def waiting(self, guild_id: int | None) -> list[Challenge]:
        """The open challenges of a server (of a DM: ``None``), oldest first."""
        found = await stored(self.repo.waiting(guild_id, self._since()), "the challenges")
        return [Challenge.of(c) for c in found]

    async def asked_by(self, user_id: int, guild_id: int | None) -> list[Challenge]:
        return [c for c in await self.waiting(guild_id) if c.host.user_id == user_id]

    async def addressed(
        self, challenge_id: int, user_id: int, op: str, guild_id: int | None
    ) -> Challenge:
        """The open challenge ``challenge_id`` (a number a press carries, which may be
        forged), if ``user_id`` may answer it with ``op`` from ``guild_id``: only the one
        challenged accepts or declines, only the challenger withdraws (``decline``)."""
        found = await stored(self.repo.get(challenge_id), "a challenge")
        if found is not None and found.guild_id != guild_id:
            found = None  # another server's challenge: as if it did not exist
        if found is None:
            raise Refusal(_(GONE))
        withdraws = op == "decline" and user_id == found.host_id
        if user_id != found.invited_id and not withdraws:
            raise Refusal(_("this challenge is not addressed to you"))
        if found.status in CLOSED:
            raise Refusal(_(CLOSED[found.status]))
        if found.created < self._since():
            raise Refusal(_("this challenge waited too long and lapsed: challenge again"))
        return Challenge.of(found)

    async def answer(
        self,
        challenge_id: int,
        by: Occupant,
        op: Answer,
        guild_id: int | None,
        via: object = None,
    ) -> ChallengeStep:
        """``by`` accepts or declines (its challenger: withdraws) the challenge: checked,
        then changed only if still open; accepted, its match is made (published by the
        game manager as every new match is), then the step is published. If the match
        could not be made, the challenge is open again."""
        assert by.user_id is not None, "only people answer"
        challenge = await self.addressed(challenge_id, by.user_id, op, guild_id)
        if op == "decline":
            withdrawn = by.user_id == challenge.host.user_id
            step: ChallengeStep = "withdrawn" if withdrawn else "declined"
            if not await stored(self.repo.close(challenge.id, step), "a challenge"):
                await self._late(challenge, by.user_id, op)
            await self.games.events.publish(ChallengeChanged(challenge, step, by, via=via))
            return step
        if not await stored(self.repo.close(challenge.id, "accepted"), "a challenge"):
            await self._late(challenge, by.user_id, op)
        number = challenge.id
        live = await agreed_match(
            self.games,
            self.ratings,
            replace(challenge, invited=by),
            f"challenge {number}",
            lambda: self.repo.reopen(number),
            lambda made: self.repo.made(number, made),
        )
        await self.games.events.publish(
            ChallengeChanged(challenge, "started", by, match=live, via=via)
        )
        return "started"

    async def _late(self, challenge: Challenge, user_id: int, op: str) -> None:
        """An answer that lost the race to another: told what became of the challenge."""
        await self.addressed(challenge.id, user_id, op, challenge.guild_id)
        raise Refusal(_(GONE))

    def _since(self) -> float:
        """When the oldest challenge still waiting was asked: any older lapsed."""
        return self.games.clock.now() - WAITS

    async def _read(self, challenge: Challenge) -> StoredChallenge | None:
        """``challenge`` as stored; None where it is not, or storage cannot say (logged:
        what asks can do without)."""
        try:
            return await self.repo.get(challenge.id)
        except StorageError as exc:
            log.warning("challenge %s not read (%s)", challenge.id, exc)
            return None

    async def placed(self, challenge: Challenge, channel_id: int, message_id: int) -> None:
        """Where the challenge's message was posted, for whichever process settles it."""
        await stored(self.repo.placed(challenge.id, channel_id, message_id), "a challenge")

    async def still_open(self, challenge: Challenge) -> bool:
        """Whether ``challenge`` still waits for its answer (False where storage cannot
        say)."""
        found = await self._read(challenge)
        return found is not None and found.status == "open" and found.created >= self._since()

    async def match_of(self, challenge_id: int) -> int | None:
        """The match an accepted challenge became, once made."""
        found = await stored(self.repo.get(challenge_id), "a challenge")
        return None if found is None else found.match_id

    async def message_of(self, challenge: Challenge) -> tuple[int, int] | None:
        """The channel and message the challenge was posted as, if noted (by any process)."""
        found = await self._read(challenge)
        return None if found is None else found.message

"""Challenges: a player names an opponent for a duel; the opponent accepts (the match is
made) or declines, and the challenger may withdraw it first.

A challenge is asked with ``/crosshairs challenge`` or on the live board (bot/live, the
App Launcher's page), and answered with the posted challenge's buttons or on the live
board: both surfaces ask this service, which checks each answer (only the one
challenged accepts or declines, only the challenger withdraws, nothing of another
server) and publishes every step (:class:`~bot.services.events.ChallengeChanged`): the
Discord layer posts the challenge pinging only the one challenged and settles its
message, opening the new match's thread; the live board shows the challenges of its
channel to their two players and takes both to the new match.

Challenges live in memory, as lobbies and seeks do: each is minutes old, and a press
after a restart is told the challenge is gone. A check and the change it allows have no
``await`` between them, so of two answers racing only the first acts; the other is
told what became of the challenge.
"""

from __future__ import annotations

import secrets
from typing import Literal

from bot.services.challenge_offers import Challenge, ChallengeStep
from bot.services.events import ChallengeChanged
from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.manager import Games
from bot.services.pending import Pending
from bot.services.rating_service import Ratings
from bot.services.refusal import Refusal
from i18n import N_, _
from rules.modes import Settings

Answer = Literal["accept", "decline"]
GONE = N_("this challenge is no longer open (it was answered, withdrawn, or the bot restarted)")
MOST_OPEN = 5  # a challenger's challenges waiting at once: enough for a few friends


class Challenges:
    def __init__(self, games: Games, ratings: Ratings) -> None:
        self.games = games
        self.ratings = ratings
        self._book: Pending[Challenge] = Pending()

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
        """``host`` challenges ``invited``: published as ``asked``; the computer
        (``invited`` with no user) accepts at once, and the match is made, published as
        ``started``. ``via``: the press, for the surfaces."""
        assert host.user_id is not None, "people challenge"
        if invited.user_id == host.user_id:
            raise Refusal(_("you cannot challenge yourself — try the bot instead"))
        if settings.spec.seats != 2:
            raise Refusal(_("a challenge is a duel: open a lobby for more players"))
        if invited.user_id is not None and len(self.asked_by(host.user_id, guild_id)) >= MOST_OPEN:
            raise Refusal(
                _(
                    "you have {n} challenges waiting already: withdraw one first",
                    n=MOST_OPEN,
                )
            )
        challenge = Challenge(
            id=self._book.number(),
            host=host,
            invited=invited,
            settings=settings,
            clouds=clouds,
            clock=clock,
            channel_id=channel_id,
            guild_id=guild_id,
            rated=rated and invited.user_id is not None,  # a game with the computer never is
            asked_in=channel_id if asked_in is None else asked_in,
        )
        if invited.user_id is None:
            live = await self._made(challenge, invited)
            await self.games.events.publish(
                ChallengeChanged(challenge, "started", host, match=live, via=via)
            )
            return challenge
        self._book.add(challenge.id, challenge)
        await self.games.events.publish(ChallengeChanged(challenge, "asked", host, via=via))
        return challenge

    def asked_by(self, user_id: int, guild_id: int | None) -> list[Challenge]:
        return [
            c for c in self._book.waiting() if c.host.user_id == user_id and c.guild_id == guild_id
        ]

    def waiting_for(self, user_id: int, guild_id: int | None) -> list[Challenge]:
        """The open challenges of a server ``user_id`` asked or is asked, oldest first."""
        return [c for c in self._book.waiting() if c.guild_id == guild_id and c.involves(user_id)]

    def addressed(
        self, challenge_id: int, user_id: int, op: str, guild_id: int | None
    ) -> Challenge:
        """The open challenge ``challenge_id`` (a number a press carries, which may be
        forged), if ``user_id`` may answer it with ``op`` from ``guild_id``: only the one
        challenged accepts or declines, only the challenger withdraws (``decline``)."""
        challenge = self._book.get(challenge_id)
        if challenge is not None and challenge.guild_id != guild_id:
            challenge = None  # another server's challenge: as if it did not exist
        if challenge is None:
            raise Refusal(self._book.why_closed(challenge_id) or _(GONE))
        withdraws = op == "decline" and user_id == challenge.host.user_id
        if user_id != challenge.invited.user_id and not withdraws:
            raise Refusal(_("this challenge is not addressed to you"))
        return challenge

    async def answer(
        self,
        challenge_id: int,
        by: Occupant,
        op: Answer,
        guild_id: int | None,
        via: object = None,
    ) -> ChallengeStep:
        """``by`` accepts or declines (its challenger: withdraws) the challenge: checked,
        then closed before any ``await``; accepted, its match is made (published by the
        game manager as every new match is), then the step is published. If the match
        could not be made, the challenge is open again."""
        assert by.user_id is not None, "only people answer"
        challenge = self.addressed(challenge_id, by.user_id, op, guild_id)
        if op == "decline":
            withdrawn = by.user_id == challenge.host.user_id
            step: ChallengeStep = "withdrawn" if withdrawn else "declined"
            why = (
                _("this challenge was withdrawn") if withdrawn else _("this challenge was declined")
            )
            self._book.close(challenge.id, why)
            await self.games.events.publish(ChallengeChanged(challenge, step, by, via=via))
            return step
        self._book.close(
            challenge.id, _("this challenge has already been accepted: the match is on")
        )
        try:
            live = await self._made(challenge, by)
        except Exception:
            self._book.add(challenge.id, challenge)
            raise
        await self.games.events.publish(
            ChallengeChanged(challenge, "started", by, match=live, via=via)
        )
        return "started"

    async def _made(self, challenge: Challenge, by: Occupant) -> LiveMatch:
        live = await self.games.create(
            [challenge.host, by],
            challenge.settings,
            channel_id=challenge.channel_id,
            guild_id=challenge.guild_id,
            cloud_setup=challenge.clouds,
            seed=secrets.randbelow(1 << 30),
            clock=challenge.clock,
        )
        if not challenge.rated:  # before its board is up, so before anyone can fly
            await self.ratings.mark_unrated(live.id)
        return live

    def placed(self, challenge: Challenge, channel_id: int, message_id: int) -> None:
        """Where the challenge's message was posted, for whichever surface settles it."""
        challenge.message = (channel_id, message_id)

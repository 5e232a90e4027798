"""Your move, wherever you are: whom to send a DM about a match, and what it says.

A person chooses how often (:mod:`storage.notify`): ``turn`` — when a turn passes to
them (which includes the first turn of a new game, such as a series game or a
tournament round) and when their clock runs low; ``clock`` — only when their clock runs
low; ``off`` (the default) — never. A DM is a rate-limited call, so a person gets at
most one per player-turn of a match, never the person whose action passed the turn, and
the computer none. This module decides; the Discord layer sends.

Each DM is written in its reader's language: the locale of their latest interaction
(:mod:`bot.services.locales`) when the bot ships that language, else ``fallback`` (the
match's server's, which the caller knows), else English.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from bot.services.live import LiveMatch
from bot.services.locales import Locales
from i18n import _, ships, speaking
from storage.db import Database
from storage.notify import NotifyRepo

KEPT = 4096  # (match, person) pairs whose last DM'd turn is remembered


@dataclass(frozen=True)
class Notice:
    user_id: int
    text: str


def jump_link(live: LiveMatch) -> str:
    """A link that opens the match in Discord: its thread; without one (played in a
    channel, or in one message where the bot only answers, which may be far up a DM by
    now), its board message."""
    guild = live.record.guild_id if live.record.guild_id is not None else "@me"
    if live.record.thread_id is not None:
        return f"https://discord.com/channels/{guild}/{live.record.thread_id}"
    link = f"https://discord.com/channels/{guild}/{live.record.channel_id}"
    board = live.record.board_message_id
    return link if board is None else f"{link}/{board}"


class Notifications:
    def __init__(self, db: Database, locales: Locales) -> None:
        self.repo = NotifyRepo(db)
        self.locales = locales
        # (match, person) → the player-turn they were last told about
        self._told: OrderedDict[tuple[int, int], int] = OrderedDict()

    async def set_level(self, user_id: int, level: str) -> None:
        """When the person is sent DMs: one of ``storage.notify.LEVELS``."""
        await self.repo.set(user_id, level)

    async def turn_passed(
        self, live: LiveMatch, actor: int | None, fallback: object
    ) -> list[Notice]:
        """The DM for whoever is now to move, if they want one and were not yet told
        of this turn; none for ``actor``, who just acted."""
        user = live.user_to_move()
        if user is None or user == actor or live.over:
            return []
        if not self._first_time(live, user):
            return []
        if (await self.repo.levels([user]))[user] != "turn":
            return []
        with speaking((await self._languages([user], fallback))[user]):
            text = _(
                "Your turn in match #{id} ({title}): {link}",
                id=live.id,
                title=_(" vs ").join(live.names),
                link=jump_link(live),
            )
        return [Notice(user, f"✈️ {text}")]

    async def game_opened(
        self, live: LiveMatch, actor: int | None, fallback: object
    ) -> list[Notice]:
        """A new game (a challenge accepted, a series game, a tournament round): its first
        player is told it is their turn, every other person that it has started; not
        ``actor``, who started it."""
        first = await self.turn_passed(live, actor, fallback)
        told = {n.user_id for n in first} | {actor, live.user_to_move()}
        others = [e.user_id for e in live.seats if e.user_id is not None and e.user_id not in told]
        levels = await self.repo.levels(others)
        wanting = [u for u in others if levels[u] == "turn"]
        languages = await self._languages(wanting, fallback)
        notices = list(first)
        for user in wanting:
            with speaking(languages[user]):
                text = _(
                    "Match #{id} ({title}) has started: {link}",
                    id=live.id,
                    title=_(" vs ").join(live.names),
                    link=jump_link(live),
                )
            notices.append(Notice(user, f"🛫 {text}"))
        return notices

    async def clock_low(self, live: LiveMatch, fallback: object) -> list[Notice]:
        """The DM for the person whose turn clock is about to run out."""
        user = live.user_to_move()
        if user is None or live.over or live.deadline is None:
            return []
        if (await self.repo.levels([user]))[user] == "off":
            return []
        with speaking((await self._languages([user], fallback))[user]):
            text = _(
                "Your turn in match #{id} is running out ({when}): {link}",
                id=live.id,
                when=f"<t:{int(live.deadline)}:R>",
                link=jump_link(live),
            )
        return [Notice(user, f"⏰ {text}")]

    async def _languages(self, users: list[int], fallback: object) -> dict[int, object]:
        """The locale a DM to each of ``users`` is written in: theirs if the bot speaks
        it (looked up for all of them at once)."""
        own = await self.locales.of(users)
        return {u: own[u] if ships(own.get(u)) else fallback for u in users}

    def _first_time(self, live: LiveMatch, user: int) -> bool:
        """Whether this player-turn of ``user`` is new (and remember it)."""
        key, turn = (live.id, user), live.game.turn
        if self._told.get(key) == turn:
            return False
        self._told[key] = turn
        self._told.move_to_end(key)
        if len(self._told) > KEPT:
            self._told.popitem(last=False)
        return True

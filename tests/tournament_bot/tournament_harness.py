"""A club of pilots in simcord's in-memory Discord, and the helpers the tournament tests
share: the organiser runs the event with slash commands and buttons, the players join
with buttons and end their games with ``/crosshairs resign`` (or by letting the clock
run out), exactly as people would. Reading answers and refusals is in tests/support.
"""

from __future__ import annotations

from typing import Any

from simcord.builders import UserHandle
from support.flying import fly_first_turns
from support.flying import resign as resign_confirmed
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.live import LiveMatch
from competition.model import PairingResult
from storage.matches import MatchStatus

PER_TURN = 120  # seconds; the FakeClock only moves when a test moves it


class Club:
    """A guild with a #events channel, an organiser (by role, not by permission) who
    does not play, a member with no rights, and ``size`` pilots p0, p1, …"""

    def __init__(self, env: Any, size: int) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("events")
        role = self.guild.create_role("Tournament Organiser")
        self.organiser = self.guild.add_member(env.create_user("olga"), roles=[role])
        self.stranger = self.guild.add_member(env.create_user("sam"))
        self.pilots = [self.guild.add_member(env.create_user(f"p{i}")) for i in range(size)]

    def member(self, user_id: int | None) -> Any:
        return next(p for p in self.pilots if p.id == user_id)

    def name(self, user_id: int) -> str:
        return str(self.member(user_id).name)

    def said(self) -> list[str]:
        return [m.content for m in self.channel.history()]


async def live_in(bot: CrosshairsBot, thread: Any) -> LiveMatch | None:
    """The game being played in a pairing's thread, if one is (not over, not called off)."""
    live = await bot.games.by_thread(thread.id)
    if live is None or live.game.is_over or live.record.status is not MatchStatus.ACTIVE:
        return None
    return live


async def open_games(bot: CrosshairsBot, club: Club) -> list[tuple[Any, LiveMatch]]:
    found = []
    for thread in club.channel.threads:
        live = await live_in(bot, thread)
        if live is not None:
            found.append((thread, live))
    return found


def seat_users(live: LiveMatch) -> list[int]:
    users = [e.user_id for e in live.seats]
    assert None not in users
    return [u for u in users if u is not None]


async def start_duel(env: Any, bot: CrosshairsBot) -> tuple[Club, Any, list[int]]:
    """A two-player round robin called Once, started: one game (in the returned thread,
    between the returned users), whose end ends the event."""
    club = Club(env, 2)
    created = answer(
        await club.organiser.slash(
            club.channel, "crosshairs-tournament create", name="Once", format="round-robin"
        )
    )
    for pilot in club.pilots:
        await pilot.click(created, label="Join")
    await club.organiser.click(created, label="Start")
    ((thread, live),) = await open_games(bot, club)
    return club, thread, seat_users(live)


async def resign(club: Club, thread: Any, loser: int) -> None:
    """Every side flies its first turn (a resignation before that aborts the game), then
    ``loser`` resigns."""
    live = await live_in(club.env.bot, thread)
    assert live is not None, "no game is being played in this thread"
    await fly_first_turns(club.member, thread, live)
    assert "You resigned" in (await resign_confirmed(club.member(loser), thread)).content


async def run_out_clock(env: Any, clock: FakeClock) -> None:
    """Let every running turn expire and the clock cog make its next round (simcord's
    virtual time moves the cog's loop; the FakeClock is the games' time)."""
    clock.advance(PER_TURN + 1)
    await env.advance_time(env.bot.config.clock_interval + 1)


async def tick(env: Any, clock: FakeClock, seconds: float) -> None:
    """Move the games' clock, then let the tournament clock's loop run once."""
    clock.advance(seconds)
    await env.advance_time(env.bot.config.clock_interval + 1)


def me(env: Any, bot: CrosshairsBot) -> UserHandle:
    assert bot.user is not None
    return UserHandle(env, env.backend.get_user(bot.user.id))


def duel(winner: int, loser: int, first: int, forfeit: bool = False) -> PairingResult:
    """A duel result as the pure package wants it, seats in playing order."""
    second = loser if first == winner else winner
    return PairingResult.duel(
        str(first), str(second), 1.0 if first == winner else 0.0, forfeit=forfeit
    )

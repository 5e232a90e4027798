"""The started bot is put together once (bot/env.py, bot/app.py): every desk and cog
works on the very services the Env built, never a copy of its own (a second series
service would keep its own locks, a second notifications service its own memory of who
was told)."""

from __future__ import annotations

from typing import Any

from discord.app_commands import Group
from simcord.builders import UserHandle
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.ui.clocks import ClockWatch
from bot.ui.closed_threads import ClosedThreads
from bot.ui.commands import crosshairs
from bot.ui.departures import Departures
from bot.ui.desks import desks_of
from bot.ui.puzzles import DailyPuzzles


async def test_every_desk_works_on_the_services_the_env_built(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    env, desks = simcord_bot.env, desks_of(simcord_bot)
    assert simcord_bot.games is env.games and simcord_bot.db is env.db
    assert desks.series.series is env.series and env.life.games is env.games
    assert desks.series.games is env.games
    assert desks.tournaments.service is env.tournaments
    assert desks.tournaments.series is desks.series  # handed over, not looked up
    assert desks.tournaments.events is env.games.events
    assert env.tournaments.series is env.series and env.takebacks.series is env.series
    cogs = {type(cog): cog for cog in simcord_bot.cogs.values()}
    puzzles = cogs[DailyPuzzles]
    assert isinstance(puzzles, DailyPuzzles) and puzzles.training is env.training
    for kind in (ClockWatch, ClosedThreads, Departures):
        cog = cogs[kind]
        assert isinstance(cog, ClockWatch | ClosedThreads | Departures)
        assert cog.games is env.games


def _command_names(bot: CrosshairsBot) -> list[str]:
    tops = bot.tree.get_commands()
    return sorted(
        c.qualified_name for top in tops if isinstance(top, Group) for c in top.walk_commands()
    )


async def test_a_second_bot_in_the_process_has_the_same_commands(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Any
) -> None:
    """The /crosshairs group (and each top-level command beside it) is one per process:
    each bot's features put their commands in it again, and none goes missing or twice."""
    names = _command_names(simcord_bot)
    assert "crosshairs move" in names and "crosshairs-series start" in names
    assert "crosshairs-tournament pause" in names
    assert len(names) == len(set(names))
    second = new_bot()  # a restart; the fixture closes its database
    await simcord_env.restart_bot(second)
    assert _command_names(second) == names
    assert second.tree.get_command("crosshairs") is crosshairs
    assert desks_of(second) is not desks_of(simcord_bot)  # its own desks, on its own env
    assert desks_of(second).series.series is second.env.series


async def test_after_a_restart_the_computer_flies_where_it_was_to_move(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Any, monkeypatch: Any
) -> None:
    """What a restart left to do is started once every feature is set up: here the
    computer's turn, which the old process never flew."""
    table = Table(simcord_env)
    channel, alice = table.channel, table.alice
    assert simcord_bot.user is not None
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))

    async def grounded(match_id: int) -> None:
        return None  # the old process dies before the computer flies

    with monkeypatch.context() as patched:
        patched.setattr(simcord_bot.env.life, "computer_turns", grounded)
        await alice.slash(channel, "crosshairs challenge", opponent=me, clouds="none")
        (thread,) = channel.threads
        await alice.slash(thread, "crosshairs move", tokens="+a3NE")
        await simcord_env.settle()
    (waiting,) = simcord_bot.games.live_matches()
    assert waiting.computer_to_move

    fresh = new_bot()  # a restart; the fixture closes its database
    await simcord_env.restart_bot(fresh)
    await simcord_env.settle()
    (resumed,) = fresh.games.live_matches()
    assert resumed.id == waiting.id and resumed.ply > waiting.ply
    assert not resumed.computer_to_move  # it flew its whole turn: alice is to move

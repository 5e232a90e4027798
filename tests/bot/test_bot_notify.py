"""Your move, wherever you are: a DM with a link when the turn passes to someone who
asked for one (at most one per turn, never to whoever just acted), a DM when a clock
runs low, none when switched off; ``/crosshairs games mine:true`` across servers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import discord
from support.flying import match_in
from support.replies import answer
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.live import LiveMatch


def dms(person: Any) -> list[str]:
    return [m.content for m in person.user.dm_channel.history()]


async def fly_turn(person: Any, thread: Any, live: LiveMatch) -> None:
    """The rest of ``person``'s player-turn, the first legal step each time."""
    turn = live.game.turn
    while live.user_to_move() == person.id and live.game.turn == turn:
        token = live.game.legal_steps()[0].token
        result = await person.slash(thread, "crosshairs move", tokens=token)
        assert result.response.content.startswith("✅"), result.response.content


async def test_a_dm_when_the_turn_passes_once_per_turn_with_a_link(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    said = answer(await table.bob.slash(table.channel, "crosshairs notify", when="turn"))
    assert said.ephemeral and "your turn" in said.content
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    assert dms(table.bob) == []  # alice flies first

    await fly_turn(table.alice, thread, live)
    link = f"https://discord.com/channels/{table.guild.id}/{thread.id}"
    (first,) = dms(table.bob)
    assert f"Your turn in match #{live.id}" in first and link in first

    await fly_turn(table.bob, thread, live)  # several steps: no DM to bob, none to alice
    assert len(dms(table.bob)) == 1 and dms(table.alice) == []
    await fly_turn(table.alice, thread, live)
    assert len(dms(table.bob)) == 2


async def test_no_dm_when_switched_off(simcord_env: Any, simcord_bot: CrosshairsBot) -> None:
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    await table.bob.slash(table.channel, "crosshairs notify", when="off")
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    await fly_turn(table.alice, thread, live)
    await fly_turn(table.bob, thread, live)
    await fly_turn(table.alice, thread, live)
    assert dms(table.bob) == [] and dms(table.alice) == []


async def test_a_new_game_tells_its_first_player(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    await table.alice.slash(table.channel, "crosshairs notify", when="turn")
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    thread = await table.start(clouds="none")  # bob accepts: he started it, no DM for him
    (dm,) = dms(table.alice)
    assert "Your turn" in dm and f"/{thread.id}" in dm
    assert dms(table.bob) == []


async def test_a_new_game_tells_everyone_else_it_has_started(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    lobby = answer(
        await table.alice.slash(table.channel, "crosshairs lobby", mode="ffa3", clouds="none")
    )
    await table.bob.click(lobby, label="Sit P2")
    await table.alice.click(lobby, label="Add computer")
    await table.alice.click(lobby, label="Start")  # alice starts and flies first
    (thread,) = table.channel.threads
    (dm,) = dms(table.bob)
    assert "has started" in dm and f"/{thread.id}" in dm
    live = await match_in(simcord_bot, thread)
    await fly_turn(table.alice, thread, live)
    assert len(dms(table.bob)) == 2 and "Your turn" in dms(table.bob)[-1]


async def test_clock_only_dms_when_the_clock_runs_low(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="clock")
    thread = await table.start(clouds="none", clock=86400)
    live = await match_in(simcord_bot, thread)
    await fly_turn(table.alice, thread, live)
    assert dms(table.bob) == []  # the turn passed, but bob wants only clock DMs
    clock.advance(86400 * 0.8)
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    (dm,) = dms(table.bob)
    assert "running out" in dm and f"/{thread.id}" in dm
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    assert len(dms(table.bob)) == 1  # once per turn
    assert dms(table.alice) == []


async def test_my_games_across_servers_with_links(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    here = await table.start(clouds="none")
    other = simcord_env.create_guild()
    channel = other.create_text_channel("elsewhere")
    alice, bob = other.add_member(table.alice.user), other.add_member(table.bob.user)
    invite = answer(await bob.slash(channel, "crosshairs challenge", opponent=alice))
    await alice.click(invite, label="Accept")
    (there,) = channel.threads

    listed = answer(await table.alice.slash(table.channel, "crosshairs games", mine=True))
    assert listed.ephemeral
    assert f"https://discord.com/channels/{table.guild.id}/{here.id} — your turn" in listed.content
    assert f"https://discord.com/channels/{other.id}/{there.id}" in listed.content
    server = answer(await table.alice.slash(table.channel, "crosshairs games"))
    assert f"{there.id}" not in server.content  # without mine: this server's matches only
    none = answer(await table.eve.slash(table.channel, "crosshairs games", mine=True))
    assert "no live match" in none.content


async def test_the_dm_is_in_its_readers_language_not_the_servers(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """bob's Discord is in English (his interactions said so): his DM is English, though
    the match's server speaks German."""
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    thread = await table.start(clouds="none")
    guild = simcord_bot.get_guild(table.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german  # after the (English) challenge
    live = await match_in(simcord_bot, thread)
    await fly_turn(table.alice, thread, live)
    (dm,) = dms(table.bob)
    assert dm.startswith(f"✈️ Your turn in match #{live.id} (") and f"/{thread.id}" in dm


async def test_someone_never_heard_from_gets_the_servers_language(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Callable[[], CrosshairsBot]
) -> None:
    """bob last interacted before the bot remembered languages (a database from an older
    bot: no stored locale, nothing in memory after the restart): his DM speaks the
    match's server's language, German."""
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    thread = await table.start(clouds="none")
    async with simcord_bot.db.transaction() as conn:
        await conn.execute("DELETE FROM user_locales")
    fresh = new_bot()
    await simcord_env.restart_bot(fresh)
    await simcord_env.advance_time(1)
    guild = fresh.get_guild(table.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    live = await match_in(fresh, thread)
    await fly_turn(table.alice, thread, live)
    (dm,) = dms(table.bob)
    assert dm.startswith(f"✈️ Du bist am Zug in Partie #{live.id} (") and f"/{thread.id}" in dm


async def test_a_persons_locale_is_stored_once_and_not_rewritten(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Every interaction is heard; the stored row is written at the first and left
    alone while the language stays the same (Discord here always says en-US)."""
    table = Table(simcord_env)
    await table.bob.slash(table.channel, "crosshairs notify", when="turn")
    first = await stored_locales(simcord_bot)
    assert first[table.bob.id][0] == "en-US"
    thread = await table.start(clouds="none")
    await fly_turn(table.alice, thread, await match_in(simcord_bot, thread))
    await table.bob.slash(table.channel, "crosshairs notify", when="clock")
    now = await stored_locales(simcord_bot)
    assert now[table.bob.id] == first[table.bob.id]  # same updated_at: never rewritten
    assert set(now) == {table.alice.id, table.bob.id}  # eve never interacted


async def stored_locales(bot: CrosshairsBot) -> dict[int, tuple[str, float]]:
    """What is stored once every write in the background is done."""
    async with asyncio.timeout(30):
        while bot.background:
            await asyncio.wait(set(bot.background))
    async with bot.db.read() as conn:
        rows = await conn.fetchall("SELECT user_id, locale, updated_at FROM user_locales")
    return {int(r[0]): (str(r[1]), float(r[2])) for r in rows}

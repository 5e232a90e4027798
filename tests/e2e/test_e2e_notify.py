"""Your move, wherever you are, through localcord: bob asked for a DM every turn and gets
one with a link to the thread when alice's turn ends (the bot's DM routes held to
Discord's spec); with the setting off, no DM at all. The DM speaks its reader's
language, as their latest interaction told it, whatever the server speaks."""

from __future__ import annotations

from e2e.conftest import Local
from e2e.english import english_in
from localcord.autoplay import to_move
from localcord.client import reply
from localcord.records import Channel, User


async def duel_until_bob_flies(local: Local, alice: User, bob: User) -> Channel:
    people = local.people
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    while (found := await to_move(people, thread, [alice, bob]))[0] is alice:
        await people.slash(alice, thread, "crosshairs move", tokens=found[1][0])
    return thread


async def test_a_dm_with_a_link_when_the_turn_passes(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    said = await people.slash(bob, local.channel, "crosshairs notify", when="turn")
    assert "your turn" in reply(said)
    thread = await duel_until_bob_flies(local, alice, bob)
    dm = await people.wait_for(world.dm_channel(bob), lambda m: "Your turn" in m.content)
    assert f"https://discord.com/channels/{thread.guild_id}/{thread.id}" in dm.content
    assert len(world.history(world.dm_channel(bob))) == 1
    assert world.history(world.dm_channel(alice)) == []


async def test_no_dm_when_switched_off(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    await people.slash(bob, local.channel, "crosshairs notify", when="turn")
    await people.slash(bob, local.channel, "crosshairs notify", when="off")
    await duel_until_bob_flies(local, alice, bob)
    await local.bot.stop()  # whatever it was doing is done
    assert world.history(world.dm_channel(bob)) == []


async def test_the_dm_speaks_its_readers_language_and_follows_a_change(local: Local) -> None:
    """An English server; bob's Discord is German, so his DM is German. He switches his
    Discord to French and flies his turn: the next DM is French."""
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob", "de")
    said = await people.slash(bob, local.channel, "crosshairs notify", when="turn")
    assert "Eine DM, wenn du am Zug bist" in reply(said)
    thread = await duel_until_bob_flies(local, alice, bob)
    german = await people.wait_for(world.dm_channel(bob), lambda m: "Partie" in m.content)
    assert german.content.startswith("✈️ Du bist am Zug in Partie #")
    assert " gegen " in german.content and f"/{thread.id}" in german.content
    assert english_in(german.content) == set()

    bob.locale = "fr"
    while (found := await to_move(people, thread, [alice, bob]))[0] is bob:
        await people.slash(bob, thread, "crosshairs move", tokens=found[1][0])
    while (found := await to_move(people, thread, [alice, bob]))[0] is alice:
        await people.slash(alice, thread, "crosshairs move", tokens=found[1][0])
    french = await people.wait_for(world.dm_channel(bob), lambda m: "partie" in m.content)
    assert french.content.startswith("✈️ À vous de jouer dans la partie n° ")
    assert " contre " in french.content and f"/{thread.id}" in french.content
    assert len(world.history(world.dm_channel(bob))) == 2

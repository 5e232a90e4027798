"""The bot SIGKILLed the moment Discord has created a message it posted, before the bot
hears back (so before it can note the message as the match's board, or the step as
shown): the restarted bot must neither post that message again nor lose it. Once for a
game's final board (the result must be in the thread once), once for the board that
passes the turn (one ping, one board), once for the ratings line after the final board
and once for the your-turn DM (each posted again with the same nonce: Discord returns
the first)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

from e2e.conftest import Local, stored_steps
from localcord.autoplay import FINAL_MARK, board_message, match_id, new_board, only_board, to_move
from localcord.client import LocalcordError, People, answer, reply
from localcord.records import Channel, Message, User
from storage.boards import BoardMarkRepo
from storage.db import Database
from storage.events import MatchEventRepo
from storage.turn_events import TurnEventRepo

PATIENCE = 30.0  # seconds a restarted bot may take to catch up on a loaded machine


async def duel(local: Local) -> tuple[Channel, list[User]]:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(
        alice, local.channel, "crosshairs challenge", opponent=bob, clouds="none"
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    return await people.wait_thread(local.channel), [alice, bob]


async def fly_one_round(people: People, thread: Channel, players: list[User]) -> None:
    """Both sides fly their first turn (a resignation before that calls the game off)."""
    flown: list[User] = []
    while True:
        player, offered = await to_move(people, thread, players)
        if player is players[0] and players[1] in flown:
            return
        flown.append(player)
        played = await people.slash(player, thread, "crosshairs move", tokens=offered[0])
        assert reply(played).startswith("✅"), reply(played)


def kill_at(local: Local, thread: Channel, wanted: Callable[[Message], bool]) -> list[Message]:
    """SIGKILL the bot when a message ``wanted`` appears in ``thread`` (before the bot's
    request for it is answered); the list gets that message."""
    caught: list[Message] = []

    def observe(message: Message) -> None:
        if not caught and message.channel.id == thread.id and wanted(message):
            caught.append(message)
            local.bot.kill()

    local.server.world.on_post.append(observe)
    return caught


async def resign_as_it_dies(local: Local, thread: Channel, who: User) -> None:
    """``who`` resigns, and the bot (set to die by :func:`kill_at`) dies on the way."""
    confirm = answer(await local.people.slash(who, thread, "crosshairs resign"))
    assert confirm is not None
    with contextlib.suppress(LocalcordError):  # killed before answering, maybe
        await local.people.click(who, confirm, "Yes, resign")
    await asyncio.wait_for(local.bot.wait_killed(), PATIENCE)


def is_board(message: Message) -> bool:
    return any(a.filename == "board.png" for a in message.attachments)


async def board_is_current(local: Local, match: int) -> bool:
    """Whether storage notes the board as showing every stored step (else the next
    start would redraw it)."""
    steps, _ = await stored_steps(local, match)
    async with await Database.open(local.bot.database) as db:
        return await BoardMarkRepo(db).shown(match) == len(steps)


async def test_a_final_board_posted_as_the_bot_dies_is_in_the_thread_once(local: Local) -> None:
    people, world = local.people, local.server.world
    thread, (alice, bob) = await duel(local)
    match = match_id(board_message(people, thread))
    await fly_one_round(people, thread, [alice, bob])
    caught = kill_at(local, thread, lambda m: is_board(m) and FINAL_MARK in m.content)

    await resign_as_it_dies(local, thread, bob)
    assert caught, "the bot died before posting its final board"
    # noted as showing a step before the resignation: the restart knows it is behind
    assert not await board_is_current(local, match)
    await local.bot.start()

    # the ratings line follows the final board: once it is up, the end has been shown
    await people.wait_for(thread, lambda m: m.content.startswith("📊"), timeout=PATIENCE)
    finals = [m for m in world.channel_log[thread.id] if FINAL_MARK in m.content]
    assert finals == caught, [m.content for m in finals]  # deleted ones count too
    assert "restarted" in caught[0].content and "wins" in caught[0].content
    assert [m for m in world.history(thread) if is_board(m)] == caught
    await local.bot.stop()
    assert await board_is_current(local, match)


async def test_a_turn_board_posted_as_the_bot_dies_is_kept_not_posted_again(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    thread, players = await duel(local)
    match = match_id(board_message(people, thread))
    first = board_message(people, thread)
    caught = kill_at(local, thread, lambda m: is_board(m) and m.id > first.id)

    alice, bob = players
    mover, offered = await to_move(people, thread, players)
    assert mover is alice
    with contextlib.suppress(LocalcordError):  # killed before answering, maybe
        await people.slash(alice, thread, "crosshairs move", tokens=offered[0])
    # her first step ends her first turn: a new board, pinging bob, is posted
    await people.wait_for(thread, lambda m: bool(caught))
    await asyncio.wait_for(local.bot.wait_killed(), PATIENCE)
    assert f"<@{bob.id}>" in caught[0].content
    assert not await board_is_current(local, match)
    await local.bot.start()

    # the board the bot posted as it died, brought up to date, and the only one shown
    await people.wait_for(thread, lambda m: "restarted" in caught[0].content, timeout=PATIENCE)
    assert await only_board(people, thread) is caught[0]
    assert await board_is_current(local, match)  # noted: the next start leaves it be
    boards = [m for m in world.channel_log[thread.id] if is_board(m) and m.id > first.id]
    assert boards == caught  # one board for bob's turn, one ping: not posted again
    assert [m for m in world.history(thread) if is_board(m)] == caught
    # and bob plays on from it
    player, offered = await to_move(people, thread, players)
    assert player is bob
    drawn = caught[0].attachments[0].id
    played = await people.slash(bob, thread, "crosshairs move", tokens=offered[0])
    assert reply(played).startswith("✅"), reply(played)
    await new_board(people, thread, drawn)


async def end_shown(local: Local, match: int) -> bool:
    """Whether storage marks the match's end as shown in full (ratings line and all)."""
    async with await Database.open(local.bot.database) as db:
        return await MatchEventRepo(db).is_done(match, "finished")


async def test_a_ratings_line_posted_as_the_bot_dies_is_in_the_thread_once(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    thread, (alice, bob) = await duel(local)
    match = match_id(board_message(people, thread))
    await fly_one_round(people, thread, [alice, bob])
    caught = kill_at(local, thread, lambda m: m.content.startswith("📊"))

    await resign_as_it_dies(local, thread, bob)
    assert caught, "the bot died before posting the ratings line"
    assert not await end_shown(local, match)  # the restart shows the end again
    await local.bot.start()

    async with asyncio.timeout(PATIENCE):
        while not await end_shown(local, match):
            await asyncio.sleep(0.1)
    lines = [m for m in world.channel_log[thread.id] if m.content.startswith("📊")]
    assert lines == caught, [m.content for m in lines]  # deleted ones count too


async def turns_untold(local: Local) -> int:
    async with await Database.open(local.bot.database) as db:
        return len(await TurnEventRepo(db).pending())


async def test_a_turn_dm_sent_as_the_bot_dies_is_sent_once(local: Local) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    await people.slash(bob, local.channel, "crosshairs notify", when="turn")
    inbox = world.dm_channel(bob)
    caught = kill_at(local, inbox, lambda m: "Your turn" in m.content)
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)

    mover, offered = await to_move(people, thread, [alice, bob])
    assert mover is alice
    with contextlib.suppress(LocalcordError):  # killed before answering, maybe
        await people.slash(alice, thread, "crosshairs move", tokens=offered[0])
    await asyncio.wait_for(local.bot.wait_killed(), PATIENCE)
    assert caught, "the bot died before sending bob's DM"
    assert await turns_untold(local) == 1  # the restart tells it again
    await local.bot.start()

    async with asyncio.timeout(PATIENCE):
        while await turns_untold(local):
            await asyncio.sleep(0.1)
    assert world.channel_log[inbox.id] == caught

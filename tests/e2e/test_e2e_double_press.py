"""Two presses of one button ~50 ms apart, inside the real bot process, with every REST
answer 0.3 s late so that the presses truly overlap: each start acts once (one match,
one thread), and the second presser is told plainly that it has already started."""

from __future__ import annotations

import asyncio

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, match_id
from localcord.client import answer, reply
from localcord.state import Interaction, Message, User
from storage.db import Database
from storage.matches import MatchStatus
from storage.vacations import VacationRepo

LATENCY = 0.3  # seconds added to every REST answer
APART = 0.05  # seconds between the two presses


async def press_twice(local: Local, user: User, message: Message, label: str) -> list[str]:
    local.server.faults.latency = LATENCY
    first = asyncio.create_task(local.people.click(user, message, label))
    await asyncio.sleep(APART)
    second = asyncio.create_task(local.people.click(user, message, label))
    done: list[Interaction] = list(await asyncio.gather(first, second))
    local.server.faults.latency = 0.0
    return [reply(i) for i in done]


async def matches_stored(local: Local) -> int:
    await local.bot.stop()
    async with await Database.open(local.bot.database) as db, db.read() as conn:
        rows = list(await conn.fetchall("SELECT COUNT(*) FROM matches"))
    return int(rows[0][0])


async def test_accept_pressed_twice_starts_one_match(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    answers = await press_twice(local, bob, challenge.original, "Accept")
    await people.wait_thread(local.channel)
    await asyncio.sleep(1.0)  # time for a second match to appear, were there one
    assert len(local.server.world.threads_of(local.channel)) == 1
    assert sum("already been accepted" in a for a in answers) == 1, answers
    assert await matches_stored(local) == 1


async def test_start_pressed_twice_on_a_lobby_starts_one_match(local: Local) -> None:
    people = local.people
    alice, bob, carol = people.join("alice"), people.join("bob"), people.join("carol")
    lobby = await people.slash(alice, local.channel, "crosshairs lobby", mode="ffa3")
    assert lobby.original is not None
    await people.click(bob, lobby.original, "Sit P2")
    await people.click(carol, lobby.original, "Sit P3")
    answers = await press_twice(local, alice, lobby.original, "Start")
    await people.wait_thread(local.channel)
    await asyncio.sleep(1.0)
    assert len(local.server.world.threads_of(local.channel)) == 1
    assert sum("already started" in a for a in answers) == 1, answers
    assert await matches_stored(local) == 1


async def test_series_accept_pressed_twice_starts_one_series(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    offer = await people.slash(alice, local.channel, "crosshairs-series start", opponent=bob)
    assert offer.original is not None
    answers = await press_twice(local, bob, offer.original, "Accept")
    await people.wait_thread(local.channel)
    await asyncio.sleep(1.0)
    assert len(local.server.world.threads_of(local.channel)) == 1
    assert sum("already been accepted" in a for a in answers) == 1, answers
    assert await matches_stored(local) == 1


async def test_resign_confirmed_twice_resigns_once(local: Local) -> None:
    people = local.people
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(alice, local.channel, "crosshairs challenge", opponent=bob)
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = await people.wait_thread(local.channel)
    # both fly their first turn: a resignation before that would abort the game instead
    await people.slash(alice, thread, "crosshairs move", tokens="+a3NE")
    await people.slash(bob, thread, "crosshairs move", tokens="+k7SW +k10SW")
    board = board_message(people, thread)
    match = match_id(board)  # read now: once the game ends the message may be told in words
    confirm = answer(await people.click(alice, board, "Resign"))
    assert confirm is not None
    answers = await press_twice(local, alice, confirm, "Yes, resign")
    assert sorted(answers) == ["⚠️ this game is over", "🏳️ You resigned."], answers
    await local.bot.stop()
    steps, status = await stored_steps(local, match)
    assert len([s for s in steps if s.startswith("resign")]) == 1
    assert status is MatchStatus.FINISHED


async def test_three_vacations_asked_for_at_once_store_one(local: Local) -> None:
    """The allowance (14 days in 30) is checked where the vacation is stored: three
    ``vacation days:14`` sent together cannot each count on the same days."""
    people = local.people
    bob = people.join("bob")
    local.server.faults.latency = LATENCY
    asked = [
        asyncio.create_task(people.slash(bob, local.channel, "crosshairs vacation", days=14))
        for _ in range(3)
    ]
    answers = [reply(i) for i in await asyncio.gather(*asked)]
    local.server.faults.latency = 0.0
    assert sum("On vacation until" in a for a in answers) == 1, answers
    assert sum(a.startswith("⚠️ you are on vacation until") for a in answers) == 2, answers
    await local.bot.stop()
    async with await Database.open(local.bot.database) as db:
        taken = await VacationRepo(db).since(bob.id, 0.0)
    assert [v.ends - v.starts for v in taken] == [14 * 86400]

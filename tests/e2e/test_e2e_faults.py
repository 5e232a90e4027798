"""Faults around the real bot: a dropped gateway, rate limits and server errors, and a
SIGKILL mid-game. Each game must still end, with every acknowledged move stored once."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from e2e.conftest import Local, running, stored_steps
from localcord.autoplay import board_message, choose_press, fly_match, match_id, press, words
from localcord.botproc import living
from localcord.client import reply
from localcord.records import Channel, User


async def duel(local: Local) -> tuple[Channel, list[User]]:
    people = local.people
    players = [people.join("alice"), people.join("bob")]
    challenge = await people.slash(
        players[0], local.channel, "crosshairs challenge", opponent=players[1], planes=4
    )
    assert challenge.original is not None
    await people.click(players[1], challenge.original, "Accept")
    return await people.wait_thread(local.channel), players


async def test_a_dropped_gateway_resumes_and_loses_no_move(local: Local) -> None:
    thread, players = await duel(local)
    gateway = local.server.gateway

    async def drop(step: int) -> None:
        if step in (2, 5):
            await gateway.drop()  # the next interaction is sent while the bot is away
        if step == 8:
            asyncio.get_running_loop().call_later(
                0.005, lambda: asyncio.ensure_future(gateway.drop())
            )

    flight = await fly_match(local.people, thread, players, random.Random(11), before_step=drop)
    assert gateway.resumes >= 2
    assert gateway.identifies == 1
    await local.bot.stop()
    assert (await stored_steps(local, match_id(board_message(local.people, thread))))[
        0
    ] == flight.tokens


async def test_a_forgotten_session_makes_the_bot_identify_again(local: Local) -> None:
    thread, players = await duel(local)
    gateway = local.server.gateway

    async def forget(step: int) -> None:
        if step == 3:
            await gateway.drop(forget=True)
            await asyncio.wait_for(gateway.identified.wait(), 20)

    flight = await fly_match(local.people, thread, players, random.Random(12), before_step=forget)
    assert gateway.identifies == 2
    await local.bot.stop()
    assert (await stored_steps(local, match_id(board_message(local.people, thread))))[
        0
    ] == flight.tokens


async def test_rate_limits_and_server_errors_are_retried_without_doubling(local: Local) -> None:
    thread, players = await duel(local)
    faults = local.server.faults
    injected = [
        faults.rate_limit(r"/interactions/.*/callback$", times=3, retry_after=0.2),
        faults.rate_limit(r"/webhooks/", times=2, retry_after=0.3, method="POST"),
        # the board is edited through the acting interaction's webhook
        faults.server_error(r"/webhooks/.*/messages/\d+$", times=2, method="PATCH"),
        faults.server_error(r"/webhooks/.*/messages/", times=1, status=502),
        # a person's turns post their boards, and the last one the ratings line, through
        # webhooks: what goes through the channel is the first board's edit, posted before
        # anyone acted in the thread
        faults.rate_limit(r"/channels/\d+/messages/\d+$", times=1, retry_after=0.2, method="PATCH"),
    ]

    flight = await fly_match(
        local.people, thread, players, random.Random(13), by_buttons=[players[0]]
    )
    await local.people.wait_for(thread, lambda m: m.content.startswith("📊"))

    assert all(f.fired == f.times for f in injected)
    statuses = [r.status for r in local.server.world.requests]
    assert statuses.count(429) == 3 + 2 + 1 and statuses.count(500) == 2
    boards = [m for m in local.server.world.history(thread) if m.attachments]
    assert len(boards) == 1  # every edit of the board got through: none was re-posted
    await local.bot.stop()
    assert (await stored_steps(local, match_id(boards[0])))[0] == flight.tokens


async def test_a_killed_bot_restarts_and_old_buttons_still_work(local: Local) -> None:
    thread, (alice, bob) = await duel(local)
    people, bot = local.people, local.bot
    rng = random.Random(14)
    played: list[str] = []

    for _ in range(4):
        partial = await fly_match(people, thread, [alice, bob], rng, max_steps=1, finish=False)
        played += partial.tokens
    board = board_message(people, thread)
    mover = (
        alice
        if await people.autocomplete(alice, thread, "crosshairs move", "tokens", tokens="")
        else bob
    )
    opened = await people.click(mover, board, "Play")
    match = match_id(board)
    cockpit = opened.original
    assert cockpit is not None and cockpit.components

    bot.kill()
    await bot.wait_killed()
    assert (await stored_steps(local, match))[0] == played
    await bot.start()

    # the cockpit opened before the crash still flies: a plane or placement, then a step
    for _ in range(6):
        chosen = choose_press(cockpit, rng)
        pressed = await press(people, mover, cockpit, chosen)
        assert not reply(pressed).startswith(("⚠️", "😵")), reply(pressed)
        if chosen.plays:
            played.extend(chosen.plays)
            break
    # the same board message, edited; or, when that ended the turn, told in words below
    # it; or, when the kill came between editing the board and noting that it shows the
    # last move, posted afresh by the restarted bot (it cannot know the edit landed)
    assert (
        board_message(people, thread) is board or words(board).startswith("Turn ") or board.deleted
    )

    # alice opens her cockpits from the board posted before the crash
    flight = await fly_match(people, thread, [alice, bob], rng, by_buttons=[alice])
    assert bot.starts == 2
    await bot.stop()
    assert (await stored_steps(local, match))[0] == played + flight.tokens


async def test_a_killed_bot_leaves_no_process_of_its_tree_behind(tmp_path: Path) -> None:
    """A SIGKILL gives the bot no chance to stop its worker pool: the workers must notice
    by themselves, and the pool's forkserver and resource tracker end with them."""
    async for local in running(tmp_path, env={"WORKERS": "1"}):
        tree = local.bot.tree()
        assert len(tree) >= 3, tree  # a worker at least, the forkserver, the resource tracker
        local.bot.kill()
        await local.bot.wait_killed()
        for _ in range(200):
            if not living(tree):
                break
            await asyncio.sleep(0.1)
        assert living(tree) == set()

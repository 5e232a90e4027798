"""Whole games against the real bot process, driven only by slash commands and clicks."""

from __future__ import annotations

import asyncio
import hashlib
import random

from e2e.conftest import Local, stored_steps
from localcord.autoplay import board_message, fly_match, match_id
from localcord.client import answer, reply
from storage.matches import MatchStatus


async def test_a_duel_from_challenge_to_result(local: Local) -> None:
    people, channel = local.people, local.channel
    alice, bob = people.join("alice"), people.join("bob")

    challenge = await people.slash(alice, channel, "crosshairs challenge", opponent=bob, planes=3)
    assert challenge.original is not None
    assert f"<@{bob.id}>" in challenge.original.content
    assert [b["label"] for b in challenge.original.buttons()] == ["Accept", "Decline"]

    refused = await people.click(alice, challenge.original, "Accept")
    assert "not addressed to you" in reply(refused)
    assert (told := answer(refused)) is not None
    assert told.visible_to == alice.id

    await people.click(bob, challenge.original, "Accept")
    assert "The match is on" in challenge.original.content
    thread = await people.wait_thread(channel)
    board = board_message(people, thread)
    assert [b["label"] for b in board.buttons()][:2] == ["Play", "Lines of fire"]
    png = await people.download(board)
    assert png.startswith(b"\x89PNG")

    # alice flies with the cockpit's buttons, bob with /crosshairs move
    flight = await fly_match(people, thread, [alice, bob], random.Random(7), by_buttons=[alice])
    assert flight.final is not None
    assert "wins" in flight.final.content or "draw" in flight.final.content.lower()
    final_board = board_message(people, thread)
    # a finished game's board offers its rematch, record and analysis (docs/correspondence.md)
    assert [b["label"] for b in final_board.buttons()] == ["Rematch", "Record", "Analyse"]
    assert (
        hashlib.sha256(await people.download(final_board)).digest() != hashlib.sha256(png).digest()
    )

    # the rematch: alice asks, bob accepts, and the same game starts with the seats swapped
    await people.click(alice, final_board, "Rematch")
    offer = await people.wait_for(thread, lambda m: m.content.startswith("🔁 **Rematch?**"))
    assert f"<@{bob.id}>" in offer.content and f"<@{alice.id}>" not in offer.content
    await people.click(bob, offer, "Accept")
    await people.wait_for(thread, lambda m: "The rematch is on" in m.content)
    rematch = local.server.world.threads_of(channel)[-1]
    assert rematch.id != thread.id
    second = board_message(people, rematch)
    assert f"<@{bob.id}>, your turn" in second.content  # bob flies first now

    await local.bot.stop()
    tokens, status = await stored_steps(local, match_id(final_board))
    assert tokens == flight.tokens
    assert status != MatchStatus.ACTIVE


async def test_a_three_player_free_for_all_from_lobby_to_result(local: Local) -> None:
    people, channel = local.people, local.channel
    pilots = [people.join(name) for name in ("ann", "ben", "cat")]

    opened = await people.slash(pilots[0], channel, "crosshairs lobby", mode="ffa3")
    lobby = opened.original
    assert lobby is not None
    start = next(b for b in lobby.buttons() if b["label"] == "Start")
    assert start.get("disabled")
    await people.click(pilots[1], lobby, "Sit P2")
    await people.click(pilots[2], lobby, "Sit P3")
    await people.click(pilots[0], lobby, "Start")
    thread = await people.wait_thread(channel)

    flight = await fly_match(people, thread, pilots, random.Random(3), by_buttons=[pilots[2]])
    assert flight.final is not None
    assert "wins" in flight.final.content or "draw" in flight.final.content.lower()
    await local.bot.stop()
    tokens, _ = await stored_steps(local, match_id(board_message(people, thread)))
    assert tokens == flight.tokens


async def test_two_matches_in_two_channels_at_once(local: Local) -> None:
    people = local.people
    hangar = local.server.world.add_channel("hangar")
    pairs = [
        (local.channel, people.join("dee"), people.join("eve")),
        (hangar, people.join("fay"), people.join("gus")),
    ]

    async def duel(seed: int) -> tuple[int, list[str]]:
        channel, one, two = pairs[seed]
        challenge = await people.slash(one, channel, "crosshairs challenge", opponent=two)
        assert challenge.original is not None
        await people.click(two, challenge.original, "Accept")
        thread = await people.wait_thread(channel)
        flight = await fly_match(people, thread, [one, two], random.Random(seed))
        return match_id(board_message(people, thread)), flight.tokens

    (first, first_tokens), (second, second_tokens) = await asyncio.gather(duel(0), duel(1))
    assert first != second
    assert local.server.world.threads_of(local.channel)[0].parent_id == local.channel.id
    assert len(local.server.world.threads_of(hangar)) == 1
    await local.bot.stop()
    assert (await stored_steps(local, first))[0] == first_tokens
    assert (await stored_steps(local, second))[0] == second_tokens

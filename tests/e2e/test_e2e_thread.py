"""The match thread after many turns flown through the cockpit, against the real bot
process: it ends with the board, holds at most one turn ping, and reads as one message
per player-turn; each plane action took at most a few presses and brought a new board
image, and the thread cost Discord's global rate limit almost nothing."""

from __future__ import annotations

import random
import statistics

from e2e.conftest import Local
from localcord.autoplay import (
    GLYPH,
    board_message,
    fly_match,
    fly_turns_in_cockpit,
    match_thread,
    message_calls,
    words,
)
from localcord.load import EXEMPT

TURNS = 20


async def test_after_twenty_turns_the_thread_ends_with_the_board_and_one_ping(
    local: Local,
) -> None:
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    challenge = await people.slash(
        alice, local.channel, "crosshairs challenge", opponent=bob, planes=6, clouds="none"
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = match_thread(world, challenge.original)
    before = len(world.requests)

    flight = await fly_turns_in_cockpit(people, thread, [alice, bob], random.Random(7), TURNS)

    assert flight.final is None and len(flight.turn_presses) == TURNS  # still being flown
    messages = world.history(thread)
    board = board_message(people, thread)
    assert messages[-1] is board and board.buttons()
    pings = [m for m in messages if "your turn" in m.content]
    assert pings == [board]
    # the match's introduction heads its first message: the first board, then turn 1 told
    intro, first = messages[0].content.split("\n\n", 1)
    assert intro.startswith("✈️ **Match #") and "Seats: alice" in intro
    told = [m for m in messages if words(m).startswith("Turn ")]
    turns = [GLYPH.sub("", first), *(words(m) for m in told)]
    assert [t.split(",", 1)[0] for t in turns] == [f"Turn {n}" for n in range(1, TURNS + 1)]
    assert all(not m.attachments and not m.components for m in [messages[0], *told])
    assert messages.index(told[0]) == 1  # nothing between the turns told
    assert statistics.median(flight.presses) <= 2 and max(flight.presses) <= 4
    calls = message_calls(world.requests[before:])
    # The board is posted and edited through the acting interaction's webhook, which
    # Discord's global limit does not count: at most one rate-limited call per
    # player-turn, and on average under 0.35 per plane action.
    assert sum(calls.values()) <= TURNS
    assert sum(calls.values()) <= 0.35 * len(flight.presses)


async def test_a_whole_duel_costs_the_global_limit_its_thread_and_first_board(
    local: Local,
) -> None:
    """Every other message of the match — the boards after the first, their edits, the
    turns told in words — goes through the interaction that acted, which Discord's
    global limit does not count; but the ratings line, posted with a nonce so that a
    restart cannot post it twice (a follow-up carries none), goes in the channel."""
    people, world = local.people, local.server.world
    alice, bob = people.join("alice"), people.join("bob")
    before = len(world.requests)
    challenge = await people.slash(
        alice, local.channel, "crosshairs challenge", opponent=bob, planes=3, clouds="none"
    )
    assert challenge.original is not None
    await people.click(bob, challenge.original, "Accept")
    thread = match_thread(world, challenge.original)
    first = world.history(thread)[0]
    flight = await fly_match(people, thread, [alice, bob], random.Random(3))
    await people.wait_for(thread, lambda m: "📊" in m.content)

    limited = [r for r in world.requests[before:] if not EXEMPT.search(r.path)]
    threads = [r for r in limited if r.method == "POST" and r.path.endswith("/threads")]
    posts = [r for r in limited if r.method == "POST" and r.path.endswith("/messages")]
    # only the first board, posted before anyone acted in the thread, is edited through
    # the channel, until the turn it shows is told in words
    edits = [r for r in limited if r.method == "PATCH"]
    assert {r.path for r in edits} <= {f"/api/v10/channels/{thread.id}/messages/{first.id}"}
    assert len(threads) == 1
    # the first board, with the introduction, and the ratings line
    assert [r.path for r in posts] == [f"/api/v10/channels/{thread.id}/messages"] * 2
    assert len(limited) == len(threads) + len(posts) + len(edits)  # nothing else, no delete
    # the first board, now the first turn told, still opens the thread with the match
    intro, turn = first.content.split("\n\n", 1)
    assert intro.startswith("✈️ **Match #") and GLYPH.sub("", turn).startswith("Turn 1, alice")
    assert flight.tokens  # the duel was flown to its end

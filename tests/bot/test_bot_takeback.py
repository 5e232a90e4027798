"""Takeback: in an unrated game a player takes back their latest turn (the other people
agree with a button); storage and memory go back together; rated games refuse it."""

from __future__ import annotations

import json
from typing import Any

from simcord.builders import UserHandle
from support.flying import fly_first_turns, match_in, resign
from support.forging import elsewhere, forged_press
from support.replies import answer, refusals
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch
from bot.services.unrated import mark_unrated
from rules import serialize
from storage.matches import MatchRepo
from storage.ratings import RatingRepo


async def fly(person: Any, thread: Any, live: LiveMatch, steps: int | None = None) -> None:
    """``steps`` steps by ``person`` (default: the rest of their turn), the first legal."""
    flown, turn = 0, live.game.turn
    while live.user_to_move() == person.id and live.game.turn == turn and flown != steps:
        token = live.game.legal_steps()[0].token
        result = await person.slash(thread, "crosshairs move", tokens=token)
        assert result.response.content.startswith("✅"), result.response.content
        flown += 1


async def assert_memory_is_storage(bot: CrosshairsBot, live: LiveMatch) -> None:
    repo = MatchRepo(bot.db)
    record = await repo.get(live.id)
    steps = await repo.steps(live.id)
    assert record.ply == live.ply == len(steps)
    assert [s.ply for s in steps] == list(range(1, live.ply + 1))
    assert [s.token for s in steps] == [p.token for p in live.game.history]
    stored = json.loads(record.snapshot)
    assert stored["steps"] == serialize.to_dict(live.game)["steps"]
    assert record.to_move_seat == live.game.to_move


async def test_a_takeback_against_the_computer_returns_to_the_start_of_your_turn(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    assert simcord_bot.user is not None
    me = UserHandle(simcord_env, simcord_env.backend.get_user(simcord_bot.user.id))
    await table.alice.slash(
        table.channel, "crosshairs challenge", opponent=me, strength="easy", clouds="none"
    )
    (thread,) = table.channel.threads
    live = await match_in(simcord_bot, thread)
    await fly(table.alice, thread, live)  # alice's turn; the computer answers it
    kept = [p.token for p in live.game.history]
    await fly(table.alice, thread, live)  # and again
    assert live.ply > len(kept) and live.user_to_move() == table.alice.id
    alices = sum(p.seat == 0 for p in live.game.history[len(kept) :])

    done = answer(await table.alice.slash(thread, "crosshairs takeback"))
    assert done.ephemeral and "took back their last turn" in done.content
    assert [p.token for p in live.game.history] == kept and alices > 0
    assert live.user_to_move() == table.alice.id
    assert "took back their last turn" in board_message(thread).content
    await assert_memory_is_storage(simcord_bot, live)

    # the game goes on from there, and the step log with it
    await fly(table.alice, thread, live, 1)
    assert live.ply == len(kept) + 1
    await assert_memory_is_storage(simcord_bot, live)


async def test_a_rated_game_refuses_a_takeback_and_changes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none")
    live = await match_in(simcord_bot, thread)
    await fly(table.alice, thread, live)
    at = live.ply
    refused = answer(await table.alice.slash(thread, "crosshairs takeback"))
    assert refused.ephemeral and "only for unrated games" in refused.content
    assert "this game is rated" in refused.content and live.ply == at
    assert len(refusals(simcord_env)) == 1
    await assert_memory_is_storage(simcord_bot, live)


async def test_the_other_player_accepts_a_takeback_once_and_a_stranger_cannot(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    lobby = answer(
        await table.alice.slash(table.channel, "crosshairs lobby", mode="ffa3", clouds="none")
    )
    await table.bob.click(lobby, label="Sit P2")
    await table.alice.click(lobby, label="Add computer")
    await table.alice.click(lobby, label="Start")
    (thread,) = table.channel.threads
    live = await match_in(simcord_bot, thread)
    await fly(table.alice, thread, live)
    at = live.ply
    assert at > 0

    asked = answer(await table.alice.slash(thread, "crosshairs takeback"))
    assert not asked.ephemeral and table.bob.mention in asked.content
    request = next(m for m in thread.history() if m.id == asked.id)
    stranger = await table.eve.click(request, label="Accept")
    assert "not addressed to you" in answer(stranger).content
    own = await table.alice.click(request, label="Accept")
    assert "not addressed to you" in answer(own).content
    assert live.ply == at

    await table.bob.click(request, label="Accept")
    assert live.ply == 0 and live.user_to_move() == table.alice.id
    request = next(m for m in thread.history() if m.id == asked.id)
    assert "took back" in request.content and request.components == []
    await assert_memory_is_storage(simcord_bot, live)


async def test_a_declined_takeback_changes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    lobby = answer(
        await table.alice.slash(table.channel, "crosshairs lobby", mode="ffa3", clouds="none")
    )
    await table.bob.click(lobby, label="Sit P2")
    await table.alice.click(lobby, label="Add computer")
    await table.alice.click(lobby, label="Start")
    (thread,) = table.channel.threads
    live = await match_in(simcord_bot, thread)
    await fly(table.alice, thread, live, 1)
    asked = answer(await table.alice.slash(thread, "crosshairs takeback"))
    request = next(m for m in thread.history() if m.id == asked.id)
    await table.bob.click(request, label="Decline")
    request = next(m for m in thread.history() if m.id == asked.id)
    assert "Declined by bob" in request.content and request.components == []
    assert live.ply == 1
    await assert_memory_is_storage(simcord_bot, live)


async def test_a_challenge_marked_unrated_allows_takebacks_and_is_not_rated(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    invite = await table.challenge(clouds="none", rated=False)
    assert "unrated (takebacks allowed)" in invite.content
    await table.bob.click(invite, label="Accept")
    (thread,) = table.channel.threads
    live = await match_in(simcord_bot, thread)
    await fly(table.alice, thread, live)
    asked = answer(await table.alice.slash(thread, "crosshairs takeback"))
    await table.bob.click(next(m for m in thread.history() if m.id == asked.id), label="Accept")
    assert live.ply == 0 and live.user_to_move() == table.alice.id
    await assert_memory_is_storage(simcord_bot, live)

    # played to a result, it moves nobody's rating, and its rematch is unrated too
    await fly_first_turns(table.member, thread, live)
    await resign(table.bob, thread)
    assert any("the players chose an unrated game" in m.content for m in thread.history())
    assert await RatingRepo(simcord_bot.db).get(table.alice.id, "duel") is None
    await table.alice.click(board_message(thread), label="Rematch")
    offer = [m for m in thread.history() if m.content.startswith("🔁 **Rematch?**")][-1]
    assert "unrated (takebacks allowed)" in offer.content


async def test_a_takeback_waits_for_everyone_asked(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """In a game of three people the first yes is counted and waits for the second;
    only then is the turn taken back (the agreements are the takeback service's)."""
    table = Table(simcord_env)
    lobby = answer(
        await table.alice.slash(table.channel, "crosshairs lobby", mode="ffa3", clouds="none")
    )
    await table.bob.click(lobby, label="Sit P2")
    await table.eve.click(lobby, label="Sit P3")
    await table.alice.click(lobby, label="Start")
    (thread,) = table.channel.threads
    live = await match_in(simcord_bot, thread)
    await mark_unrated(simcord_bot.games, live.id)  # as if they had chosen it: a lobby cannot
    await fly(table.alice, thread, live)
    at = live.ply

    asked = answer(await table.alice.slash(thread, "crosshairs takeback"))
    assert table.bob.mention in asked.content and table.eve.mention in asked.content
    request = next(m for m in thread.history() if m.id == asked.id)
    first = await table.bob.click(request, label="Accept")
    assert "waiting for the others" in answer(first).content
    again = await table.bob.click(request, label="Accept")
    assert "waiting for the others" in answer(again).content  # still one yes of two
    assert live.ply == at

    await table.eve.click(request, label="Accept")
    assert live.ply == 0 and live.user_to_move() == table.alice.id
    await assert_memory_is_storage(simcord_bot, live)


async def unrated_duel(table: Table, bot: CrosshairsBot) -> tuple[Any, LiveMatch]:
    invite = await table.challenge(clouds="none", rated=False)
    await table.bob.click(invite, label="Accept")
    (thread,) = table.channel.threads
    return thread, await match_in(bot, thread)


async def test_an_older_request_is_stale_once_a_takeback_was_done(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Two requests asked at one ply: once one is done and the game is back at that
    ply with another turn, the other undoes nothing."""
    table = Table(simcord_env)
    thread, live = await unrated_duel(table, simcord_bot)
    await fly(table.alice, thread, live)
    at = live.ply
    first = answer(await table.alice.slash(thread, "crosshairs takeback"))
    second = answer(await table.alice.slash(thread, "crosshairs takeback"))
    await table.bob.click(next(m for m in thread.history() if m.id == second.id), label="Accept")
    assert live.ply == 0
    while live.ply < at:  # alice flies her turn again, another way
        legal = live.game.legal_steps()
        token = legal[-1].token
        assert (await table.alice.slash(thread, "crosshairs move", tokens=token)).response
    again = [p.token for p in live.game.history]

    old = next(m for m in thread.history() if m.id == first.id)
    said = answer(await table.bob.click(old, label="Accept"))
    assert "out of date" in said.content
    assert [p.token for p in live.game.history] == again and live.ply == at
    await assert_memory_is_storage(simcord_bot, live)


async def test_a_forged_takeback_button_undoes_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    """Bob forges the accept of a takeback alice never asked for, in the old form that
    named the asker and the ply, and in the new one with a number never used."""
    table = Table(simcord_env)
    thread, live = await unrated_duel(table, simcord_bot)
    await fly(table.alice, thread, live)
    at = live.ply
    board = board_message(thread)
    for custom_id in (f"xh:tb:{live.id}:{at}:{table.alice.id}:accept", "xh:tb:77:accept"):
        said = await forged_press(simcord_env, table.bob, board, custom_id)
        assert "out of date" in said, said
        assert live.ply == at
    await assert_memory_is_storage(simcord_bot, live)

    # a real request answers only in its own thread and only for the person asked
    asked = answer(await table.alice.slash(thread, "crosshairs takeback"))
    accept = next(i["custom_id"] for row in asked.components for i in row["components"])
    bob, _mallory, own = await elsewhere(simcord_env, table.bob)
    said = await forged_press(simcord_env, bob, own, accept)
    assert said == f"⚠️ there is no match #{live.id} here"
    assert live.ply == at

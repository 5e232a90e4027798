"""Rematch: the finished board's button, pressed by a player, offers the same game with
the seats swapped; the other player accepts or declines with a button."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from simcord.builders import UserHandle
from support.flying import fly_first_turns, match_in, resign
from support.replies import answer
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.live import LiveMatch


def labels(message: Any) -> list[str]:
    return [item.label for row in message.components for item in row.children]


async def finished_duel(table: Table, bot: CrosshairsBot) -> tuple[Any, LiveMatch]:
    thread = await table.start(clouds="none", planes=4, clock=86400)
    live = await match_in(bot, thread)
    await fly_first_turns(table.member, thread, live)
    await resign(table.bob, thread)
    assert live.game.is_over
    return thread, live


async def test_a_rematch_offered_and_accepted_starts_the_same_game_with_seats_swapped(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread, first = await finished_duel(table, simcord_bot)
    assert labels(board_message(thread)) == ["Rematch", "Record", "Analyse"]

    stranger = await table.eve.click(board_message(thread), label="Rematch")
    assert stranger.ephemeral
    assert "only the players of this match" in answer(stranger).content

    await table.alice.click(board_message(thread), label="Rematch")
    offer = [m for m in thread.history() if m.content.startswith("🔁 **Rematch?**")]
    assert len(offer) == 1
    assert table.bob.mention in offer[0].content and table.alice.mention not in offer[0].content
    again = await table.alice.click(board_message(thread), label="Rematch")
    assert again.ephemeral and "already asked" in answer(again).content
    refused = await table.eve.click(offer[0], label="Accept")
    assert refused.ephemeral and "not addressed to you" in answer(refused).content
    assert len(table.channel.threads) == 1  # nothing started yet

    await table.bob.click(offer[0], label="Accept")
    assert len(table.channel.threads) == 2
    second = await match_in(simcord_bot, table.channel.threads[-1])
    assert second.id != first.id
    assert [e.user_id for e in second.seats] == [table.bob.id, table.alice.id]
    assert second.game.settings.plane_counts() == first.game.settings.plane_counts()
    assert second.clock == first.clock and second.clock.per_turn == 86400
    assert not second.game.clouds
    settled = next(m for m in thread.history() if m.id == offer[0].id)
    assert "✅ Accepted" in settled.content and settled.components == []

    # pressed again: it acted once
    more = await table.alice.click(board_message(thread), label="Rematch")
    assert more.ephemeral and "rematch is already on" in answer(more).content
    assert len(table.channel.threads) == 2
    assert len(simcord_bot.games.live_matches()) == 1


async def test_both_players_pressing_rematch_is_one_rematch(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread, _ = await finished_duel(table, simcord_bot)
    await table.eve.slash(thread, "crosshairs board")  # a board posted again keeps its buttons
    assert labels(board_message(thread)) == ["Rematch", "Record", "Analyse"]
    await table.bob.click(board_message(thread), label="Rematch")
    await table.alice.click(board_message(thread), label="Rematch")  # a yes to bob's offer
    assert len(table.channel.threads) == 2
    second = await match_in(simcord_bot, table.channel.threads[-1])
    assert [e.user_id for e in second.seats] == [table.bob.id, table.alice.id]


async def test_a_declined_rematch_starts_nothing_and_cannot_be_pressed_again(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread, _ = await finished_duel(table, simcord_bot)
    await table.alice.click(board_message(thread), label="Rematch")
    (offer,) = [m for m in thread.history() if m.content.startswith("🔁 **Rematch?**")]
    declined = await table.bob.click(offer, label="Decline")
    assert "declined by bob" in answer(declined).content
    offer = next(m for m in thread.history() if m.id == offer.id)
    assert "declined" in offer.content and offer.components == []
    again = await table.alice.click(board_message(thread), label="Rematch")
    assert "declined by bob" in answer(again).content
    assert len(table.channel.threads) == 1


async def test_a_rematch_against_the_computer_starts_at_once(
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
    while live.game.unflown():  # alice's two placements; the computer answers each turn
        await table.alice.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    await resign(table.alice, thread)
    assert live.game.is_over and not live.aborted
    await table.alice.click(board_message(thread), label="Rematch")
    assert len(table.channel.threads) == 2
    second = await match_in(simcord_bot, table.channel.threads[-1])
    assert second.seats[0].user_id is None and second.seats[0].strength == "easy"
    assert second.seats[1].user_id == table.alice.id


async def test_an_aborted_match_offers_no_rematch(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start()
    await table.bob.slash(thread, "crosshairs abort")
    assert board_message(thread).components == []


async def test_an_offer_outlives_a_restart_and_the_restarted_bot_settles_its_message(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Callable[[], CrosshairsBot]
) -> None:
    """The offer is stored: after a restart, Bob's Accept on the offer posted before it
    starts the rematch, and the new process, which never posted the offer, finds its
    message in storage and settles it."""
    table = Table(simcord_env)
    thread, _ = await finished_duel(table, simcord_bot)
    await table.alice.click(board_message(thread), label="Rematch")
    (offer,) = [m for m in thread.history() if m.content.startswith("🔁 **Rematch?**")]
    restarted = new_bot()
    await simcord_env.restart_bot(restarted)
    await table.bob.click(offer, label="Accept")
    assert len(table.channel.threads) == 2
    second = await match_in(restarted, table.channel.threads[-1])
    assert [e.user_id for e in second.seats] == [table.bob.id, table.alice.id]
    settled = next(m for m in thread.history() if m.id == offer.id)
    assert "Accepted: the rematch is on" in settled.content and settled.components == []
    late = await table.alice.click(board_message(thread), label="Rematch")
    assert late.ephemeral and f"already on: match #{second.id}" in answer(late).content

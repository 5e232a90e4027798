"""Quick pairing: ``/crosshairs play`` pairs two players seeking the same duel in a
server, or gives the seat to the computer once the wait the player chose runs out."""

from __future__ import annotations

from typing import Any

import pytest
from support.flying import match_in
from support.replies import answer, refusals
from support.tables import Table

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.live import ClockSettings, MatchError, Occupant
from bot.services.seeks import Seeks, SoughtGame
from rules.modes import Settings


def message_of(table: Table, answered: Any) -> Any:
    """The message as the channel holds it now."""
    return next(m for m in table.channel.history() if m.id == answered.id)


async def seek(table: Table, who: Any, **options: Any) -> Any:
    return answer(await who.slash(table.channel, "crosshairs play", **options))


async def test_two_players_seeking_the_same_duel_are_paired_and_their_match_opens(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    waiting = await seek(table, table.alice, planes=4)
    assert "alice seeks a duel" in waiting.content and "In 5 min the computer" in waiting.content
    assert not table.channel.threads
    paired = await seek(table, table.bob, planes=4)
    assert "The match is on" in paired.content
    [thread] = table.channel.threads
    live = await match_in(simcord_bot, thread)
    assert [s.user_id for s in live.seats] == [table.alice.id, table.bob.id]
    assert live.game.settings.planes == 4
    alices = message_of(table, waiting)
    assert "Quick pairing: alice meets bob. The match is on" in alices.content
    assert thread.mention in alices.content
    assert not alices.components  # no Cancel once paired
    # nobody is left waiting: the next seeker waits
    assert "eve seeks a duel" in (await seek(table, table.eve, planes=4)).content


async def test_different_games_do_not_pair_and_nobody_seeks_twice(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    await seek(table, table.alice, planes=4)
    assert "bob seeks a duel" in (await seek(table, table.bob, planes=5)).content
    assert "bob seeks a duel" not in (await seek(table, table.eve, rated=False)).content
    await table.alice.slash(table.channel, "crosshairs play", planes=4)
    assert refusals(simcord_env) == [
        "you are already seeking a game: cancel that seek first, or wait for it"
    ]
    assert not table.channel.threads


async def test_the_computer_takes_the_seat_when_the_wait_runs_out(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    waiting = await seek(table, table.alice, computer_after=2, strength="easy")
    assert "In 2 min the computer (easy)" in waiting.content
    clock.advance(100)
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    assert not table.channel.threads  # not yet
    clock.advance(21)
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    [thread] = table.channel.threads
    live = await match_in(simcord_bot, thread)
    assert live.seats[0].user_id == table.alice.id and live.seats[1].user_id is None
    assert live.seats[1].strength == "easy"
    said = message_of(table, waiting).content
    assert "No one came: the computer takes the seat" in said and thread.mention in said
    # she seeks no more: bob now waits instead of being paired with her
    assert "bob seeks a duel" in (await seek(table, table.bob)).content


async def test_never_means_no_computer_and_cancel_is_the_seekers_only(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    waiting = await seek(table, table.alice, computer_after=0)
    assert "the computer" not in waiting.content
    clock.advance(86400)
    await simcord_env.advance_time(simcord_bot.config.clock_interval + 1)
    assert not table.channel.threads
    message = message_of(table, waiting)
    refused = answer(await table.eve.click(message, label="Cancel"))
    assert refused.ephemeral and "this seek is someone else's" in refused.content
    assert simcord_bot.env.seeks.of(table.alice.id) is not None
    await table.alice.click(message, label="Cancel")
    assert "alice no longer seeks a duel" in message_of(table, waiting).content
    assert simcord_bot.env.seeks.of(table.alice.id) is None
    assert "bob seeks a duel" in (await seek(table, table.bob)).content


def test_two_seeking_at_once_are_paired_exactly_once() -> None:
    """Both commands pass the first check before either is answered; the seeks are then
    taken in turn with no await in between, so the second finds the first waiting."""
    seeks = Seeks(FakeClock())
    game = SoughtGame(Settings(), "random", ClockSettings(None), True)
    alice, bob = Occupant(1, "alice"), Occupant(2, "bob")
    seeks.check(1)
    seeks.check(2)
    first, none = seeks.seek(alice, 10, 20, game, 300.0, "medium")
    second, partner = seeks.seek(bob, 10, 20, game, 300.0, "medium")
    assert none is None and partner is first and second.seeker is bob
    assert seeks.of(1) is None and seeks.of(2) is None and not seeks.due()
    with pytest.raises(MatchError):  # a double press of one player seeks once
        seeks.seek(bob, 10, 20, game, None, "medium")
        seeks.seek(bob, 10, 20, game, None, "medium")

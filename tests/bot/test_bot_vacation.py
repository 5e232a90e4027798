"""Vacations: ``/crosshairs vacation days:N`` holds your turn clocks (in memory and in
storage) until N days have passed, within an allowance of 14 days in any 30."""

from __future__ import annotations

from typing import Any

from support.flying import match_in
from support.replies import answer, refusals
from support.tables import Table, board_message

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.live import LiveMatch
from storage.matches import MatchRepo, MatchStatus

DAY = 86400


async def tick(env: Any, bot: CrosshairsBot) -> None:
    await env.advance_time(bot.config.clock_interval + 1)


async def bobs_turn(table: Table, bot: CrosshairsBot) -> tuple[Any, LiveMatch]:
    """A duel with a day per turn in which alice flew her first turn: bob is to fly."""
    thread = await table.start(clouds="none", clock=DAY)
    live = await match_in(bot, thread)
    turn = live.game.turn
    while live.user_to_move() == table.alice.id and live.game.turn == turn:
        await table.alice.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    return thread, live


async def test_a_vacation_holds_the_clock_until_it_ends(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    thread, live = await bobs_turn(table, simcord_bot)
    assert live.user_to_move() == table.bob.id

    said = answer(await table.bob.slash(table.channel, "crosshairs vacation", days=3))
    assert said.ephemeral and "On vacation until" in said.content
    assert "11 vacation day(s) left" in said.content
    assert live.deadline == clock.now() + 4 * DAY
    assert (await MatchRepo(simcord_bot.db).get(live.id)).turn_deadline == live.deadline
    assert "is on vacation" in board_message(thread).content

    clock.advance(2 * DAY)  # bob's day has long run out, but he is away
    await tick(simcord_env, simcord_bot)
    assert not live.over
    clock.advance(2 * DAY + 1)  # three days of vacation and then his whole day
    await tick(simcord_env, simcord_bot)
    record = await MatchRepo(simcord_bot.db).get(live.id)
    assert live.over and record.status is MatchStatus.FINISHED


async def test_the_allowance_is_fourteen_days_in_thirty(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)

    async def ask(days: int) -> str:
        result = await table.bob.slash(table.channel, "crosshairs vacation", days=days)
        return str(answer(result).content)

    assert "On vacation" in await ask(10)
    assert "you are on vacation until" in await ask(2)
    clock.advance(3 * DAY)
    assert "Welcome back" in await ask(0)  # three days used
    assert "not on vacation" in await ask(0)
    assert "On vacation" in await ask(8)
    clock.advance(9 * DAY)
    assert "you have 3 vacation day(s) left" in await ask(4)
    assert "On vacation" in await ask(3)
    clock.advance(31 * DAY)  # the window has moved past them all
    assert "On vacation" in await ask(14)
    assert len(refusals(simcord_env)) == 2


async def test_a_vacation_ended_early_gives_the_time_back_to_the_clock(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    table = Table(simcord_env)
    thread, live = await bobs_turn(table, simcord_bot)
    answer(await table.bob.slash(table.channel, "crosshairs vacation", days=14))
    assert live.deadline == clock.now() + 15 * DAY

    clock.advance(DAY // 2)
    said = answer(await table.bob.slash(table.channel, "crosshairs vacation", days=0))
    assert "Welcome back" in said.content
    assert live.deadline == clock.now() + DAY  # his whole turn from now, not 14 days more
    assert (await MatchRepo(simcord_bot.db).get(live.id)).turn_deadline == live.deadline
    assert "is on vacation" not in board_message(thread).content

    clock.advance(DAY + 1)
    await tick(simcord_env, simcord_bot)
    assert live.over  # his clock ran out as anyone's would

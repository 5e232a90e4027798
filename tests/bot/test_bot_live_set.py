"""Live state that does not grow with idle matches: after a restart no match is in
memory until something touches it (a press, a command, an autocomplete keystroke, a
clock due); memory keeps a bounded set and evicts only idle matches, which reload
exactly as storage holds them; the turn clocks read storage's index of what is due."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from support.replies import answer
from support.tables import Table, board_message

from bot.config import Config, ConfigError
from bot.discord_app import CrosshairsBot
from bot.env import stores_on
from bot.services.clock import FakeClock
from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.live_set import DEFAULT_SIZE, busy
from bot.services.manager import Games
from rules.modes import Settings
from storage.db import Database

ALICE, BOB = 11, 22


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "games.db")
    yield database
    await database.close()


def loaded_ids(bot: CrosshairsBot) -> set[int]:
    return {m.id for m in bot.games.loaded()}


async def test_after_a_restart_a_match_is_loaded_only_when_touched(
    simcord_env: Any, simcord_bot: CrosshairsBot, new_bot: Any
) -> None:
    table = Table(simcord_env)
    threads = [await table.start(clouds="none") for _ in range(4)]
    ids = [(await simcord_bot.games.by_thread(t.id)).id for t in threads]  # type: ignore[union-attr]
    fresh: CrosshairsBot = new_bot()
    await simcord_env.restart_bot(fresh)
    await simcord_env.settle()
    assert loaded_ids(fresh) == set()  # none loaded at start-up
    assert await fresh.games.resume() == 4

    first = await fresh.games.get(ids[0])
    pilot = table.member(first.user_to_move())
    fresh.games.live.drop(ids[0])
    del first
    offers = await pilot.autocomplete(threads[0], "crosshairs move", "tokens", "")
    assert offers and loaded_ids(fresh) == {ids[0]}  # a keystroke loaded it

    posted = answer(await table.eve.slash(threads[1], "crosshairs board"))
    assert "Board posted" in posted.content and loaded_ids(fresh) == {ids[0], ids[1]}

    pressed = answer(await table.eve.click(board_message(threads[2]), label="Play"))
    assert "not playing" in pressed.content  # a watcher's press, answered from storage
    assert loaded_ids(fresh) == {ids[0], ids[1], ids[2]}
    assert ids[3] not in fresh.games.live  # never touched, never loaded


async def test_a_due_clock_loads_its_match_from_the_index_and_no_other(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    games = Games(stores_on(db), clock)
    made = []
    for per_turn in (100, 10_000):
        live = await games.create(
            [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
            Settings(),
            channel_id=1,
            clock=ClockSettings(per_turn=per_turn),
        )
        made.append(live.id)
    del live
    ids = tuple(made)
    later = Games(stores_on(db), clock)  # a restart: nothing in memory
    asked: list[float] = []
    due = later.index.due

    async def spied(before: float, shards: Any) -> list[int]:
        asked.append(before)
        return await due(before, shards)

    monkeypatch.setattr(later.index, "due", spied)
    clock.advance(80)
    remind, expired = await later.clocks.tick()
    assert [m.id for m in remind] == [ids[0]] and expired == []
    assert asked == [clock.now()] and {m.id for m in later.loaded()} == {ids[0]}
    assert await later.index.due(clock.now() + 19, later.shards) == []  # reminded: due at 100

    again = Games(stores_on(db), clock)  # the reminder is stored: not sent twice
    assert await again.clocks.tick() == ([], [])
    assert again.loaded() == []  # nothing due, nothing loaded
    clock.advance(21)
    _, expired = await again.clocks.tick()
    assert [u.match.id for u in expired] == [ids[0]] and "runs out of time" in expired[0].text()
    assert ids[1] not in again.live


def state(live: LiveMatch) -> tuple[object, ...]:
    record = live.record
    return (
        live.game.state_key(),
        live.ply,
        live.names,
        live.deadline,
        live.reminded,
        live.clock,
        (record.id, record.thread_id, record.board_message_id, record.status),
    )


async def test_memory_keeps_a_bounded_set_and_an_evicted_match_reloads_as_stored(
    db: Database,
) -> None:
    clock = FakeClock()
    games = Games(stores_on(db), clock, keep=2)
    made = []
    for n in range(4):
        live = await games.create(
            [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
            Settings(),
            channel_id=1,
            thread_id=100 + n,
            seed=n,
            clock=ClockSettings(per_turn=600),
        )
        await games.play(live.id, ALICE, [live.game.legal_steps()[0].token])
        made.append((live.id, state(live)))
    assert len(games.loaded()) == 2  # the two most recently used
    assert [m.id for m in games.loaded()] == [made[2][0], made[3][0]]
    del live

    for match_id, before in made:  # each evicted one reloads exactly as it was
        assert state(await games.get(match_id)) == before
        assert len(games.loaded()) == 2
    found = await games.by_thread(100)
    assert found is not None and found.id == made[0][0]

    offered = await games.get(made[1][0])  # a draw offer lives only in memory: kept
    await games.offer_draw(offered.id, ALICE)
    assert busy(offered)
    for match_id, _ in made:
        await games.get(match_id)
    assert offered.id in {m.id for m in games.loaded()}

    held = await games.get(made[2][0])  # still held elsewhere: the same object comes back
    for match_id, _ in made[:2]:
        await games.get(match_id)
    assert held.id not in {m.id for m in games.loaded()}
    assert await games.get(held.id) is held


def test_the_matches_kept_in_memory_are_a_setting() -> None:
    assert Config.from_env({}).matches_in_memory == DEFAULT_SIZE
    assert Config.from_env({"MATCHES_IN_MEMORY": "50"}).matches_in_memory == 50
    with pytest.raises(ConfigError, match="MATCHES_IN_MEMORY"):
        Config.from_env({"MATCHES_IN_MEMORY": "0"})

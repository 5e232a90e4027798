"""Scale settings and what they change: which process ticks a guild's clocks, the
settings' refusals, autocomplete that never waits on the engine, and the worker
processes (those are in test_bot_workers.py)."""

from __future__ import annotations

import os
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import create_bot
from bot.config import Config, ConfigError
from bot.discord_app import CrosshairsBot
from bot.env import stores_on
from bot.services import jobs, restart
from bot.services.clock import FakeClock
from bot.services.live import ClockSettings, Occupant
from bot.services.manager import Games
from bot.services.shards import Shards
from bot.services.workers import Workers
from rules.modes import Settings
from storage.db import Database

ALICE, BOB = 11, 22
GUILD_ON_SHARD_1 = (5 << 22) | 77  # (guild >> 22) % 2 == 1


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "games.db")
    yield database
    await database.close()


async def test_a_guilds_clock_ticks_only_in_the_process_that_owns_its_shard(
    db: Database,
) -> None:
    clock = FakeClock()
    owner = Games(stores_on(db), clock, shards=Shards(2, (1,)))
    other = Games(stores_on(db), clock, shards=Shards(2, (0,)))
    live = await owner.create(
        [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
        Settings(),
        channel_id=1,
        guild_id=GUILD_ON_SHARD_1,
        clock=ClockSettings(per_turn=60),
    )
    assert await other.resume() == 0  # the other process does not count the owner's match
    assert await owner.resume() == 1
    await other.get(live.id)  # even held in memory (a lookup), it is not the other's to tick
    clock.advance(61)
    assert await other.clocks.tick() == ([], [])
    _, expired = await owner.clocks.tick()
    assert len(expired) == 1 and "runs out of time" in expired[0].text()
    assert await other.clocks.tick() == ([], [])
    assert (await owner.repo.get(live.id)).status == "finished"


async def test_a_turn_left_untold_is_told_only_by_the_process_that_owns_its_shard(
    db: Database,
) -> None:
    owner = Games(stores_on(db), FakeClock(), shards=Shards(2, (1,)))
    other = Games(stores_on(db), FakeClock(), shards=Shards(2, (0,)))
    live = await owner.create(
        [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
        Settings(),
        channel_id=1,
        guild_id=GUILD_ON_SHARD_1,
        cloud_setup="none",
    )
    while live.user_to_move() == ALICE:  # nobody hears it: the process "dies" untold
        await owner.play(live.id, ALICE, [live.game.legal_steps()[0].token])
    assert await restart.untold_turns(other) == []  # not the other process's to tell
    (turn,) = await restart.untold_turns(owner)
    assert (turn.match.id, turn.ply, turn.actor) == (live.id, live.ply, ALICE)


def test_shard_settings_from_the_environment() -> None:
    config = Config.from_env(
        {"SHARD_COUNT": "4", "SHARD_IDS": "3, 1", "METRICS_PORT": "9100", "WORKERS": "3"}
    )
    assert (config.shard_count, config.shard_ids) == (4, (1, 3))
    assert config.shards.owns(GUILD_ON_SHARD_1) is True  # (guild >> 22) % 4 == 1
    assert (config.metrics_port, config.workers, config.log_format) == (9100, 3, "text")
    single = Config.from_env({})
    assert single.shard_count is None and single.shards.owns(GUILD_ON_SHARD_1)
    assert single.metrics_port is None and single.workers >= 1
    assert Config.from_env({"SHARD_COUNT": "2"}).shards == Shards(2, (0, 1))


async def test_the_rest_budget_is_discords_unless_set_and_paces_the_bot() -> None:
    assert Config.from_env({}).rest_per_second == 45
    config = Config.from_env({"REST_PER_SECOND": "90"})
    bot = create_bot(config, FakeClock())
    assert (bot.pace.limit, bot.pace.interval) == (90, 1 / 90)


async def test_the_workers_run_below_the_loop_by_the_niceness_set() -> None:
    config = Config.from_env({"WORKERS": "1", "WORKER_NICENESS": "7"})
    assert Config.from_env({}).worker_niceness == 5
    pool = Workers(config.workers, config.worker_niceness)
    await pool.start()
    try:
        # os.nice(0) changes nothing and answers the process's niceness
        assert await pool.run(os.nice, 0) == os.nice(0) + 7
    finally:
        await pool.close()


def test_each_worker_draws_a_first_board_at_the_sizes_the_bot_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = Config.from_env({"BOARD_PIXELS": "512"})
    assert config.drawn_sizes == (512, 384)  # the board and the cockpit's preview
    drawn: list[int] = []
    monkeypatch.setattr(jobs, "board_png", lambda game, size: drawn.append(size))
    monkeypatch.setattr(os, "nice", lambda increment: 0)
    jobs.start_worker(0, config.drawn_sizes)
    assert drawn == [512, 384]


@pytest.mark.parametrize(
    ("env", "why"),
    [
        ({"SHARD_IDS": "0"}, "SHARD_IDS needs SHARD_COUNT"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "2"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0,x"}, "SHARD_IDS"),
        ({"SHARD_COUNT": "0"}, "SHARD_COUNT"),
        ({"SHARD_COUNT": "²"}, "SHARD_COUNT"),
        ({"METRICS_PORT": "70000"}, "METRICS_PORT"),
        ({"WORKERS": "-1"}, "WORKERS"),
        ({"WORKER_NICENESS": "20"}, "WORKER_NICENESS"),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT"),
        ({"REST_PER_SECOND": "0"}, "REST_PER_SECOND"),
        ({"REST_PER_SECOND": "4.5"}, "REST_PER_SECOND"),
        ({"BOARD_PIXELS": "100"}, "BOARD_PIXELS"),
        ({"BOARD_PIXELS": "big"}, "BOARD_PIXELS"),
    ],
)
def test_a_bad_scale_setting_is_named(env: dict[str, str], why: str) -> None:
    with pytest.raises(ConfigError, match=why):
        Config.from_env(env)


class Gate:
    """Holds the worker's search for tokens until released, counting the calls."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.calls = 0
        self.real = jobs.legal_tokens

    def __call__(self, snapshot: str, done: list[str]) -> tuple[str, ...] | None:
        self.calls += 1
        self.open.wait(30)
        return self.real(snapshot, done)


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    held = Gate()
    monkeypatch.setattr(jobs, "legal_tokens", held)
    yield held
    held.open.set()


async def test_autocomplete_answers_from_kept_steps_and_never_waits_on_a_search(
    simcord_env: Any, simcord_bot: CrosshairsBot, gate: Gate
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("dogfights")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    invite = await alice.slash(channel, "crosshairs challenge", opponent=bob, clouds="none")
    await bob.click(invite.response.message, label="Accept")
    (thread,) = channel.threads
    choices = await alice.autocomplete(thread, "crosshairs move", "tokens", "+a1")
    assert {c["value"] for c in choices} == {f"+a1{d}" for d in ("E", "NE", "NW", "W", "SW", "SE")}
    assert gate.calls == 0  # the position's steps were kept when the match started
    # after a typed token the steps are worked out in a worker; while that is held up,
    # a keystroke gets an empty answer at once instead of waiting
    live = next(iter(simcord_bot.games.live_matches()))
    assert await simcord_bot.games.suggestions.tokens(live, ["+a1NE"], wait=0.05) == ()
    gate.open.set()
    await simcord_env.settle()
    after = await alice.autocomplete(thread, "crosshairs move", "tokens", "+a1NE +k")
    assert after and all(c["value"].startswith("+a1NE +k") for c in after)
    assert gate.calls == 1  # worked out once, then kept


def test_the_smallest_board_allowed_has_a_preview_that_can_be_drawn() -> None:
    config = Config.from_env({"BOARD_PIXELS": "256"})
    assert config.drawn_sizes == (256, 200)  # not 192: no board is drawn that narrow
    jobs.start_worker(0, config.drawn_sizes)  # a worker's start draws one at each

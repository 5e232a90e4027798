"""The game manager without Discord: whole games, every refusal, clocks, restarts."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.env import stores_on
from bot.services.clock import FakeClock
from bot.services.live import AlreadyOut, AlreadyOver, ClockSettings, LiveMatch, NotYours, Occupant
from bot.services.manager import Games
from bot.services.refusal import Refusal
from rules import board
from rules.modes import Settings
from storage.db import Database

ALICE, BOB, CAROL, DAVE, EVE = 11, 22, 33, 44, 55


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "games.db")
    yield database
    await database.close()


def people(*ids: int) -> list[Occupant]:
    names = {ALICE: "alice", BOB: "bob", CAROL: "carol", DAVE: "dave", EVE: "eve"}
    return [Occupant(i, names[i]) for i in ids]


async def play_to_the_end(games: Games, live: LiveMatch, seed: int) -> int:
    """Let the seated players make random legal moves until the game ends."""
    rng = random.Random(seed)
    moves = 0
    while not live.game.is_over:
        user = live.user_to_move()
        assert user is not None
        step = rng.choice(live.game.legal_steps())
        update = await games.play(live.id, user, [step.token], expect_ply=live.ply)
        assert update.lines or update.events
        moves += 1
        assert moves < 5000
    return moves


async def fly_first_turns(games: Games, live: LiveMatch) -> None:
    """Every side flies its first turn (the first legal step each time), so that the
    game can end with a result rather than be aborted."""
    while live.game.unflown():
        user = live.user_to_move()
        assert user is not None
        await games.play(live.id, user, [live.game.legal_steps()[0].token])


async def test_a_whole_duel_through_the_manager_is_stored_step_by_step(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    live = await games.create(people(ALICE, BOB), Settings(), channel_id=1, guild_id=9, seed=3)
    moves = await play_to_the_end(games, live, seed=1)
    stored = await games.repo.get(live.id)
    assert stored.status == "finished"
    assert stored.ply == len(live.game.history) >= moves
    assert json.loads(stored.result_json or "{}")["winners"] == list(live.game.result.winners)  # type: ignore[union-attr]
    steps = await games.repo.steps(live.id)
    assert [s.token for s in steps] == [p.token for p in live.game.history]
    assert {s.actor_id for s in steps} <= {ALICE, BOB}
    assert games.live_matches() == []  # memory keeps only games in play
    again = await games.get(live.id)  # a finished game still loads, from storage
    assert again is not live and again.game.state_key() == live.game.state_key()


async def test_a_whole_four_player_game_through_the_manager(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    live = await games.create(
        people(ALICE, BOB, CAROL, DAVE), Settings(mode="ffa4"), channel_id=1, seed=5
    )
    await play_to_the_end(games, live, seed=2)
    assert live.game.result is not None
    assert (await games.repo.get(live.id)).status == "finished"


async def test_the_update_explains_the_action_and_whose_turn_it_is(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    live = await games.create(people(ALICE, BOB), Settings(), channel_id=1, cloud_setup="none")
    update = await games.play(live.id, ALICE, ["+a3NE"])
    assert (
        "alice (P1) brings a plane on at a3, facing north-east, height 0 (+a3NE)." in update.text()
    )
    assert "bob (P2) to fly, 2 actions left" in update.text()


# ---------------------------------------------------------------- refusals


@pytest.fixture
async def duel(db: Database) -> tuple[Games, LiveMatch]:
    games = Games(stores_on(db), FakeClock())
    live = await games.create(people(ALICE, BOB), Settings(), channel_id=1, cloud_setup="none")
    return games, live


async def assert_refused(
    games: Games,
    live: LiveMatch,
    why: str,
    coro: object,
    kind: type[Refusal] = Refusal,
) -> None:
    """The refusal says ``why``, is of its ``kind`` (every kind is a Refusal, answered
    the same friendly way), and leaves memory and storage as they were."""
    before = (live.ply, live.game.state_key(), (await games.repo.get(live.id)).ply)
    with pytest.raises(kind, match=why):
        await coro  # type: ignore[misc]
    after = (live.ply, live.game.state_key(), (await games.repo.get(live.id)).ply)
    assert after == before


async def test_a_stranger_cannot_act(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    play, resign = games.play(live.id, EVE, ["+a3NE"]), games.resign(live.id, EVE)
    await assert_refused(games, live, "not playing", play, NotYours)
    await assert_refused(games, live, "not playing", resign, NotYours)
    await assert_refused(games, live, "not playing", games.offer_draw(live.id, EVE))


async def test_only_on_your_turn(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    play = games.play(live.id, BOB, ["+k7SW"])
    await assert_refused(games, live, "not your turn: alice", play, NotYours)


async def test_a_bad_token_anywhere_leaves_everything_untouched(
    duel: tuple[Games, LiveMatch],
) -> None:
    games, live = duel
    await games.play(live.id, ALICE, ["+a3NE"])
    await assert_refused(games, live, "'k8Q'", games.play(live.id, BOB, ["+k7SW", "k8Q"]))
    await assert_refused(
        games, live, "not in P2's home", games.play(live.id, BOB, ["+k7SW", "+a4NE"])
    )
    assert live.game.plane_at(board.cell("k7")) is None  # the first token was not kept either


async def test_a_stale_button_is_refused(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    old = live.ply
    await games.play(live.id, ALICE, ["+a3NE"], expect_ply=old)
    await assert_refused(
        games, live, "out of date", games.play(live.id, BOB, ["+k7SW"], expect_ply=old), AlreadyOver
    )


async def test_a_double_press_race_applies_once(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    ply = live.ply
    results = await asyncio.gather(
        games.play(live.id, ALICE, ["+a3NE"], expect_ply=ply),
        games.play(live.id, ALICE, ["+a3NE"], expect_ply=ply),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Refusal) for r in results) == 1
    assert live.ply == ply + 1
    assert (await games.repo.get(live.id)).ply == ply + 1


async def test_nothing_after_the_game_is_over(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    await fly_first_turns(games, live)
    update = await games.resign(live.id, BOB)
    assert live.game.result is not None and live.game.result.winners == (0,)
    assert update.text().count("wins") == 1
    play, resign = games.play(live.id, ALICE, ["+a3NE"]), games.resign(live.id, ALICE)
    await assert_refused(games, live, "over", play, AlreadyOver)
    await assert_refused(games, live, "over", resign, AlreadyOver)


async def test_a_draw_needs_every_player(duel: tuple[Games, LiveMatch]) -> None:
    games, live = duel
    await fly_first_turns(games, live)
    update = await games.offer_draw(live.id, ALICE)
    assert "waiting for bob" in update.text() and not live.game.is_over
    await assert_refused(games, live, "your own draw offer", games.offer_draw(live.id, ALICE))
    update = await games.offer_draw(live.id, BOB)
    assert live.game.result is not None and live.game.result.drawn
    assert "drawn" in update.text()


async def test_a_resignation_or_draw_before_every_side_has_flown_aborts(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    resigned = await games.create(people(ALICE, BOB), Settings(), channel_id=1)
    await games.play(resigned.id, ALICE, ["+a3NE"])  # bob has not flown yet
    update = await games.resign(resigned.id, ALICE)
    assert resigned.aborted and resigned.game.result is None
    assert "aborted, not rated" in update.text()
    assert (await games.repo.get(resigned.id)).status == "abandoned"
    drawn = await games.create(people(ALICE, BOB), Settings(), channel_id=1)
    await games.offer_draw(drawn.id, ALICE)
    update = await games.offer_draw(drawn.id, BOB)
    assert drawn.aborted and drawn.game.result is None
    assert "aborted, not rated" in update.text()


async def test_a_draw_offer_lapses_when_the_turn_moves_on(
    duel: tuple[Games, LiveMatch],
) -> None:
    games, live = duel
    await games.offer_draw(live.id, BOB)
    await games.play(live.id, ALICE, ["+a3NE"])
    update = await games.offer_draw(live.id, ALICE)
    assert not live.game.is_over and "waiting for bob" in update.text()


async def test_abort_only_before_every_side_has_flown(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    live = await games.create(people(ALICE, BOB), Settings(), channel_id=1)
    await games.abort(live.id, BOB)
    assert (await games.repo.get(live.id)).status == "abandoned"
    later = await games.create(people(ALICE, BOB), Settings(), channel_id=1)
    await fly_first_turns(games, later)
    await assert_refused(games, later, "every side has flown", games.abort(later.id, ALICE))


async def test_the_computer_takes_its_turn(db: Database) -> None:
    games = Games(stores_on(db), FakeClock())
    bots = [Occupant(ALICE, "alice"), Occupant(None, "Computer", "easy")]
    live = await games.create(bots, Settings(), channel_id=1, cloud_setup="none")
    await assert_refused(games, live, "not playing", games.play(live.id, BOB, ["+k7SW"]))
    await games.play(live.id, ALICE, ["+a3NE"])
    assert live.computer_to_move
    first = await games.computer.play(live.id)
    assert first is not None and live.game.to_move == 1  # one plane action at a time
    second = await games.computer.play(live.id)
    assert second is not None and live.user_to_move() == ALICE
    assert await games.computer.play(live.id) is None


# ---------------------------------------------------------------- clocks


async def test_a_reminder_then_the_player_loses_on_time(db: Database) -> None:
    clock = FakeClock()
    games = Games(stores_on(db), clock)
    live = await games.create(
        people(ALICE, BOB), Settings(), channel_id=1, clock=ClockSettings(per_turn=300)
    )
    assert await games.clocks.tick() == ([], [])
    clock.advance(240)
    remind, expired = await games.clocks.tick()
    assert remind == [live] and expired == []
    assert await games.clocks.tick() == ([], [])  # one reminder a turn
    clock.advance(61)
    remind, expired = await games.clocks.tick()
    assert len(expired) == 1 and "runs out of time" in expired[0].text()
    assert live.game.result is not None and live.game.result.winners == (1,)
    assert (await games.repo.get(live.id)).status == "finished"


async def test_a_move_restarts_the_turn_clock(db: Database) -> None:
    clock = FakeClock()
    games = Games(stores_on(db), clock)
    live = await games.create(
        people(ALICE, BOB), Settings(), channel_id=1, clock=ClockSettings(per_turn=300)
    )
    clock.advance(200)
    await games.play(live.id, ALICE, ["+a3NE"])
    clock.advance(200)
    assert (await games.clocks.tick())[1] == []
    assert live.deadline == clock.now() + 100


async def test_on_claim_the_opponent_may_claim_after_expiry(db: Database) -> None:
    clock = FakeClock()
    games = Games(stores_on(db), clock)
    live = await games.create(
        people(ALICE, BOB),
        Settings(),
        channel_id=1,
        clock=ClockSettings(per_turn=60, on_expiry="claim"),
    )
    await assert_refused(games, live, "still has time", games.clocks.claim_timeout(live.id, BOB))
    clock.advance(61)
    remind, expired = await games.clocks.tick()
    assert remind == [live] and expired == []
    await assert_refused(games, live, "your own turn", games.clocks.claim_timeout(live.id, ALICE))
    await games.clocks.claim_timeout(live.id, BOB)
    assert live.game.result is not None and live.game.result.winners == (1,)


# ---------------------------------------------------------------- restarts


async def test_a_restart_loads_each_match_from_storage_when_touched(tmp_path: Path) -> None:
    clock = FakeClock()
    path = tmp_path / "restart.db"
    db = await Database.open(path)
    games = Games(stores_on(db), clock)
    live = await games.create(
        people(ALICE, BOB), Settings(), channel_id=1, seed=4, clock=ClockSettings(per_turn=600)
    )
    await games.play(live.id, ALICE, ["+a3NE"])
    await games.play(live.id, BOB, ["+k7SW", "+k8SW"])
    key = live.game.state_key()
    await db.close()

    db = await Database.open(path)
    games = Games(stores_on(db), clock)
    assert await games.resume() == 1 and games.loaded() == []  # none loaded at start-up
    again = await games.get(live.id)
    assert again.game.state_key() == key
    assert again.names == ["alice", "bob"] and again.deadline == live.deadline
    await games.play(again.id, ALICE, ["a3C"])
    assert again.ply == 4
    await db.close()


async def test_a_damaged_match_is_refused_when_touched_and_the_others_play(
    tmp_path: Path,
) -> None:
    path = tmp_path / "damaged.db"
    db = await Database.open(path)
    games = Games(stores_on(db))
    good = await games.create(people(ALICE, BOB), Settings(), channel_id=1)
    bad = await games.create(people(CAROL, DAVE), Settings(), channel_id=1)
    async with db.transaction() as conn:
        await conn.execute(
            "UPDATE matches SET snapshot = ? WHERE id = ?",
            ('{"format": "crosshairs/game", "version": 1, "steps": ["+z9XX"]}', bad.id),
        )
    await db.close()
    db = await Database.open(path)
    games = Games(stores_on(db))
    assert await games.resume() == 2
    loaded = await games.get(good.id)
    await assert_refused(games, loaded, "not your turn", games.play(good.id, BOB, ["+k7SW"]))
    with pytest.raises(Refusal, match="damaged"):
        await games.play(bad.id, CAROL, ["+a3NE"])
    await db.close()


async def test_resigning_twice_says_the_seat_is_already_out(db: Database) -> None:
    """The one refusal that forgetting a person relies on is its own kind, not a phrase
    to look for in the message."""
    games = Games(stores_on(db), FakeClock())
    live = await games.create(
        people(ALICE, BOB, CAROL), Settings(mode="ffa3"), channel_id=1, cloud_setup="none"
    )
    await fly_first_turns(games, live)
    await games.resign(live.id, CAROL)
    assert not live.game.is_over  # the other two play on
    again = games.resign(live.id, CAROL)
    await assert_refused(games, live, "already out", again, AlreadyOut)

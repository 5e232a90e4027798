"""A match's life through the services alone, shown on a recording surface: no Discord.

Every action goes through the one service path (:meth:`MatchLife.after`), which
publishes what it did; a fake surface implementing :class:`bot.services.surface.Surface`
records what it was asked to show, and a listener records every domain event. Each must
come exactly once, in the domain's order: an end is booked (the rating, the series
game, the tournament pairing) before its surface shows it, and its events come in the
order MatchFinished, GameBooked, PairingBooked. This module imports nothing of
discord.py (``test_no_discord_is_imported`` checks it in a fresh interpreter).
"""

from __future__ import annotations

import asyncio
import logging
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config
from bot.env import Env
from bot.services import restart
from bot.services.events import (
    Acted,
    GameBooked,
    MatchAborted,
    MatchFinished,
    PairingBooked,
    TurnPassed,
)
from bot.services.live import LiveMatch, Occupant, Update
from bot.services.refusal import Refusal
from bot.services.series import SeriesPlan
from bot.services.surface import Shown, Surface
from bot.services.takeback import Answer
from bot.services.tournaments.plan import TournamentPlan
from competition.ratings import family_of
from rules.modes import Settings

ALICE, BOB = 101, 202
GUILD, CHANNEL = 7, 70


class RecordingSurface:
    """A surface that records what it is asked to show (and whether the end was rated
    by then); ``fail_once`` makes its first final board fail, as a post to a broken
    Discord would."""

    at_once = False

    def __init__(self, env: Env, log: list[tuple[str, int]], fail_once: bool = False) -> None:
        self.env = env
        self.log = log
        self.fail_once = fail_once
        self.rated_when_shown: list[bool] = []
        self.notes: list[str] = []  # what the boards shown noted of their actions

    async def acted(self, event: Acted) -> None:
        self.notes.extend(event.update.noted())
        self.log.append(("shown: board", event.match.id))

    async def finished(self, event: MatchFinished) -> None:
        rated = await self.env.ratings.repo.get(ALICE, family_of(event.match.game.settings.mode))
        self.rated_when_shown.append(rated is not None)
        if self.fail_once:
            self.fail_once = False
            raise RuntimeError("the final board could not be posted")
        self.log.append(("shown: final board", event.match.id))

    async def aborted(self, event: MatchAborted) -> None:
        self.log.append(("shown: called off", event.match.id))


class OneSurface:
    def __init__(self, surface: Surface) -> None:
        self.surface = surface

    def of(self, live: LiveMatch) -> Surface:
        return self.surface


class Stack:
    """The services on one database file, as one process of the bot has them."""

    def __init__(self, env: Env, fail_once: bool) -> None:
        self.env = env
        self.log: list[tuple[str, int]] = []
        self.surface = RecordingSurface(env, self.log, fail_once)
        self.tasks: list[asyncio.Task[None]] = []
        env.life.show_on(OneSurface(self.surface), self._spawn)
        events = env.games.events
        shown = Shown(OneSurface(self.surface))
        events.subscribe(TurnPassed, self._heard)
        events.subscribe(MatchFinished, self._heard)
        events.subscribe(MatchAborted, self._heard)
        events.subscribe(GameBooked, self._heard)
        events.subscribe(PairingBooked, self._heard)
        events.subscribe(Acted, shown.acted)
        events.subscribe(MatchFinished, shown.finished)
        events.subscribe(MatchAborted, shown.aborted)

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> object:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.append(task)
        return task

    async def _heard(self, event: Any) -> None:
        self.log.append((type(event).__name__, event.match.id))

    def events(self, match_id: int) -> list[str]:
        """The domain events heard for ``match_id``, in order (the surface's not)."""
        return [kind for kind, m in self.log if m == match_id and not kind.startswith("shown")]

    async def act(self, action: Callable[[], Coroutine[Any, Any, Update]]) -> bool:
        """An action through the one service path; False if it was refused."""
        try:
            update = await action()
        except Refusal:
            return False
        await self.env.life.after(update)
        return True

    async def fly_first_turns(self, live: LiveMatch) -> None:
        games = self.env.games
        while not live.game.is_over and live.game.unflown():
            seat = live.game.to_move
            assert seat is not None
            user = live.seats[seat].user_id
            assert user is not None
            token = live.game.legal_steps()[0].token
            assert await self.act(partial(games.play, live.id, user, [token]))


@asynccontextmanager
async def stack(path: Path, fail_once: bool = False) -> AsyncIterator[Stack]:
    config = Config(token=None, database_path=path, computer_pace=0.0)
    env = await Env.open(config)
    try:
        yield Stack(env, fail_once)
    finally:
        await env.close()


async def duel(s: Stack) -> LiveMatch:
    return await s.env.games.create(
        [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
        Settings(mode="duel"),
        channel_id=CHANNEL,
        guild_id=GUILD,
        cloud_setup="none",
    )


async def series_game(s: Stack) -> LiveMatch:
    series = s.env.series
    plan = SeriesPlan(ALICE, mode="duel", games=2, names=("alice", "bob"), clouds="none")
    made = await series.create(
        plan,
        [Occupant(ALICE, "alice"), Occupant(BOB, "bob")],
        [0, 0],
        channel_id=CHANNEL,
        guild_id=GUILD,
        thread_id=None,
    )
    _, live = await series.start_game(made.id)
    return live


async def tournament_game(s: Stack) -> LiveMatch:
    service = s.env.tournaments
    t = await service.registration.create(
        TournamentPlan(organiser=ALICE, rounds=1, clouds="none"),
        name="Cup",
        format="swiss",
        mode="duel",
        games=1,
        guild_id=GUILD,
        channel_id=CHANNEL,
    )
    await service.registration.join(t.id, ALICE, "alice")
    await service.registration.join(t.id, BOB, "bob")
    await service.registration.start(t.id)
    (pairing,) = await service.rounds.current_round(t.id)
    series = await service.rounds.start_pairing(
        pairing.id, t.id, channel_id=CHANNEL, thread_id=None
    )
    _, live = await s.env.series.start_game(series.id)
    return live


def turns_then(live: LiveMatch, *end: str) -> list[str]:
    """The events of a match whose first turns passed at each ply, then ``end``."""
    return [*["TurnPassed"] * live.game.turn, *end]


async def test_a_duel_publishes_each_event_once_and_is_rated_before_it_is_shown(
    tmp_path: Path,
) -> None:
    async with stack(tmp_path / "bot.db") as s:
        live = await duel(s)
        await s.fly_first_turns(live)
        passed = s.events(live.id)
        assert passed and set(passed) == {"TurnPassed"}
        assert await s.act(lambda: s.env.games.resign(live.id, ALICE))
        assert s.events(live.id) == [*passed, "MatchFinished"]
        assert s.surface.rated_when_shown == [True]  # booked before it is shown
        assert s.log[-1] == ("shown: final board", live.id)
        # the end was marked shown: a restart has nothing of it left to show
        assert await restart.unannounced(s.env.games) == []


async def test_a_series_game_and_a_tournament_game_are_booked_in_the_domain_order(
    tmp_path: Path,
) -> None:
    async with stack(tmp_path / "bot.db") as s:
        series_live = await series_game(s)
        await s.fly_first_turns(series_live)
        assert await s.act(lambda: s.env.games.resign(series_live.id, BOB))
        said = s.events(series_live.id)
        assert said[-2:] == ["MatchFinished", "GameBooked"] and said.count("GameBooked") == 1
        assert "PairingBooked" not in said  # a series outside any tournament

        cup_live = await tournament_game(s)
        await s.fly_first_turns(cup_live)
        assert await s.act(lambda: s.env.games.resign(cup_live.id, BOB))
        said = s.events(cup_live.id)
        assert said[-3:] == ["MatchFinished", "GameBooked", "PairingBooked"]
        assert [said.count(k) for k in ("MatchFinished", "GameBooked", "PairingBooked")] == [
            1,
            1,
            1,
        ]
        # the final board is shown after the bookkeeping of the end, before the
        # series and tournament events its showing subscribers answer
        at = s.log.index(("shown: final board", cup_live.id))
        assert s.log[at - 1] == ("MatchFinished", cup_live.id)
        assert s.log[at + 1] == ("GameBooked", cup_live.id)


async def test_a_move_racing_a_resignation_ends_the_match_once(tmp_path: Path) -> None:
    async with stack(tmp_path / "bot.db") as s:
        live = await series_game(s)
        await s.fly_first_turns(live)
        before = s.events(live.id)
        seat = live.game.to_move
        assert seat is not None
        mover = live.seats[seat].user_id
        assert mover is not None
        token = live.game.legal_steps()[0].token
        games = s.env.games
        await asyncio.gather(
            s.act(lambda: games.play(live.id, mover, [token])),
            s.act(lambda: games.resign(live.id, ALICE if mover == BOB else BOB)),
        )
        after = s.events(live.id)[len(before) :]
        assert after.count("MatchFinished") == 1 and after.count("GameBooked") == 1
        assert after[after.index("MatchFinished") :] == ["MatchFinished", "GameBooked"]
        assert s.log.count(("shown: final board", live.id)) == 1


async def test_an_end_left_unshown_by_a_restart_is_shown_once_by_the_next_process(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.db"
    async with stack(path, fail_once=True) as first:
        live = await tournament_game(first)
        await first.fly_first_turns(live)
        # the process fails between the end and its showing: booked, not shown
        assert await first.act(lambda: first.env.games.resign(live.id, BOB))
        assert first.log.count(("shown: final board", live.id)) == 0
        family = family_of("duel")
        rated = await first.env.ratings.repo.get(ALICE, family)
        assert rated is not None and rated.games == 1

    async with stack(path) as second:
        ends = await restart.unannounced(second.env.games)
        assert [e.id for e in ends] == [live.id]
        await second.env.life.carry_on_ends(ends)
        assert second.events(live.id) == ["MatchFinished", "GameBooked", "PairingBooked"]
        assert second.log.count(("shown: final board", live.id)) == 1
        again = await second.env.ratings.repo.get(ALICE, family)
        assert again is not None and again.games == 1  # booked once, however often published

    async with stack(path) as third:  # nothing is left to show
        assert await restart.unannounced(third.env.games) == []


async def test_a_showing_cut_by_the_process_stopping_is_no_error_and_is_shown_at_restart(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "bot.db"
    async with stack(path, fail_once=True) as first:
        live = await duel(first)
        await first.fly_first_turns(live)
        first.env.events.stop()  # as the bot does before closing its Discord connection
        with caplog.at_level(logging.INFO, logger="bot.services.events"):
            assert await first.act(lambda: first.env.games.resign(live.id, BOB))
        assert first.log.count(("shown: final board", live.id)) == 0
        said = [(r.levelno, r.getMessage(), r.exc_info) for r in caplog.records]
        assert said == [
            (logging.INFO, f"match {live.id}: MatchFinished not shown, the bot is stopping", None)
        ]

    async with stack(path) as second:
        await second.env.life.carry_on_ends(await restart.unannounced(second.env.games))
        assert second.log.count(("shown: final board", live.id)) == 1


async def test_the_computer_flies_through_the_service_until_a_person_is_to_move(
    tmp_path: Path,
) -> None:
    async with stack(tmp_path / "bot.db") as s:
        live = await s.env.games.create(
            [Occupant(ALICE, "alice"), Occupant(None, "computer", strength="easy")],
            Settings(mode="duel"),
            channel_id=CHANNEL,
            guild_id=GUILD,
            cloud_setup="none",
        )
        while live.user_to_move() == ALICE and live.game.unflown():
            token = live.game.legal_steps()[0].token
            assert await s.act(partial(s.env.games.play, live.id, ALICE, [token]))
        await asyncio.gather(*s.tasks)
        assert not live.computer_to_move
        said = s.events(live.id)
        assert said == ["TurnPassed"] * said.count("TurnPassed") and len(said) >= 2
        assert s.log.count(("shown: board", live.id)) >= 2  # each plane action shown


async def test_a_takeback_goes_through_the_one_path_and_is_shown_once(tmp_path: Path) -> None:
    async with stack(tmp_path / "bot.db") as s:
        live = await duel(s)
        await s.env.ratings.mark_unrated(live.id)  # takebacks are for unrated games
        await s.fly_first_turns(live)
        before, shown = s.events(live.id), s.log.count(("shown: board", live.id))
        takebacks = s.env.takebacks
        asked = await takebacks.ask(live, ALICE)
        assert asked.asked == {BOB}
        assert await takebacks.answer(asked, BOB, yes=True) is Answer.DONE
        assert await s.act(lambda: takebacks.update(asked))
        assert live.ply == asked.to_ply and live.user_to_move() == ALICE
        # one board shown, noting the takeback; no turn passed, nothing ended
        assert s.log.count(("shown: board", live.id)) == shown + 1
        (note,) = s.surface.notes
        steps = asked.at_ply - asked.to_ply
        assert note == f"↩️ alice (P1) took back their last turn ({steps} steps)."
        assert steps > 1
        assert s.events(live.id) == before
        # stored as it is in memory: another process finds the game taken back
        stored = await s.env.stores.matches.get(live.id)
        assert stored.ply == asked.to_ply


def test_no_discord_is_imported() -> None:
    """The services and this test stand without discord.py."""
    code = (
        "import sys, importlib.util as u; "
        f"s = u.spec_from_file_location('life', {str(Path(__file__))!r}); "
        "s.loader.exec_module(u.module_from_spec(s)); "
        "assert 'bot.services.life' in sys.modules; "
        "assert 'discord' not in sys.modules, 'discord was imported'"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr

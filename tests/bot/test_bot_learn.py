"""``/crosshairs learn`` and ``/crosshairs puzzle`` through the slash commands and the
buttons: a lesson passed through the cockpit and shown with ✓, a wrong try explained
and retried, a puzzle solved and failed with the Glicko-2 rating and streak stored,
the daily puzzle switched on by an admin only, posted once a day and opened by its
button."""

from __future__ import annotations

import datetime
import random
from dataclasses import replace
from typing import Any

import discord
import pytest
from support.replies import answer, menu_with, refusals
from support.tables import Table
from support.uploads import Upload

from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.refusal import Refusal
from bot.services.training import Training, daily_puzzle
from bot.ui.puzzles import DailyPuzzles
from rules import position
from rules.ai.analysis import AnalysisDepth
from rules.notation import play_tokens
from rules.training import puzzles, shipped
from storage.training import TrainingRepo

SHOOT = shipped.lesson("shoot")


def _button(message: Any, label: str) -> str:
    for row in message.components:
        for item in row["components"]:
            if item.get("label", "").startswith(label):
                return str(item["label"])
    raise AssertionError(f"no button {label!r} in {message.components}")


async def _fly(user: Any, message: Any, plane: str, action: str) -> Any:
    """Pick the plane at ``plane`` on the cockpit, then the whole action ``action``."""
    await user.click(message, label=_button(message, f"✈ {plane}"))
    return await user.select(message, [action], custom_id=menu_with(message, action))


@pytest.fixture
def one_puzzle(monkeypatch: pytest.MonkeyPatch) -> puzzles.Puzzle:
    """A puzzle set of two known puzzles: the crossfire of the shooting lesson (whose
    best outcome is worked out here as the generator would) and a copy under another id."""
    game = position.parse(SHOOT.position)
    plan = tuple(step for step, _ in play_tokens(game.copy(), ["b3C<"]))
    best = puzzles.judge(game, plan).outcome
    found = [
        puzzles.Puzzle("t-1", SHOOT.position, "b3C<", best, 1500, ("double crosshairs",)),
        puzzles.Puzzle("t-2", SHOOT.position, "b3C<", best, 1520, ("double crosshairs",)),
    ]
    monkeypatch.setattr(shipped, "_SET", found)
    return found[0]


async def test_the_first_lesson_is_passed_through_the_cockpit_and_ticked(
    simcord_env: Any, simcord_bot: CrosshairsBot, uploads: list[Upload]
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    course = answer(await ann.slash(channel, "crosshairs learn"))
    assert course.ephemeral
    assert (
        "0 of 23 lessons passed" in course.content and "· 1. Enter from your edge" in course.content
    )
    await ann.click(course, label="Lesson 1: Enter from your edge")
    lesson = course
    assert "Goal:" in lesson.content and "home row" in lesson.content
    assert lesson.attachments  # the board, drawn
    await ann.select(lesson, ["+a3NE"], custom_id=menu_with(lesson, "+a3NE"))
    assert "passed!" in lesson.content and "+a3NE" in lesson.content
    assert _button(lesson, "Lesson 2: The opening ramp")
    again = answer(await ann.slash(channel, "crosshairs learn"))
    assert "✓ 1. Enter from your edge" in again.content and "1 of 23" in again.content
    assert await TrainingRepo(simcord_bot.db).lessons_passed(ann.id) == {"enter": 1}
    assert not refusals(simcord_env)


async def test_a_wrong_try_is_explained_with_a_picture_and_can_be_retried(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    offered = await ann.autocomplete(channel, "crosshairs learn", "lesson", "cross")
    assert [c["value"] for c in offered] == ["shoot", "escape"]  # "crosshairs" in the title
    # a cockpit left behind when another lesson was opened: its press changes nothing
    left = answer(await ann.slash(channel, "crosshairs learn", lesson="shoot"))
    await ann.slash(channel, "crosshairs learn", lesson="climb")
    result = await ann.click(left, label=_button(left, "✈ b3"))
    assert "out of date" in answer(result).content
    repo = TrainingRepo(simcord_bot.db)
    run = await repo.run(ann.id)
    assert run is not None and (run.item, run.tokens) == ("climb", ())

    message = answer(await ann.slash(channel, "crosshairs learn", lesson="shoot"))
    await _fly(ann, message, "b3", "b3F")
    assert "Not yet" in message.content
    assert "The plane at d6 is still flying" in message.content
    assert message.attachments[0].filename == "try.png"
    hint = answer(await ann.click(message, label="Hint"))
    assert hint.ephemeral and "d2 already aims" in hint.content
    await ann.click(message, label="Try again")
    assert "Goal:" in message.content
    await _fly(ann, message, "b3", "b3C<")
    assert "passed!" in message.content
    assert await repo.lessons_passed(ann.id) == {"shoot": 2}
    assert await repo.run(ann.id) is None
    assert not refusals(simcord_env)


async def test_a_puzzle_solved_raises_the_rating_and_a_miss_lowers_it(
    simcord_env: Any, simcord_bot: CrosshairsBot, one_puzzle: puzzles.Puzzle
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    opened = answer(await ann.slash(channel, "crosshairs puzzle", number="t-1"))
    assert opened.ephemeral and "Puzzle t-1" in opened.content
    # the side is named as the board shows it, not "the other side"
    assert (
        "Duel: you fly P1 (orange, circle insignia) against P2 (sky blue, square insignia)"
        in opened.content
    )
    message = opened
    await _fly(ann, message, "b3", "b3C<")
    assert "Solved!" in message.content and "streak 1" in message.content
    repo = TrainingRepo(simcord_bot.db)
    rating = await repo.puzzle_rating(ann.id)
    assert rating is not None and rating.rating > 1500 and rating.solved == 1
    await ann.click(message, label="Next puzzle")
    assert "Puzzle t-2" in message.content
    await _fly(ann, message, "b3", "b3F")
    assert "Not the best turn" in message.content and "b3C<" not in message.content
    assert "the replies win the game for P2 (sky blue, square insignia)" in message.content
    assert await repo.puzzle_rating(ann.id) == rating  # not yet: a retry comes first
    await ann.click(message, label="Try again")
    assert "Puzzle t-2" in message.content
    await ann.click(message, label="Show the solution")
    assert "The solution:** b3C<*d6" in message.content
    assert (
        "planes left (on the board and in reserve): yours 2, P2 (sky blue, square insignia) 4"
        in (message.content)
    )
    assert message.attachments[0].filename == "solution.png"
    assert "Rated by your first try, a miss" in message.content
    after = await repo.puzzle_rating(ann.id)
    assert after is not None and after.rating < rating.rating
    assert (after.streak, after.best_streak, after.failed) == (0, 1, 1)
    assert await repo.puzzles_tried(ann.id) == {"t-1", "t-2"}
    assert await repo.run(ann.id) is None


async def test_a_puzzle_solved_on_a_retry_is_rated_once_by_its_first_try(
    simcord_env: Any, simcord_bot: CrosshairsBot, one_puzzle: puzzles.Puzzle
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    message = answer(await ann.slash(channel, "crosshairs puzzle", number="t-1"))
    await _fly(ann, message, "b3", "b3F")
    repo = TrainingRepo(simcord_bot.db)
    assert "Not the best turn" in message.content and await repo.puzzle_rating(ann.id) is None
    stale = [i["custom_id"] for row in message.components for i in row["components"]]
    await ann.click(message, label="Try again")
    await _fly(ann, message, "b3", "b3C<")
    assert "Solved** on try 2" in message.content
    assert "Rated by your first try, a miss: puzzle rating 1500 →" in message.content
    rating = await repo.puzzle_rating(ann.id)
    assert rating is not None and rating.rating < 1500 and (rating.solved, rating.failed) == (0, 1)
    # the miss's solution button is stale now: the rating does not move a second time
    stamp = next(c for c in stale if c.startswith("xh:tr:solution:")).rsplit(":", 1)[1]
    with pytest.raises(Refusal, match="no lesson or puzzle open"):
        await simcord_bot.env.training.show_solution(ann.id, stamp)
    assert await repo.puzzle_rating(ann.id) == rating


async def test_a_missed_puzzle_left_open_counts_as_missed(
    simcord_env: Any, simcord_bot: CrosshairsBot, one_puzzle: puzzles.Puzzle
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    message = answer(await ann.slash(channel, "crosshairs puzzle", number="t-1"))
    await _fly(ann, message, "b3", "b3F")
    repo = TrainingRepo(simcord_bot.db)
    await ann.slash(channel, "crosshairs learn", lesson="climb")
    rating = await repo.puzzle_rating(ann.id)
    assert rating is not None and rating.failed == 1 and await repo.puzzles_tried(ann.id) == {"t-1"}


async def test_the_daily_puzzle_is_switched_on_by_an_admin_and_posted_once_a_day(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock, one_puzzle: puzzles.Puzzle
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("puzzles")
    ann = guild.add_member(simcord_env.create_user("ann"))
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    refused = answer(await ann.slash(channel, "crosshairs puzzle", daily=channel))
    assert "only a server admin" in refused.content
    assert refusals(simcord_env) == [
        "only a server admin (Manage Server) can switch the daily puzzle"
    ]
    desk = simcord_bot.get_cog("DailyPuzzles")
    assert isinstance(desk, DailyPuzzles)
    assert await desk.post_due() == 0
    done = answer(await ada.slash(channel, "crosshairs puzzle", daily=channel))
    assert "every day" in done.content
    assert await desk.post_due() == 1
    assert await desk.post_due() == 0  # once a day
    day = datetime.datetime.fromtimestamp(clock.now(), datetime.UTC).date()
    (post,) = [m for m in channel.history() if "Daily puzzle" in m.content]
    assert day.isoformat() in post.content and daily_puzzle(day).id in {"t-1", "t-2"}
    opened = answer(await ann.click(post, label="Solve it"))
    assert opened.ephemeral and f"Puzzle {daily_puzzle(day).id}" in opened.content
    clock.advance(86_400)
    assert await desk.post_due() == 1
    await ada.slash(channel, "crosshairs puzzle", daily_off=True)
    clock.advance(86_400)
    assert await desk.post_due() == 0


async def test_the_daily_puzzle_is_posted_in_the_servers_language(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock, one_puzzle: puzzles.Puzzle
) -> None:
    """The post everyone reads speaks the server's language (German), its button too;
    the admin who switched it on is answered in their own (English)."""
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("raetsel")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    ada = guild.add_member(simcord_env.create_user("ada"), roles=[admins])
    done = answer(await ada.slash(channel, "crosshairs puzzle", daily=channel))
    assert "every day" in done.content
    found = simcord_bot.get_guild(guild.id)
    assert found is not None
    found.preferred_locale = discord.Locale.german
    desk = simcord_bot.get_cog("DailyPuzzles")
    assert isinstance(desk, DailyPuzzles) and await desk.post_due() == 1
    (post,) = [m for m in channel.history() if "Tägliches Rätsel" in m.content]
    assert "doppeltes Fadenkreuz" in post.content and "Duell" in post.content
    assert [b.label for row in post.components for b in row.children] == ["Lösen"]


@pytest.fixture
def bot_config(bot_config: Config) -> Config:
    # the analysis' search kept small: the blunders are what a random game makes
    return replace(bot_config, analysis_depth=AnalysisDepth(width=1, candidates=1, reply_width=1))


async def test_a_blunder_of_ones_own_game_is_replayed_from_the_analysis(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    live = next(iter(simcord_bot.games.live_matches()))
    rng = random.Random(3)
    while live.game.turn <= 14 and not live.game.is_over:
        mover = table.alice if live.user_to_move() == table.alice.id else table.bob
        await mover.slash(
            thread, "crosshairs move", tokens=rng.choice(live.game.legal_steps()).token
        )
    if not live.game.is_over:
        quitter = table.alice if live.user_to_move() == table.alice.id else table.bob
        await quitter.slash(thread, "crosshairs resign")
    await table.eve.slash(table.channel, "crosshairs analyse", match=live.id)
    (post,) = [m for m in thread.history() if m.content.startswith("🔎 Analysis of match")]
    buttons = [i for row in post.components for i in row.children]
    assert buttons and all(b.label.endswith("find the better turn") for b in buttons)
    first = buttons[0]
    turn = int(first.label.split()[1].rstrip(":"))
    seat = next(p.seat for p in live.game.history if p.turn == turn)
    owner, other = (table.alice, table.bob) if seat == 0 else (table.bob, table.alice)
    refused = answer(await other.click(post, custom_id=first.custom_id))
    assert "who played that turn" in refused.content
    opened = answer(await owner.click(post, custom_id=first.custom_id))
    assert opened.ephemeral and "Your blunder of player-turn" in opened.content
    training = Training(
        simcord_bot.env.stores, simcord_bot.workers, simcord_bot.config.analysis_depth
    )
    exercise = await training.current(owner.id)
    played = [p.token for p in live.game.history if p.turn == turn]
    again = await training.play(owner.id, exercise.stamp, played)
    assert again.verdict is not None and not again.verdict.passed  # the blunder itself
    exercise = await training.open_blunder(
        owner.id, exercise.start, exercise.better, exercise.played
    )
    found = await training.play(owner.id, exercise.stamp, list(exercise.better))
    assert found.verdict is not None and found.verdict.passed


async def test_bad_requests_are_answered_and_change_nothing(
    simcord_env: Any, simcord_bot: CrosshairsBot, one_puzzle: puzzles.Puzzle
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hangar")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "crosshairs learn", lesson="climb")
    repo = TrainingRepo(simcord_bot.db)
    before = await repo.run(ann.id)
    answered = answer(await ann.slash(channel, "crosshairs puzzle", number="9-9999"))
    assert answered.ephemeral and "no puzzle '9-9999'" in answered.content
    assert refusals(simcord_env) == ["there is no puzzle '9-9999'; numbers look like 1-0042"]
    assert await repo.run(ann.id) == before  # the open lesson is still there, untouched
    assert await repo.puzzle_rating(ann.id) is None
    await ann.slash(channel, "crosshairs learn", lesson="loop-the-loop")
    assert refusals(simcord_env)[-1] == (
        "there is no lesson 'loop-the-loop'; `/crosshairs learn` lists the lessons"
    )
    assert await repo.run(ann.id) == before

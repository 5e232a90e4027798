"""``/crosshairs analyse`` through the slash command and the final board's Analyse button:
a finished match is analysed with a progress message and the result lands in its thread;
what cannot be analysed is refused."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from typing import Any

import discord
import pytest
from PIL import Image
from support.flying import resign
from support.forging import elsewhere, forged_press
from support.replies import answer, refusals
from support.tables import Table, board_message
from support.uploads import Upload

from bot.config import Config
from bot.discord_app import CrosshairsBot
from bot.services import jobs
from bot.services.clock import FakeClock
from bot.services.once import IN_FLIGHT
from bot.ui import analysis
from render.analysis import MARK_COLOURS
from render.palette import PALETTES
from rules.ai.analysis import AnalysisDepth


class TickingClock(FakeClock):
    """Three seconds pass every time someone looks, so every progress edit is due."""

    def now(self) -> float:
        self.t += 3.0
        return self.t


@pytest.fixture
def clock() -> FakeClock:
    return TickingClock()


@pytest.fixture
def bot_config(bot_config: Config) -> Config:
    return replace(bot_config, analysis_depth=AnalysisDepth(width=1, candidates=1, reply_width=1))


@pytest.fixture
def edits(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The contents of every edit of an interaction's answer (the progress message)."""
    seen: list[str] = []
    original = discord.Interaction.edit_original_response

    async def spy(self: discord.Interaction, **fields: Any) -> Any:
        seen.append(str(fields.get("content")))
        return await original(self, **fields)

    monkeypatch.setattr(discord.Interaction, "edit_original_response", spy)
    return seen


async def finished_match(table: Table, bot: CrosshairsBot, turns: int) -> Any:
    """A duel with ``turns`` whole player-turns flown at random, then resigned."""
    thread = await table.start(clouds="none", planes=3)
    live = next(iter(bot.games.live_matches()))
    rng = random.Random(3)
    while (live.game.turn <= turns or live.game.unflown()) and not live.game.is_over:
        mover = table.alice if live.user_to_move() == table.alice.id else table.bob
        token = rng.choice(live.game.legal_steps()).token
        await mover.slash(thread, "crosshairs move", tokens=token)
    if not live.game.is_over:
        quitter = table.alice if live.user_to_move() == table.alice.id else table.bob
        await resign(quitter, thread)
    assert live.game.is_over
    return thread


async def test_a_finished_match_is_analysed_into_its_thread(
    simcord_env: Any, simcord_bot: CrosshairsBot, uploads: list[Upload], edits: list[str]
) -> None:
    table = Table(simcord_env)
    thread = await finished_match(table, simcord_bot, turns=3)
    edits.clear()
    result = await table.eve.slash(table.channel, "crosshairs analyse", match=1)
    assert edits[0] == "🔎 Analysing match #1… turn 0 of 3"
    assert "🔎 Analysing match #1… turn 1 of 3" in edits  # progress while it works
    said = answer(result).content
    assert said == f"🔎 Analysed all 3 turns of match #1: posted in <#{thread.id}>."
    assert "discord.com" not in said  # the playground has no discord.com to go to

    posted = thread.history()[-1]
    assert posted.content.startswith("🔎 Analysis of match #1: alice vs bob")
    assert "planes" in posted.content and "alice: 2 turns" in posted.content
    (shown,) = [u for u in uploads if u.filename == "analysis-1.png"]
    assert shown.description is not None
    assert shown.description.startswith("Analysis of match 1, alice vs bob: a graph")
    assert (
        "in planes ahead for alice: + is good for alice, - for bob; dots: yellow an inaccuracy"
    ) in shown.description
    graph, *boards = posted.attachments
    with Image.open(io.BytesIO(await graph.read())) as img:  # shaped for a chat preview
        assert img.width == 1100 and 1.3 <= img.width / img.height <= 3.0, img.size
    for attachment in boards:  # one board per picture, wide enough to read
        assert attachment.filename.endswith(("-played.png", "-better.png"))
        with Image.open(io.BytesIO(await attachment.read())) as img:
            assert img.width >= 512 and 0.7 <= img.width / img.height <= 1.2, img.size
    assert "```\n" in posted.content and "``" not in posted.content.replace("```", "")
    with Image.open(io.BytesIO(await posted.attachments[0].read())) as graph:
        key = graph.convert("RGB").crop((0, 0, graph.width, graph.height // 4))
        colours = {c for _, c in key.getcolors(1 << 20) or []}
        assert set(MARK_COLOURS.values()) <= colours  # the key shows every dot's colour
    assert refusals(simcord_env) == []


async def test_a_long_report_is_a_text_file_and_the_thread_is_the_default(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    uploads: list[Upload],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(analysis, "INLINE", 200)  # a short game's report counts as long
    table = Table(simcord_env)
    thread = await finished_match(table, simcord_bot, turns=2)
    await table.bob.slash(thread, "crosshairs analyse")
    posted = thread.history()[-1]
    assert "the report is long, so here it is as a file" in posted.content
    assert {u.filename for u in uploads} >= {"analysis-1.txt", "analysis-1.png"}
    text = await posted.attachments[0].read()
    assert b"accuracy" in text


async def test_what_cannot_be_analysed_is_refused(
    simcord_env: Any, simcord_bot: CrosshairsBot, uploads: list[Upload]
) -> None:
    table = Table(simcord_env)
    thread = await table.start(clouds="none", planes=3)
    await table.alice.slash(thread, "crosshairs analyse")
    await table.alice.slash(table.channel, "crosshairs analyse", match=99)
    await table.alice.slash(table.channel, "crosshairs analyse")
    away = simcord_env.create_guild()
    mallory = away.add_member(simcord_env.create_user("mallory"))
    await mallory.slash(away.create_text_channel("lobby"), "crosshairs analyse", match=1)
    assert refusals(simcord_env) == [
        "match #1 is not finished: analyse it once the game is over",
        "there is no match #99 here",
        "there is no match in this channel: use this command in a match's thread",
        "there is no match #1 here",
    ]
    assert not [u for u in uploads if u.filename.startswith("analysis")]


async def test_a_second_analysis_of_the_same_match_is_refused_while_one_runs(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await finished_match(table, simcord_bot, turns=2)
    with IN_FLIGHT.claim(("analyse", 1), "held by the first analysis"):  # the first one's
        await table.bob.slash(thread, "crosshairs analyse")
    assert refusals(simcord_env) == ["match #1 is already being analysed"]
    assert not any(m.content.startswith("🔎 Analysis of match #1") for m in thread.history())
    await table.bob.slash(thread, "crosshairs analyse")  # once it is done, it may run again
    assert thread.history()[-1].content.startswith("🔎 Analysis of match #1")


def labels(message: Any) -> list[list[str]]:
    return [[item.label for item in row.children] for row in message.components]


def watch(monkeypatch: pytest.MonkeyPatch, bot: CrosshairsBot, ran: list[object]) -> None:
    """Have the bot's worker pool note every job it is given in ``ran``."""
    pool = bot.workers
    run = pool.run

    async def noted(job: Any, *args: Any, **kwargs: Any) -> Any:
        ran.append(job)
        return await run(job, *args, **kwargs)

    monkeypatch.setattr(pool, "run", noted)


async def test_the_final_board_analyses_its_match_as_the_command_does(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    edits: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[object] = []
    watch(monkeypatch, simcord_bot, ran)
    table = Table(simcord_env)
    thread = await finished_match(table, simcord_bot, turns=3)
    assert labels(board_message(thread)) == [["Rematch", "Record", "Analyse"]]  # one row
    edits.clear()
    pressed = await table.eve.click(board_message(thread), label="Analyse")  # a watcher too
    assert edits[0] == "🔎 Analysing match #1… turn 0 of 3"
    assert jobs.analyse_turn in ran  # the engine judged the turns
    said = answer(pressed).content
    assert said == f"🔎 Analysed all 3 turns of match #1: posted in <#{thread.id}>."
    by_press = thread.history()[-1]
    assert by_press.content.startswith("🔎 Analysis of match #1: alice vs bob")
    await table.eve.slash(thread, "crosshairs analyse")
    by_command = thread.history()[-1]
    assert by_command.id != by_press.id
    assert by_command.content == by_press.content
    assert [a.filename for a in by_command.attachments] == [
        a.filename for a in by_press.attachments
    ]
    record = answer(await table.bob.click(board_message(thread), label="Record"))
    assert record.ephemeral and "Turn 1" in record.content
    assert refusals(simcord_env) == []


async def test_a_forged_analyse_press_is_refused_and_runs_no_engine(
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    uploads: list[Upload],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ran: list[object] = []  # what the worker processes were asked to run
    watch(monkeypatch, simcord_bot, ran)
    table = Table(simcord_env)
    finished = await finished_match(table, simcord_bot, turns=2)
    live = await table.start(clouds="none", planes=3)  # match #2, still being played
    said = await forged_press(simcord_env, table.alice, board_message(live), "xh:an:2")
    assert said == "⚠️ match #2 is not finished: analyse it once the game is over"
    # match #1 is finished, but is reached only from its own thread and server
    said = await forged_press(simcord_env, table.alice, board_message(live), "xh:an:1")
    assert said == "⚠️ there is no match #1 here"
    alice, mallory, own = await elsewhere(simcord_env, table.alice)
    for person in (mallory, alice):  # a stranger, and the game's own player elsewhere
        said = await forged_press(simcord_env, person, own, "xh:an:1")
        assert said == "⚠️ there is no match #1 here", said
    assert jobs.analyse_turn not in ran and jobs.draw_analysis not in ran  # no engine ran
    assert not [u for u in uploads if u.filename.startswith("analysis")]
    assert not any(m.content.startswith("🔎") for m in finished.history())


async def test_an_analysis_is_drawn_in_the_palette_of_whoever_asked(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    table = Table(simcord_env)
    thread = await finished_match(table, simcord_bot, turns=1)
    await table.eve.slash(table.channel, "crosshairs palette", colours="contrast")
    await table.eve.slash(table.channel, "crosshairs analyse", match=1)
    posted = thread.history()[-1]
    with Image.open(io.BytesIO(await posted.attachments[0].read())) as graph:
        assert graph.convert("RGB").getpixel((1, 1)) == PALETTES["contrast"].page

"""``/crosshairs analyse``: the post-game analysis (:mod:`rules.ai.analysis`) of a finished
match, posted in its thread: the report in text and the evaluation graph with the
blunders' boards. A public progress message follows the work, edited at most every
:data:`PROGRESS_EVERY` seconds.

The turns are judged in the worker processes one at a time: a whole analysis queued at
once would hold every worker for seconds while other matches wait for their boards."""

from __future__ import annotations

from typing import Final

import discord

from bot.services import jobs, workers
from bot.services.live import LiveMatch, MatchError
from bot.services.once import IN_FLIGHT
from bot.ui.commands import crosshairs, match_here
from bot.ui.context import bot_of
from bot.ui.files import document, picture
from bot.ui.learn import blunder_view
from bot.ui.tables import match_channel
from bot.ui.walls import match_in_guild
from rules.ai.analysis import TurnReview, report, turn_count

PROGRESS_EVERY: Final = 2.0  # seconds: Discord rate-limits edits, and people need no more
INLINE: Final = 2000  # characters: a longer report goes as a text file


def progress_text(live: LiveMatch, done: int, total: int) -> str:
    return f"🔎 Analysing match #{live.id}… turn {done} of {total}"


def picture_words(live: LiveMatch, reviews: list[TurnReview]) -> str:
    """Alt text of the analysis picture: what the graph and the boards show."""
    names = live.names
    blunders = [r for r in reviews if r.mark == "blunder"]
    text = (
        f"Analysis of match {live.id}, {' vs '.join(names)}: a graph of the evaluation "
        f"after each of {len(reviews)} player-turns"
    )
    if not blunders:
        return text + "; no blunders."
    boards = "; ".join(
        f"turn {r.number} by {live.who(r.seat)}: played {r.played}, better {r.better or '?'}"
        for r in blunders
    )
    return f"{text}, then for each blunder the board as played beside the better turn: {boards}."


@crosshairs.command(name="analyse", description="Find the mistakes of a finished match")
@discord.app_commands.describe(match="The match number (default: this thread's match)")
async def analyse(interaction: discord.Interaction, match: int | None = None) -> None:
    live = await (
        match_in_guild(interaction, match) if match is not None else match_here(interaction)
    )
    if not live.game.is_over:
        raise MatchError(f"match #{live.id} is not finished: analyse it once the game is over")
    total = turn_count(live.game)
    if not total:
        raise MatchError(f"match #{live.id} has no played turn to analyse")
    with IN_FLIGHT.claim(("analyse", live.id), f"match #{live.id} is already being analysed"):
        await interaction.response.defer(thinking=True)
        await _analyse(interaction, live, total)


async def _analyse(interaction: discord.Interaction, live: LiveMatch, total: int) -> None:
    bot = bot_of(interaction)
    clock = bot.games.clock
    await interaction.edit_original_response(content=progress_text(live, 0, total))
    shown = clock.now()
    snapshot = jobs.snapshot_of(live.game)
    pool = workers.current()
    reviews: list[TurnReview] = []
    for index in range(total):
        judged = await pool.run(jobs.analyse_turn, snapshot, index, bot.config.analysis_depth)
        if judged is not None:
            reviews.append(judged)
        if clock.now() - shown >= PROGRESS_EVERY and index + 1 < total:
            await interaction.edit_original_response(content=progress_text(live, index + 1, total))
            shown = clock.now()
    names = live.names
    text = report(reviews, names)
    png = await pool.run(jobs.draw_analysis, snapshot, reviews, names)
    head = f"🔎 Analysis of match #{live.id}: {' vs '.join(names)}"
    files = [picture(png, f"analysis-{live.id}.png", picture_words(live, reviews))]
    if len(head) + len(text) + 8 <= INLINE:
        content = f"{head}\n```\n{text}\n```"
    else:
        content = f"{head} — the report is long, so here it is as a file."
        words = f"The analysis of match {live.id}, turn by turn"
        files.insert(0, document(text, f"analysis-{live.id}.txt", words))
    channel = await match_channel(bot, live)
    view = blunder_view(live.id, reviews)
    if view is None:
        posted = await channel.send(content, files=files)
    else:
        posted = await channel.send(content, files=files, view=view)
    await interaction.edit_original_response(
        content=f"🔎 Analysed all {total} turns of match #{live.id}: {posted.jump_url}"
    )

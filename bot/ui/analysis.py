"""``/crosshairs analyse`` and the final board's **Analyse** button: the post-game
analysis (:mod:`rules.ai.analysis`) of a finished match, posted in its thread: the report
in text, the evaluation graph and, for each of the costliest blunders, the board as
played and the board after the better turn, one picture each (render.analysis). A public
progress message follows the work, edited at most every :data:`PROGRESS_EVERY` seconds.

The turns are judged in the worker processes one at a time: a whole analysis queued at
once would hold every worker for seconds while other matches wait for their boards."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands

from bot.services import jobs
from bot.services.live import LiveMatch
from bot.services.once import IN_FLIGHT
from bot.services.palettes import person_theme
from bot.services.refusal import Refusal
from bot.ui import anywhere
from bot.ui.board import ANALYSE_ID
from bot.ui.commands import add_commands, match_here
from bot.ui.context import bot_of
from bot.ui.errors import guarded
from bot.ui.exercise import blunder_view
from bot.ui.files import document, picture
from bot.ui.language import for_everyone
from bot.ui.thread import match_channel
from bot.ui.walls import match_in_guild, match_of_press
from i18n import _, current, n_
from render.analysis import shown_blunders
from rules.ai.analysis import TurnReview, point_of_view, report, turn_count

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

PROGRESS_EVERY: Final = 2.0  # seconds: Discord rate-limits edits, and people need no more
INLINE: Final = 2000  # characters: a longer report goes as a text file


def progress_text(live: LiveMatch, done: int, total: int) -> str:
    return "🔎 " + _(
        "Analysing match #{id}… turn {done} of {total}", id=live.id, done=done, total=total
    )


def graph_words(live: LiveMatch, reviews: list[TurnReview]) -> str:
    """Alt text of the evaluation graph."""
    blunders = [r for r in reviews if r.mark == "blunder"]
    shown = shown_blunders(reviews)
    text = _(
        "Analysis of match {id}, {players}: a graph of the evaluation after each of {n} "
        "player-turns ({view}; dots: yellow an inaccuracy, orange a mistake, red a blunder)",
        id=live.id,
        players=_(" vs ").join(live.names),
        n=len(reviews),
        view=point_of_view(live.names, live.game.mode.teams),
    )
    if not blunders:
        return text + "; " + _("no blunders.")
    found = n_("{n} blunder", "{n} blunders", len(blunders))
    if len(shown) != len(blunders):
        found += " " + _("(the {n} costliest have pictures)", n=len(shown))
    return f"{text}; {found}."


def blunder_words(live: LiveMatch, r: TurnReview) -> tuple[str, str]:
    """Alt texts of one blunder's two pictures: the board as played, the better one."""
    return (
        _(
            "Turn {n} by {who}, a blunder: the board after the turn played, {played}.",
            n=r.number,
            who=live.who(r.seat),
            played=r.played,
        ),
        _(
            "Turn {n} by {who}: the board after the better turn, {better}.",
            n=r.number,
            who=live.who(r.seat),
            better=r.better or "?",
        ),
    )


@app_commands.command(name="analyse", description="Find the mistakes of a finished match")
@discord.app_commands.describe(match="The match number (default: this thread's match)")
async def analyse(interaction: discord.Interaction, match: int | None = None) -> None:
    live = await (
        match_in_guild(interaction, match) if match is not None else match_here(interaction)
    )
    await analyse_match(interaction, live)


class AnalyseButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xh:an:(?P<id>\d+)"):
    """**Analyse** on a final board (:func:`bot.ui.board.final_view`): what
    ``/crosshairs analyse`` does for its match, pressed where the match is played."""

    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(label=_("Analyse"), custom_id=ANALYSE_ID.format(match_id))
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> AnalyseButton:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        # left off the board where the bot only answers; forged there, it is refused
        # as the command is
        anywhere.refuse_press(interaction, "analyse")
        await analyse_match(interaction, await match_of_press(interaction, self.match_id))


async def analyse_match(interaction: discord.Interaction, live: LiveMatch) -> None:
    """Analyse ``live`` for ``/crosshairs analyse`` or the Analyse button: refused
    unless it is finished and has a turn played, and while it is being analysed."""
    if not live.game.is_over:
        raise Refusal(
            _("match #{id} is not finished: analyse it once the game is over", id=live.id)
        )
    total = turn_count(live.game)
    if not total:
        raise Refusal(_("match #{id} has no played turn to analyse", id=live.id))
    busy = _("match #{id} is already being analysed", id=live.id)
    with IN_FLIGHT.claim(("analyse", live.id), busy):
        await interaction.response.defer(thinking=True)
        # the progress, the report and its pictures are posted for everyone to read
        with for_everyone(interaction.client, live.record.guild_id):
            await _analyse(interaction, live, total)


async def _analyse(interaction: discord.Interaction, live: LiveMatch, total: int) -> None:
    bot = bot_of(interaction)
    clock = bot.env.clock
    await interaction.edit_original_response(content=progress_text(live, 0, total))
    shown = clock.now()
    snapshot = jobs.snapshot_of(live.game)
    pool = bot.workers
    reviews: list[TurnReview] = []
    for index in range(total):
        judged = await pool.run(jobs.analyse_turn, snapshot, index, bot.config.analysis_depth)
        if judged is not None:
            reviews.append(judged)
        if clock.now() - shown >= PROGRESS_EVERY and index + 1 < total:
            await interaction.edit_original_response(content=progress_text(live, index + 1, total))
            shown = clock.now()
    names = live.names
    text = report(reviews, names, live.game.mode.teams)
    # drawn in the palette of whoever asked for it
    theme = await person_theme(bot.env.stores.palettes, interaction.user.id, live.record.guild_id)
    graph, *boards = await pool.run(jobs.draw_analysis, snapshot, reviews, names, current(), theme)
    head = "🔎 " + _(
        "Analysis of match #{id}: {players}", id=live.id, players=_(" vs ").join(names)
    )
    files = [picture(graph, f"analysis-{live.id}.png", graph_words(live, reviews))]
    pairs = [
        (f"analysis-{live.id}-turn-{r.number}-{kind}.png", words)
        for r in shown_blunders(reviews)
        for kind, words in zip(("played", "better"), blunder_words(live, r), strict=True)
    ]
    files += [picture(png, name, words) for png, (name, words) in zip(boards, pairs, strict=True)]
    if len(head) + len(text) + 8 <= INLINE:
        content = f"{head}\n```\n{text}\n```"
    else:
        content = f"{head} — " + _("the report is long, so here it is as a file.")
        words = _("The analysis of match {id}, turn by turn", id=live.id)
        files.insert(0, document(text, f"analysis-{live.id}.txt", words))
    channel = await match_channel(bot, live)
    view = blunder_view(live.id, reviews)
    if view is None:
        await channel.send(content, files=files)
    else:
        await channel.send(content, files=files, view=view)
    # a channel mention, not the message's discord.com link: it works wherever the bot
    # runs, the playground included
    where = live.record.thread_id or live.record.channel_id
    await interaction.edit_original_response(
        content="🔎 "
        + _(
            "Analysed all {total} turns of match #{id}: posted in <#{where}>.",
            total=total,
            id=live.id,
            where=where,
        )
    )


async def setup(bot: CrosshairsBot) -> None:
    add_commands(analyse)
    bot.add_dynamic_items(AnalyseButton)

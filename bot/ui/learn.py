"""``/crosshairs learn``: the course with the person's progress, and its lessons opened
by button, menu or name (played as exercises, :mod:`bot.ui.exercise`). ``xh:tl`` is
the course's menu of lessons."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.ui.commands import add_commands
from bot.ui.components import components
from bot.ui.errors import guarded
from bot.ui.exercise import NOBODY, TrainingButton, service, show
from bot.ui.text import WORD, Word, bounded
from i18n import N_, _, n_
from rules.training import shipped

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


class LessonMenu(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"xh:tl"):
    def __init__(self, passed: dict[str, int] | None = None) -> None:
        done = passed or {}
        options = [
            discord.SelectOption(
                label=f"{'✓ ' if x.id in done else ''}{n}. {_(x.title)}"[:100],
                value=x.id,
                description=_(x.part)[:100],
            )
            for n, x in enumerate(shipped.course(), start=1)
        ][:25]
        super().__init__(
            discord.ui.Select(custom_id="xh:tl", placeholder=_("Pick a lesson"), options=options)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> LessonMenu:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._choose(interaction))

    async def _choose(self, interaction: discord.Interaction) -> None:
        chosen = self.item.values[0] if self.item.values else ""
        await interaction.response.defer()
        exercise = await service(interaction).open_lesson(interaction.user.id, chosen)
        await show(interaction, exercise)


def course_text(passed: dict[str, int]) -> str:
    lines = [_("**Crosshairs: learn by flying.** One turn per lesson, on the real board.")]
    part = ""
    for n, x in enumerate(shipped.course(), start=1):
        if x.part != part:
            part = x.part
            lines.append(f"\n__{_(part)}__")
        mark = "✓" if x.id in passed else "·"
        lines.append(f"{mark} {n}. {_(x.title)}")
    total = len(shipped.course())
    lines.append(
        "\n"
        + n_(
            "{done} of {n} lesson passed.", "{done} of {n} lessons passed.", total, done=len(passed)
        )
    )
    return "\n".join(lines)


@app_commands.command(name="learn", description="Learn the game in short lessons")
@app_commands.describe(lesson="Go straight to this lesson")
async def learn(interaction: discord.Interaction, lesson: Word | None = None) -> None:
    training = service(interaction)
    if lesson is not None:  # a client may skip Discord's own check of its length
        bounded(lesson, WORD, N_("a lesson's name"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    if lesson is not None:
        await show(interaction, await training.open_lesson(interaction.user.id, lesson), edit=False)
        return
    passed = await training.progress(interaction.user.id)
    nxt = next((x for x in shipped.course() if x.id not in passed), None)
    view = components()
    if nxt is not None:
        view.add_item(TrainingButton("lesson", nxt.id, nxt))
    view.add_item(LessonMenu(passed))
    await interaction.followup.send(
        course_text(passed), view=view, ephemeral=True, allowed_mentions=NOBODY
    )


@learn.autocomplete("lesson")
async def lesson_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """The lessons whose title (in the asker's language or English) or id holds what was
    typed (Discord shows 25 at most)."""
    typed = current.strip().lower()
    found = [
        app_commands.Choice(name=f"{n}. {_(x.title)}"[:100], value=x.id)
        for n, x in enumerate(shipped.course(), start=1)
        if typed in _(x.title).lower() or typed in x.title.lower() or typed in x.id
    ]
    return found[:25]


async def setup(bot: CrosshairsBot) -> None:
    add_commands(learn)
    bot.add_dynamic_items(LessonMenu)

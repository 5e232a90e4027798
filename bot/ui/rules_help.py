"""``/crosshairs rules``: the rules in short pages, each with a diagram drawn by the
renderer from a position, and buttons to page through them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services import jobs, workers
from bot.services.pictures import diagram_words
from bot.ui.commands import add_commands
from bot.ui.components import components
from bot.ui.errors import guarded
from bot.ui.files import picture
from bot.ui.text import Picked
from i18n import N_, _, current
from rules import position
from rules.variants import VARIANTS

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


@dataclass(frozen=True)
class Page:
    key: str
    title: str
    text: str
    diagram: str  # position text
    lines: bool = False
    variants: bool = False  # the text goes on with each variant's rule

    def words(self) -> str:
        """The page's text in the language being spoken."""
        told = [_(self.text)]
        if self.variants:
            told += [
                _("**{variant}**: {rule}", variant=_(v.title), rule=_(v.teaching)) for v in VARIANTS
            ]
        return " ".join(told)


PAGES = (
    Page(
        "overview",
        N_("Crosshairs in a nutshell"),
        N_(
            "Each player flies a squadron of biplanes over a hex board. A plane caught in the "
            "line of fire of **two** enemy planes is shot down. Lose all but one plane and you "
            "are out. No dice, no hidden cards: only height, heading and nerve."
        ),
        "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1",
        lines=True,
    ),
    Page(
        "setup",
        N_("Setup and the first turns"),
        N_(
            "16 clouds are laid out (randomly and symmetrically, from a preset, or by the players"
            " in turn). Planes enter at height 0 on any free cell of your home side, facing any "
            "way. Player-turns ramp up: 1, 2, 3, 4 actions, then every plane must fly every turn."
        ),
        "duel/2026 t3 - | d4 d6 g6 g8 | >a3NE0 +4 | k7SW0 k9SW0 +3",
    ),
    Page(
        "moving",
        N_("Moving: climb, level flight, dive"),
        N_(
            "**Climb** (`c3C`): +1 height, one cell ahead, then turn 60° if you like. **Level "
            "flight** (`c3F`): two cells ahead (classic rules: one or two). **Dive**: a series of"
            " swoops (`S`: −1 height, one cell) and power dives (`P`: −2 height, turn on the "
            "spot). Planes never pass through each other and never leave the board; a plane that "
            "can do nothing else **crashes**."
        ),
        "duel/2026 t9 - | f6 | >d4E3 c6NW5 +0 | h8W2 k7SW3 +0",
    ),
    Page(
        "shooting",
        N_("Shooting"),
        N_(
            "A plane fires straight ahead until the first plane, a cloud or the edge. Caught by "
            "two enemy planes, it can be shot down: at the start of your turn and after each of "
            "your manoeuvres (each dive step too). Height does not matter; clouds block fire."
        ),
        "duel/2026 t9 - | - | >d2E0 f8SW0 a6E0 +0 | d6W0 k10E0 k6W0 +0",
        lines=True,
    ),
    Page(
        "modes",
        N_("Free-for-all, Circle of Death and teams"),
        N_(
            "Three to six players fly clockwise. **Free-for-all**: shot-down planes are trophies;"
            " most trophies wins. **Circle of Death**: you may only finish planes your right-hand"
            " neighbour helps to catch; eliminate your left-hand neighbour by a shot to win. "
            "**Teams** (1v2, 1v3, 2v2, 3v3) share victory; there is no friendly fire."
        ),
        "ffa3/2026 t10 - | - | >e2E0 a6E0 +0 | e5W0 k6W0 +1 | h8SW0 k11E0 +0",
        lines=True,
    ),
    Page(
        "variants",
        N_("Variants"),
        N_("**Handicaps**: your first k planes enter at height 1."),
        "duel/2026 t9 aces | d6 | >d4E3! a6E0 +0 | k7SW0 k10E0 +0",
        variants=True,
    ),
    Page(
        "notation",
        N_("Notation"),
        N_(
            "`+a3NE` place · `c3C<` climb and turn left · `c3F>` level, turn right · `e6SS>P` "
            "dive (swoop, swoop turning right, power dive) · `e6X` crash · `*d4` shoot · `-` end "
            "a dive or hold fire. Use `/crosshairs move` with autocomplete, or the **Play** "
            "button."
        ),
        "duel/2026 t9 - | - | >e6E5 a6NW0 +0 | k7SW0 k10E0 +0",
    ),
    Page(
        "decisions",
        N_("Where the books are silent"),
        N_(
            "This bot decides a few things the rulebooks leave open: the turn passes by itself "
            "when you have nothing left to decide; automatic fire shoots in board order; a "
            "resigning player leaves with all their planes; random clouds keep home sides clear. "
            "The full list is in the project's docs/rules.md."
        ),
        "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1",
    ),
)
TOPICS = {p.key: i for i, p in enumerate(PAGES)}


async def _diagram(page: Page) -> discord.File:
    game = position.parse(page.diagram, fire="manual")
    png = await workers.current().run(
        jobs.draw_position, page.diagram, "manual", 768, page.lines, current()
    )
    return picture(png, f"rules-{page.key}.png", diagram_words(_(page.title), game))


def _embed(index: int) -> discord.Embed:
    page = PAGES[index]
    embed = discord.Embed(title=_(page.title), description=page.words(), colour=0x3B6EA8)
    embed.set_image(url=f"attachment://rules-{page.key}.png")
    embed.set_footer(text=_("Page {n} of {total}", n=index + 1, total=len(PAGES)))
    return embed


def _view(index: int) -> discord.ui.View:
    view = components()
    view.add_item(RulesPageButton(index - 1, "◀ " + _("Previous"), disabled=index == 0))
    view.add_item(RulesPageButton(index + 1, _("Next") + " ▶", disabled=index == len(PAGES) - 1))
    return view


class RulesPageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xh:rules:(?P<page>\d+)"
):
    def __init__(self, page: int, label: str = "", disabled: bool = False) -> None:
        label = label or _("Page")
        super().__init__(
            discord.ui.Button(label=label, disabled=disabled, custom_id=f"xh:rules:{max(page, 0)}")
        )
        self.page = max(0, min(page, len(PAGES) - 1))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RulesPageButton:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(
            embed=_embed(self.page),
            attachments=[await _diagram(PAGES[self.page])],
            view=_view(self.page),
        )


@app_commands.command(name="rules", description="The rules, page by page, with diagrams")
@app_commands.describe(topic="Jump to a topic")
@app_commands.choices(topic=[app_commands.Choice(name=p.title, value=p.key) for p in PAGES])
async def rules(interaction: discord.Interaction, topic: Picked = "overview") -> None:
    index = TOPICS.get(topic, 0)
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send(
        embed=_embed(index), file=await _diagram(PAGES[index]), view=_view(index), ephemeral=True
    )


async def setup(bot: CrosshairsBot) -> None:
    add_commands(rules)
    bot.add_dynamic_items(RulesPageButton)

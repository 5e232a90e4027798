"""Persistent buttons: their custom ids carry everything needed to act, so they keep
working after a restart (the match is reloaded from storage on first use).

* ``xh:<action>:<match>`` — the board's buttons: play, lines, draw, resign, claim;
* ``xh:sure:<match>`` — confirms a resignation;
* ``xh:ck:<match>:<ply>:n:<path>`` / ``…:g:<token>`` — the cockpit: navigate to a
  stage, or play a step. The ply makes a button pressed for an older state fail
  politely instead of acting on a game its presser never saw.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.manager import LiveMatch, MatchError
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
LABELS = {
    "play": ("Play", discord.ButtonStyle.primary, "✈️"),
    "lines": ("Lines of fire", discord.ButtonStyle.secondary, "🎯"),
    "draw": ("Offer draw", discord.ButtonStyle.secondary, "🤝"),
    "resign": ("Resign", discord.ButtonStyle.danger, "🏳️"),
    "claim": ("Claim on time", discord.ButtonStyle.secondary, "⏰"),
}


class MatchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:(?P<action>play|lines|draw|resign|claim):(?P<id>\d+)",
):
    def __init__(self, action: str, match_id: int) -> None:
        label, style, emoji = LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=f"xh:{action}:{match_id}"
            )
        )
        self.action = action
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> MatchButton:
        return cls(match["action"], int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        games = bot.games
        if self.action == "play":
            live = await games.get(self.match_id)
            _require_turn(live, interaction.user.id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await send_cockpit(interaction, live, ())
        elif self.action == "lines":
            from bot.ui.tables import board_file

            live = await games.get(self.match_id)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send(
                "Lines of fire of the side to move; caught planes are marked.",
                file=await board_file(live, lines=True),
                ephemeral=True,
            )
        elif self.action == "resign":
            live = await games.get(self.match_id)
            if not live.seats_of(interaction.user.id):
                raise MatchError("you are not playing in this match")
            view = discord.ui.View(timeout=120)
            view.add_item(ConfirmResign(self.match_id))
            await interaction.response.send_message(
                "Really resign? This cannot be undone.", view=view, ephemeral=True
            )
        else:
            await interaction.response.defer()
            if self.action == "draw":
                update = await games.offer_draw(self.match_id, interaction.user.id)
            else:
                update = await games.claim_timeout(self.match_id, interaction.user.id)
            await _announce(bot, interaction, update)


class ConfirmResign(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"xh:sure:(?P<id>\d+)"
):
    def __init__(self, match_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Yes, resign",
                style=discord.ButtonStyle.danger,
                custom_id=f"xh:sure:{match_id}",
            )
        )
        self.match_id = match_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ConfirmResign:
        return cls(int(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._act(interaction))

    async def _act(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        update = await bot_of(interaction).games.resign(self.match_id, interaction.user.id)
        await _announce(bot_of(interaction), interaction, update)


async def _announce(bot: CrosshairsBot, interaction: discord.Interaction, update: Any) -> None:
    from bot.ui.tables import show_update

    if update.events:
        await show_update(bot, update)
    else:
        from bot.ui.tables import match_channel

        channel = await match_channel(bot, update.match)
        await channel.send(update.text())
    await tell(interaction, "Done.")


def _require_turn(live: LiveMatch, user_id: int) -> None:
    if live.game.is_over:
        raise MatchError("this game is over")
    if not live.seats_of(user_id):
        raise MatchError("you are not playing in this match — you can watch, though!")
    if live.user_to_move() != user_id:
        raise MatchError(f"it is not your turn: {live.who(live.game.active)} is to fly")


# ------------------------------------------------------------------ cockpit


class CockpitButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:ck:(?P<id>\d+):(?P<ply>\d+):(?P<op>[ng]):(?P<arg>[^:]*)",
):
    def __init__(
        self, match_id: int, ply: int, choice: cockpit.Choice, row: int | None = None
    ) -> None:
        if choice.token is not None:
            op, arg = "g", choice.token
        else:
            op, arg = "n", "/".join(choice.path)
        custom_id = f"xh:ck:{match_id}:{ply}:{op}:{arg}"
        super().__init__(
            discord.ui.Button(
                label=choice.label,
                style=STYLES[choice.style],
                disabled=not choice.enabled,
                custom_id=custom_id,
                row=row,
            )
        )
        self.match_id = match_id
        self.ply = ply
        self.op = op
        self.arg = arg

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CockpitButton:
        path = tuple(p for p in match["arg"].split("/") if p)
        choice = (
            cockpit.Choice("", token=match["arg"])
            if match["op"] == "g"
            else cockpit.Choice("", path=path)
        )
        return cls(int(match["id"]), int(match["ply"]), choice)

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        live = await bot.games.get(self.match_id)
        _require_turn(live, interaction.user.id)
        if self.ply != live.ply:
            raise MatchError("that cockpit is out of date — press Play on the board again")
        await interaction.response.defer()
        if self.op == "n":
            await send_cockpit(
                interaction, live, tuple(p for p in self.arg.split("/") if p), edit=True
            )
            return
        update = await bot.games.play(
            self.match_id, interaction.user.id, [self.arg], expect_ply=self.ply
        )
        from bot.ui.tables import show_update

        await show_update(bot, update)
        if live.user_to_move() == interaction.user.id:
            await send_cockpit(interaction, live, (), edit=True, note=update.text())
        else:
            await interaction.edit_original_response(
                content=f"{update.text()}\n\n✅ Your turn is done.", attachments=[], view=None
            )


async def send_cockpit(
    interaction: discord.Interaction,
    live: LiveMatch,
    path: tuple[str, ...],
    edit: bool = False,
    note: str = "",
) -> None:
    """Show (or refresh) the player's cockpit: the stage's choices as buttons and a board
    preview highlighting what they are about to fly."""
    from bot.ui.tables import board_file

    stage = cockpit.panel(live.game, path)
    view = discord.ui.View(timeout=None)
    for i, choice in enumerate(stage.choices[:25]):
        view.add_item(CockpitButton(live.id, live.ply, choice, row=i // 5))
    file = await board_file(
        live,
        highlight_cells=stage.highlight_cells,
        highlight_plane=stage.highlight_plane,
        size=768,
        filename="cockpit.png",
    )
    content = f"{note}\n\n**{stage.title}**".strip() if note else f"**{stage.title}**"
    if edit:
        await interaction.edit_original_response(content=content, attachments=[file], view=view)
    else:
        await interaction.followup.send(content, file=file, view=view, ephemeral=True)

"""``/crosshairs takeback``: in an unrated game, take back your latest turn.

Against the computer alone it happens at once; otherwise the other people in the match
are asked in the thread, pinged by name, and each accepts or declines with a button
(``xh:tb:<match>:<ply>:<user>:accept|decline``: the ply the takeback was asked at, so
a button pressed after the game moved on, or pressed twice, acts at most once). The
rules of when a takeback is allowed are :mod:`bot.services.takeback`'s.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.live import MatchError, Update
from bot.services.takeback import Request, Takebacks
from bot.ui.board import board_view
from bot.ui.commands import add_commands, match_here
from bot.ui.components import answer_button, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.surfaces import surfaces_of
from bot.ui.thread import draw_lines, refresh_board
from bot.ui.walls import match_of_press
from i18n import _, n_

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def _service(interaction: discord.Interaction) -> Takebacks:
    return bot_of(interaction).env.takebacks


@app_commands.command(name="takeback", description="Undo your last turn")
async def takeback(interaction: discord.Interaction) -> None:
    live = await match_here(interaction)
    service = _service(interaction)
    request = await service.request(live, interaction.user.id)
    if not request.agree:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await _apply(interaction, service, request)
        return
    asked = " ".join(f"<@{u}>" for u in sorted(request.agree))
    view = components()
    with for_everyone(bot_of(interaction), live.record.guild_id):
        for op in ("accept", "decline"):
            view.add_item(TakebackButton(request.match_id, request.at_ply, request.user_id, op))
        said = n_(
            "{who} asks to take back their latest turn ({n} step). {asked}, do you agree?",
            "{who} asks to take back their latest turn ({n} steps). {asked}, do you agree?",
            request.at_ply - request.to_ply,
            who=live.who(live.seats_of(request.user_id)[0]),
            asked=asked,
        )
    await interaction.response.send_message(
        f"↩️ {said}",
        view=view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(u) for u in sorted(request.agree)]
        ),
    )


async def _apply(interaction: discord.Interaction, service: Takebacks, request: Request) -> None:
    """Take the turn back, tell whoever acted, and bring the board up to date."""
    update = await service.take_back(request)
    await tell(interaction, "\n".join(update.lines))
    await _show(bot_of(interaction), update)


async def _show(bot: CrosshairsBot, update: Update) -> None:
    live = update.match
    with for_everyone(bot, live.record.guild_id):
        edits = surfaces_of(bot).thread.edits
        await refresh_board(
            bot, edits, update, board_view(live), [*update.lines, *draw_lines(live)]
        )
    bot.env.life.computer_next(live)


class TakebackButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"xh:tb:(?P<id>\d+):(?P<ply>\d+):(?P<user>\d+):(?P<op>accept|decline)",
):
    def __init__(self, match_id: int, ply: int, user_id: int, op: str) -> None:
        super().__init__(answer_button(f"xh:tb:{match_id}:{ply}:{user_id}:{op}", op))
        self.match_id, self.ply, self.user_id, self.op = match_id, ply, user_id, op

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TakebackButton:
        return cls(int(match["id"]), int(match["ply"]), int(match["user"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _request(self, interaction: discord.Interaction) -> Request:
        """The request as it stands now; refused unless the game is still where it was
        asked and the presser is one of those asked."""
        live = await match_of_press(interaction, self.match_id)
        if live.ply != self.ply or live.over:
            raise MatchError(_("this takeback request is out of date: the game has moved on"))
        request = await _service(interaction).request(live, self.user_id)
        if interaction.user.id not in request.agree:
            raise MatchError(_("this takeback request is not addressed to you"))
        return request

    async def _press(self, interaction: discord.Interaction) -> None:
        await self._request(interaction)
        # Answered first: a press Discord refuses (late, or delivered twice) stops here.
        await interaction.response.defer()
        request = await self._request(interaction)  # again: another press may have come
        service = _service(interaction)
        if self.op == "decline":
            service.decline(request)
            said = "❌ " + _("Declined by {name}.", name=interaction.user.display_name)
            await interaction.edit_original_response(
                content=f"{_content(interaction)}\n\n{said}", view=None
            )
            return
        if not service.accept(request, interaction.user.id):
            await tell(interaction, "✅ " + _("Accepted: waiting for the others."))
            return
        update = await service.take_back(request)
        await interaction.edit_original_response(
            content=f"{_content(interaction)}\n\n✅ {update.lines[0]}", view=None
        )
        await _show(bot_of(interaction), update)


def _content(interaction: discord.Interaction) -> str:
    return interaction.message.content if interaction.message is not None else ""


async def setup(bot: CrosshairsBot) -> None:
    add_commands(takeback)
    bot.add_dynamic_items(TakebackButton)

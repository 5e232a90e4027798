"""``/crosshairs takeback``: in an unrated game, take back your latest turn.

Against the computer alone it happens at once; otherwise the other people in the match
are asked in the thread, pinged by name, and each accepts or declines with a button
(``xh:tb:<takeback>:accept|decline``: the id of the stored request, which knows the
match, the ply it was asked at and who is asked, so a button pressed after the game
moved on, pressed twice, or forged, acts at most once and only for those asked). The
rules of when a takeback is allowed are :mod:`bot.services.takeback`'s.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.refusal import Refusal
from bot.services.takeback import Answer, Takebacks
from bot.ui.commands import add_commands, match_here
from bot.ui.components import Persistent, answer_button, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.text import name_of
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
    await service.askable(live, interaction.user.id)
    others = any(e.user_id not in (None, interaction.user.id) for e in live.seats)
    # Answered first: the request is stored after (its buttons carry its id)
    await interaction.response.defer(ephemeral=not others, thinking=True)
    asked = await service.ask(live, interaction.user.id)
    if not asked.asked:  # only the computer to ask: it agrees
        await service.answer(asked, None, yes=True)
        update = await service.update(asked)
        await tell(interaction, "\n".join(update.lines))
        await bot_of(interaction).env.life.after(update)
        return
    pinged = " ".join(f"<@{u}>" for u in sorted(asked.asked))
    view = components()
    with for_everyone(bot_of(interaction), live.record.guild_id):
        for op in ("accept", "decline"):
            view.add_item(TakebackButton(asked.id, op))
        said = n_(
            "{who} asks to take back their latest turn ({n} step). {asked}, do you agree?",
            "{who} asks to take back their latest turn ({n} steps). {asked}, do you agree?",
            asked.at_ply - asked.to_ply,
            who=live.who(live.seats_of(asked.asker_id)[0]),
            asked=pinged,
        )
    await interaction.followup.send(
        f"↩️ {said}",
        view=view,
        allowed_mentions=discord.AllowedMentions(
            users=[discord.Object(u) for u in sorted(asked.asked)]
        ),
    )


class TakebackButton(
    Persistent[discord.ui.Button[Any]],
    # before takebacks were stored, ids carried match:ply:asker: such a press is stale
    template=r"xh:tb:(?P<id>\d+)(?P<old>:\d+:\d+)?:(?P<op>accept|decline)",
):
    def __init__(self, takeback_id: int, op: str, old: bool = False) -> None:
        super().__init__(answer_button(f"xh:tb:{takeback_id}:{op}", op))
        self.takeback_id, self.op, self.old = takeback_id, op, old

    @classmethod
    def from_groups(cls, *groups: str) -> TakebackButton:
        takeback_id, old, op = groups
        return cls(int(takeback_id), op, old != "")

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        service = _service(interaction)
        if self.old:
            raise Refusal(_("this takeback request is out of date: the game has moved on"))
        asked = await service.find(self.takeback_id)
        # the id may be forged: the takeback's match only from its own thread
        live = await match_of_press(interaction, asked.match_id)
        service.check(live, asked, interaction.user.id)
        # Answered first: a press Discord refuses (late, or delivered twice) stops here.
        await interaction.response.defer()
        said = await service.answer(asked, interaction.user.id, yes=self.op == "accept")
        if said is Answer.DECLINED:
            said_no = "❌ " + _("Declined by {name}.", name=name_of(interaction.user))
            await interaction.edit_original_response(
                content=f"{_content(interaction)}\n\n{said_no}", view=None
            )
            return
        if said is Answer.WAITING:
            await tell(interaction, "✅ " + _("Accepted: waiting for the others."))
            return
        update = await service.update(asked)
        await interaction.edit_original_response(
            content=f"{_content(interaction)}\n\n✅ {update.lines[0]}", view=None
        )
        await bot_of(interaction).env.life.after(update)


def _content(interaction: discord.Interaction) -> str:
    return interaction.message.content if interaction.message is not None else ""


async def setup(bot: CrosshairsBot) -> None:
    add_commands(takeback)
    bot.add_dynamic_items(TakebackButton)

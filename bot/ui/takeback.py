"""``/crosshairs takeback``: in an unrated game, take back your latest turn.

Against the computer alone it happens at once; otherwise the other people in the match
are asked in the thread, pinged by name, and each accepts or declines with a button
(``xh:tb:<takeback>:accept|decline``: the id of the stored request, which knows the
match, the ply it was asked at and who is asked, so a button pressed after the game
moved on, pressed twice, or forged, acts at most once and only for those asked). The
rules of when a takeback is allowed are :mod:`bot.services.takeback`'s, and it publishes
each step; :class:`TakebackThread` shows them, whether the ask or the answer came from
here or from the live board (bot/live): the request posted (the command's answer, or a
message in the thread), then settled when declined or done.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.events import TakebackChanged
from bot.services.live import LiveMatch
from bot.services.refusal import Refusal
from bot.services.takeback import Answer, Takeback, Takebacks
from bot.ui import questions
from bot.ui.commands import add_commands, match_here
from bot.ui.components import Persistent, answer_button, components
from bot.ui.context import bot_of
from bot.ui.errors import guarded, tell
from bot.ui.language import for_everyone
from bot.ui.walls import match_of_press
from i18n import _, n_

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


log = logging.getLogger(__name__)
KEEP = 1000  # requests whose message is kept to be settled


def _service(interaction: discord.Interaction) -> Takebacks:
    return bot_of(interaction).env.takebacks


@app_commands.command(name="takeback", description="Undo your last turn")
async def takeback(interaction: discord.Interaction) -> None:
    live = await match_here(interaction)
    service = _service(interaction)
    await service.askable(live, interaction.user.id)
    others = any(e.user_id not in (None, interaction.user.id) for e in live.seats)
    # Answered first: the request is stored after (its buttons carry its id), and posted
    # as this answer's follow-up (TakebackThread)
    await interaction.response.defer(ephemeral=not others, thinking=True)
    _asked, update = await service.request(live, interaction.user.id, via=interaction)
    if update is not None:  # only the computer to ask: it agreed
        await tell(interaction, "\n".join(update.lines))
        await bot_of(interaction).env.life.after(update)


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
        yes = self.op == "accept"
        said = await service.answer(asked, interaction.user.id, yes, via=interaction)
        if said is Answer.WAITING:
            await tell(interaction, "✅ " + _("Accepted: waiting for the others."))
        elif said is Answer.DONE:
            await bot_of(interaction).env.life.after(await service.update(asked))


class TakebackThread:
    """The thread's side of each takeback's steps (subscribed by :mod:`bot.app`): the
    request's message, kept by request to be settled."""

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        self._messages: OrderedDict[int, tuple[questions.Handle, str]] = OrderedDict()

    async def changed(self, event: TakebackChanged) -> None:
        press = event.via if isinstance(event.via, discord.Interaction) else None
        asked, live = event.takeback, event.match
        if event.step == "asked" and asked.asked:
            await self._post(live, asked, press)
        elif event.step == "declined":
            with for_everyone(self.bot, live.record.guild_id):
                said = "❌ " + _("Declined by {name}.", name=_name(live, event.by))
            await self._settle(press, asked, said)
        elif event.step == "done" and asked.asked:
            with for_everyone(self.bot, live.record.guild_id):
                update = await self.bot.env.takebacks.update(asked)
                said = f"✅ {update.lines[0]}"
            await self._settle(press, asked, said)
        # "accepted" with others still to answer: only the presser is told

    async def _post(
        self, live: LiveMatch, asked: Takeback, press: discord.Interaction | None
    ) -> None:
        """The request with Accept and Decline, pinging only those asked: the answer to
        the command, else (asked on the live board) posted in the match's thread."""
        view = components()
        with for_everyone(self.bot, live.record.guild_id):
            for op in ("accept", "decline"):
                view.add_item(TakebackButton(asked.id, op))
            content = "↩️ " + n_(
                "{who} asks to take back their latest turn ({n} step). {asked}, do you agree?",
                "{who} asks to take back their latest turn ({n} steps). {asked}, do you agree?",
                asked.at_ply - asked.to_ply,
                who=live.who(live.seats_of(asked.asker_id)[0]),
                asked=" ".join(f"<@{u}>" for u in sorted(asked.asked)),
            )
        handle = await questions.ask(self.bot, live, press, content, view, asked.asked)
        self._messages[asked.id] = (handle, content)
        while len(self._messages) > KEEP:
            self._messages.popitem(last=False)

    async def _settle(self, press: discord.Interaction | None, asked: Takeback, said: str) -> None:
        """The request loses its buttons and says what became of it: through the press
        on it when that is where the answer came from, else through its handle (one
        posted before a restart keeps its buttons, which tell a press it is out of date)."""
        kept = self._messages.pop(asked.id, None)
        pressed = press.message if press is not None else None
        try:
            if (
                press is not None
                and pressed is not None
                and (kept is None or pressed.id == kept[0].id)
            ):
                await press.edit_original_response(
                    content=f"{pressed.content}\n\n{said}", view=None
                )
            elif kept is not None:
                await kept[0].edit(content=f"{kept[1]}\n\n{said}", view=None)
        except discord.HTTPException as exc:
            log.info("takeback %s: its request could not be updated (%s)", asked.id, exc)


def _name(live: LiveMatch, user_id: int | None) -> str:
    return next((e.name for e in live.seats if e.user_id == user_id), "?")


async def setup(bot: CrosshairsBot) -> None:
    add_commands(takeback)
    bot.add_dynamic_items(TakebackButton)

"""A match shown in one message, where the bot only answers interactions
(:mod:`bot.ui.anywhere`, docs/anywhere.md): the :class:`AnywhereSurface`. The cockpit sits
on the board itself and each press edits it; the computer's turns are flown within the
press that passed it the turn and shown with it; the final board carries the result,
then the ratings line, with Rematch and Record (no Analyse: docs/anywhere.md).
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.services import cockpit
from bot.services.events import Acted, MatchAborted, MatchFinished
from bot.services.live import LiveMatch, Update
from bot.ui import board_edits
from bot.ui.anywhere import Board
from bot.ui.board import cockpit_view, final_view, match_button
from bot.ui.language import for_everyone
from bot.ui.notify import game_opened
from bot.ui.ratings_line import ratings_line
from bot.ui.thread import board_file, board_text, draw_lines, drawings_of, seats_line
from i18n import N_, _

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

ANYWHERE_PROMPT = N_("{mention}, your turn — choose below.")
# where /crosshairs replay and record are refused, the final board keeps its Record button
ANYWHERE_HINT = N_("**{record}** below reads the whole game again.")
KEPT = 4096  # matches whose latest handle on the board is remembered


def _press(via: object) -> discord.Interaction | None:
    return via if isinstance(via, discord.Interaction) else None


class AnywhereSurface:
    """A match in one message: every press on it brings it up to date."""

    at_once = True

    def __init__(self, bot: CrosshairsBot) -> None:
        self.bot = bot
        # match -> the latest handle on its board message, whose token can still edit
        # that message for its 15 minutes (a resignation confirmed privately shows on
        # the board)
        self._pressed: OrderedDict[int, Board] = OrderedDict()

    # ------------------------------------------------ what the domain published

    async def acted(self, event: Acted) -> None:
        await self._show(event.match, event.via, event.update.lines, event.update.noted())

    async def finished(self, event: MatchFinished) -> None:
        """The final board: the result, then the ratings line (booked before it is shown)."""
        said = event.update.lines if event.update is not None else []
        await self._show(event.match, event.via, said)
        self._pressed.pop(event.match.id, None)

    async def aborted(self, event: MatchAborted) -> None:
        said = event.update.lines if event.update is not None else []
        await self._show(event.match, event.via, said)
        self._pressed.pop(event.match.id, None)

    async def _show(
        self, live: LiveMatch, via: object, said: Sequence[str], notes: Sequence[str] = ()
    ) -> None:
        """Through the press on the board (``via``), or else the latest handle on the
        board whose token still lives; with neither, the next press on the board brings
        it up to date."""
        press = _press(via)
        if press is not None and press.message is not None:  # not a private confirmation
            board: Board | None = Board(press)
        else:
            board = self._last_press(live.id)
        if board is None:
            log.info("match %s: no press to show the board through; the next one will", live.id)
            return
        await self.show(board, live, said=said, notes=notes)

    def _last_press(self, match_id: int) -> Board | None:
        """The latest handle on the match's board while its token may still edit it."""
        found = self._pressed.get(match_id)
        if found is not None and not board_edits.usable(found.interaction):
            del self._pressed[match_id]
            return None
        return found

    def _note(self, match_id: int, board: Board) -> None:
        self._pressed[match_id] = board
        self._pressed.move_to_end(match_id)
        while len(self._pressed) > KEPT:
            self._pressed.popitem(last=False)

    # ------------------------------------------------ what a press on it asks

    def shown_through(self, interaction: discord.Interaction) -> discord.Interaction | None:
        """A press on the board shows its change through itself."""
        return interaction

    async def cockpit(
        self, interaction: discord.Interaction, live: LiveMatch, path: tuple[str, ...], note: str
    ) -> None:
        """The cockpit is the board: one edit shows it at ``path``."""
        await self.show(Board(interaction), live, path)

    async def flown(self, interaction: discord.Interaction, update: Update) -> None:
        """The cockpit is on the board: one edit shows both."""
        await self.bot.env.life.after(update, via=interaction)

    async def caught_up(
        self, interaction: discord.Interaction, live: LiveMatch, ply: int | None = None
    ) -> bool:
        """A press made on a state the board no longer shows brings it up to date
        instead of acting: a match that ended while no press could show it (a
        resignation confirmed over 14 minutes after the board's latest press, or after a
        restart), or, for the player to fly, a cockpit of an older ``ply`` (there is no
        Play button to open a fresh one). Returns whether the press was answered so."""
        message = interaction.message
        if message is None or message.id != live.record.board_message_id:
            return False
        if not live.over:
            if ply is None or ply == live.ply:
                return False
            self.bot.games.check_turn(live, interaction.user.id)  # strangers: no
        await interaction.response.defer()
        await self.show(Board(interaction), live)
        return True

    # ------------------------------------------------ the message

    async def show(
        self,
        board: Board,
        live: LiveMatch,
        path: tuple[str, ...] = (),
        said: Sequence[str] = (),
        notes: Sequence[str] = (),
    ) -> discord.Message:
        """Bring the match's message (the one ``board`` edits) up to date."""
        self._note(live.id, board)
        ply = live.ply  # what is drawn below: another action may pass it meanwhile
        text, file, view = await self._message(live, path, said, notes)
        message = await board.edit(content=text, attachments=[file], view=view)
        await self.bot.games.board_shown(live, ply)  # a restart finds it up to date
        return message

    async def _message(
        self,
        live: LiveMatch,
        path: tuple[str, ...] = (),
        said: Sequence[str] = (),
        notes: Sequence[str] = (),
    ) -> tuple[str, discord.File, discord.ui.View | None]:
        """The board, the turn so far in words (and the action's ``notes``) and the
        cockpit of whoever is to fly at ``path``, with the draw buttons, Resign and
        Record when a row is free. The final
        board carries the result, then the ratings line, Rematch and Record (an aborted
        one says why it was called off: ``said``). Drawn from the match as storage holds
        it (:meth:`LiveMatch.committed`)."""
        live = await live.committed()
        if live.aborted:  # ``said``: how it was called off
            head = f"**Crosshairs #{live.id}** · {_(live.game.mode.title)}"
            called_off = f"{head}\n🛑 " + _("The match was called off.")
            text = "\n".join([head, *said]) if said else called_off
            return text, await board_file(self.bot.workers, drawings_of(self.bot), live), None
        if live.over:
            line = await ratings_line(self.bot.env.ratings, live)
            # the result first, then the ratings it moved
            hint = f"{line}\n" + _(ANYWHERE_HINT, record=_("Record"))
            text = board_text(drawings_of(self.bot), live, hint=hint)
            # no Analyse: its analysis is posted in a thread, which the bot cannot open here
            view = await final_view(self.bot, live, analyse=False)
            return text, await board_file(self.bot.workers, drawings_of(self.bot), live), view
        stage = cockpit.panel(live.game, path)
        view = cockpit_view(live, stage)
        shown = min(len(stage.choices), 5 * (5 - len(stage.menus)))
        rows = len(stage.menus) + -(-shown // 5)  # the rows the cockpit fills
        if rows < 5:
            draw = ("accept", "decline") if live.draw_offers else ("draw",)
            for action in (*draw, "resign", "record"):
                view.add_item(match_button(action, live.id, row=rows))
        extra = [*notes, *draw_lines(live), f"**{stage.title}**"]
        text = board_text(drawings_of(self.bot), live, extra, prompt=ANYWHERE_PROMPT)
        file = await board_file(
            self.bot.workers,
            drawings_of(self.bot),
            live,
            highlight_cells=stage.highlight_cells,
            highlight_plane=stage.highlight_plane,
            labels=stage.labels,
        )
        return text, file, view

    def kept(self, sent: discord.WebhookMessage) -> discord.PartialMessage | discord.WebhookMessage:
        return sent  # only the press's token may edit it (15 minutes)

    async def redraw(self, live: LiveMatch) -> None:
        # the bot cannot post here
        log.info("match %s: its board catches up at the next press on it", live.id)

    async def open(
        self, interaction: discord.Interaction, live: LiveMatch, intro: str, follow_up: bool
    ) -> discord.abc.Messageable | None:
        """A new match: the message ``interaction`` answered with (the challenge, the
        lobby, a rematch offer) becomes its board; with ``follow_up``, the board is a
        follow-up of ``interaction`` instead (a rematch asked for on a final board, which
        stays as it is). ``intro`` and the seats head the board through the first
        player-turn, as they head a thread."""
        bot = self.bot
        with for_everyone(bot, live.record.guild_id):
            drawings_of(bot).introduce(live, f"{intro}\n{seats_line(live)}")
        await bot.env.life.fly_within(live)
        ply = live.ply
        message: discord.Message
        if follow_up:
            text, file, view = await self._message(live)
            extra: dict[str, Any] = {} if view is None else {"view": view}
            message = await interaction.followup.send(text, file=file, wait=True, **extra)
            self._note(live.id, Board(interaction, message.id))
        else:
            message = await self.show(Board(interaction), live)
        await bot.games.set_board_message(live, message.id, ply)
        await game_opened(bot, live, interaction.user.id)
        return None

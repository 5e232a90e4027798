"""The match thread's messages: the board (drawn, posted; a standing draw offer and
the seats in words), each player-turn told in words, the cards claimed, and the whole
record on request.

Each match plays in its own thread, which always ends with the board message: the
rendered board, the current turn so far in words, whose turn it is (pinging them), and
the persistent buttons. After a plane action the board message is edited in place. When
the turn passes, the old board message becomes that turn told in words (its picture and
ping removed) and a fresh board is posted below it, pinging the next player: the thread
reads as one message per player-turn, then the board, with at most one ping outstanding.
Posts and edits go through the acting interaction's webhook where they can, which
Discord's global rate limit does not count (:mod:`bot.ui.board_edits`). The match's
introduction rides on its first board, and then on the first player-turn told in words,
instead of a message of its own: one rate-limited post fewer per match.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

import discord

from bot.services import jobs
from bot.services.live import LiveMatch, Update
from bot.services.palettes import server_theme
from bot.services.pictures import cards_words
from bot.services.workers import Workers
from bot.ui import board_edits
from bot.ui.files import document, picture
from bot.ui.glyphs import glyphs_of
from i18n import N_, _, current, n_
from rules.achievements import CARDS
from rules.events import CardClaimed, TurnPassed
from rules.game import Game
from rules.words.common import join, side
from rules.words.scene import alt_text
from rules.words.telling import Told, record_text, told_text

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

MAX_CONTENT = 1900
RECORD_INLINE = 2000  # Discord's message limit; a longer record comes as a text file
LOOK_BACK = 25  # the thread's last messages searched for a board posted but never noted
FINAL_HINT = N_(
    "Use `/crosshairs replay match:{id}` to watch it again, `/crosshairs record` to read it."
)
PREVIEWS_KEPT = 64
INTROS_KEPT = 4096


class Drawings:
    """What the bot keeps in memory of its boards, built once (:mod:`bot.app`) and read
    through :func:`drawings_of`: the cockpit previews already drawn (pressing through
    stages that highlight the same cells must not draw the board again), and each
    match's introduction, shown above the board until the first player-turn ends, then
    above that turn told in words. Introductions are keyed by the match and its creation
    time (another database's match of the same number never gets one), and kept in
    memory only: a board redrawn after a restart during the first player-turn goes
    without it."""

    def __init__(self, pixels: int, preview_pixels: int) -> None:
        self.pixels = pixels  # a board's width (BOARD_PIXELS)
        self.preview_pixels = preview_pixels  # a cockpit's preview (Config.preview_pixels)
        self.previews: OrderedDict[tuple[object, ...], bytes] = OrderedDict()
        # (match, created at) -> (its first turn, the introduction)
        self.intros: OrderedDict[tuple[int, float], tuple[int, str]] = OrderedDict()

    def introduce(self, live: LiveMatch, intro: str) -> None:
        """Carry ``intro`` on ``live``'s boards of its first player-turn, then on that
        turn told in words."""
        self.intros[live.id, live.record.created_at] = (live.game.turn, intro)
        while len(self.intros) > INTROS_KEPT:
            self.intros.popitem(last=False)

    def intro(self, live: LiveMatch, turn: int) -> str:
        """The introduction, if ``turn`` is the match's first player-turn and it has one."""
        first, intro = self.intros.get((live.id, live.record.created_at), (None, ""))
        return intro if turn == first else ""


def drawings_of(bot: CrosshairsBot) -> Drawings:
    found = bot.drawings
    assert isinstance(found, Drawings), "bot.app sets the drawings up before any feature"
    return found


async def board_file(
    pool: Workers,
    drawings: Drawings,
    live: LiveMatch,
    *,
    lines: bool = False,
    highlight_cells: Collection[int] = (),
    highlight_plane: int | None = None,
    labels: Sequence[tuple[int, str]] = (),
    size: int | None = None,
    filename: str = "board.png",
    theme: str = "dark",
) -> discord.File:
    """The board as an upload, drawn in ``theme`` (bot/services/palettes.py says whose);
    drawn in a worker process to keep the bot responsive. Every drawing of a match goes
    through here; previews (``filename`` other than the board's) are kept, keyed by what
    they show."""
    game = live.game
    size = size or drawings.pixels
    # the match and its ply, and what the picture shows: another database's match of
    # the same number (tests run many) never gets this one's picture
    state = (
        live.id,
        live.ply,
        tuple(game.planes()),
        frozenset(game.clouds),
        game.active,
        current(),  # the picture's words are in the language being spoken
    )
    key = (*state, lines, frozenset(highlight_cells), highlight_plane, tuple(labels), size, theme)
    previews = drawings.previews
    png = previews.get(key) if filename != "board.png" else None
    if png is None:
        png = await pool.run(
            jobs.draw_board,
            jobs.snapshot_of(live.game),
            live.names,
            lines=lines,
            highlight_cells=highlight_cells,
            highlight_plane=highlight_plane,
            highlight_labels=dict(labels),
            size=size,
            language=current(),
            theme=theme,
        )
        if filename != "board.png":
            previews[key] = png
            while len(previews) > PREVIEWS_KEPT:
                previews.popitem(last=False)
    else:
        previews.move_to_end(key)
    return picture(png, filename, alt_text(live.game, live.names, turns=live.telling().turns))


# whose turn it is, as the board in a thread says it; a board in one message has its own
PLAY_PROMPT = N_("{mention}, your turn — press **{play}** or use `/crosshairs move`.")


def board_text(
    drawings: Drawings,
    live: LiveMatch,
    extra: Sequence[str] = (),
    prompt: str = PLAY_PROMPT,
    hint: str = "",
) -> str:
    """The board message: heading, the turn so far in words, ``extra`` lines (a draw
    offer), whose turn it is with a ping and ``prompt``, or the result and ``hint`` (by
    default, how to watch and read it again)."""
    game = live.game
    rules = _("{ruleset} rules", ruleset=game.settings.ruleset)
    head = f"**Crosshairs #{live.id}** · {_(game.mode.title)} · {rules}"
    now = [t for t in live.telling().turns if t.turn == game.turn]
    body = ""
    if now and not game.is_over:
        told = told_text(game, now[0], live.names)
        body = told.replace(":\n", " " + _("so far") + ":\n", 1)
    status = live.status_line()
    if game.is_over:
        status += "\n" + (hint or _(FINAL_HINT, id=live.id))
    else:
        user = live.user_to_move()
        if user is not None:
            status = f"{_(prompt, mention=f'<@{user}>', play=_('Play'))}\n{status}"
        if live.deadline is not None:
            status += f" ⏰ <t:{int(live.deadline)}:R>"
    intro = drawings.intro(live, game.turn)
    text = "\n".join(part for part in (head, intro, body, *extra, status) if part)
    return text if len(text) <= MAX_CONTENT else text[: MAX_CONTENT - 1] + "…"


async def _drawn(
    bot: CrosshairsBot,
    live: LiveMatch,
    extra: Sequence[str],
    untold: Callable[[LiveMatch], list[Told]] = lambda _: [],
) -> tuple[int, str, discord.File, list[Told]]:
    """The board as storage holds it now (:meth:`LiveMatch.committed`): its ply (the
    one to note as shown: another action may pass it meanwhile), its text, its picture,
    and the turns ``untold`` finds in it."""
    drawings = drawings_of(bot)
    theme = await server_theme(bot.env.stores.palettes, live.record.guild_id)
    seen = await live.committed()
    ply, text, told = seen.ply, board_text(drawings, seen, extra), untold(seen)
    return ply, text, await board_file(bot.workers, drawings, seen, theme=theme), told


async def match_channel(bot: CrosshairsBot, live: LiveMatch) -> discord.abc.Messageable:
    channel_id = live.record.thread_id or live.record.channel_id
    channel = bot.get_channel(channel_id) or await bot.fetch_channel(channel_id)
    assert isinstance(channel, discord.abc.Messageable)
    return channel


async def send_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    target: discord.abc.Messageable,
    view: discord.ui.View | None,
    extra: Sequence[str] = (),
    retired: str = "",
) -> discord.Message:
    """Post a fresh board message and make it the match's board; the old one goes (or,
    given ``retired``, becomes those words), so the thread never shows two boards (nor
    two pings)."""
    async with bot.env.showing.of(live):
        return await _send_board(bot, live, target, view, extra, retired)


async def _send_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    target: discord.abc.Messageable,
    view: discord.ui.View | None,
    extra: Sequence[str],
    retired: str,
) -> discord.Message:
    ply, text, file, _ = await _drawn(bot, live, extra)
    old = live.record.board_message_id
    if view is None:
        message = await target.send(text, file=file)
    else:
        message = await target.send(text, file=file, view=view)
    await bot.games.set_board_message(live, message.id, ply)
    if old is not None:  # after the new one is up, so the thread never lacks a board
        await _remove(bot, live, old, retired)
    return message


async def unnoted_boards(
    bot: CrosshairsBot, live: LiveMatch, channel: discord.abc.Messageable
) -> list[discord.Message]:
    """Boards of ``live`` in ``channel`` newer than its noted board (any, if none is
    noted), oldest first: a process that died between posting a board and noting it left
    them. Read from the channel, since only Discord knows the post went through; if it
    cannot be read, none (the board is then posted again rather than lost)."""
    noted = live.record.board_message_id or 0
    head = f"**Crosshairs #{live.id}**"
    found: list[discord.Message] = []
    try:
        async for message in channel.history(limit=LOOK_BACK):
            if message.id <= noted:
                break
            if (
                message.author == bot.user
                and message.content.startswith(head)
                and any(a.filename == "board.png" for a in message.attachments)
            ):
                found.append(message)
    except discord.HTTPException as exc:
        log.info("match %s: the thread could not be read back (%s)", live.id, exc)
        return []
    return found[::-1]


async def adopt_board(
    bot: CrosshairsBot,
    live: LiveMatch,
    message: discord.Message,
    view: discord.ui.View | None,
    extra: Sequence[str] = (),
    retired: str = "",
) -> None:
    """Make ``message``, a board of ``live`` posted but never noted, the match's board,
    brought up to date by an edit instead of posting it again; the noted one goes (or
    becomes ``retired``), as when a board is posted (:func:`send_board`)."""
    async with bot.env.showing.of(live):
        ply, text, file, _ = await _drawn(bot, live, extra)
        await message.edit(content=text, attachments=[file], view=view)
        old = live.record.board_message_id
        await bot.games.set_board_message(live, message.id, ply)
        if old is not None and old != message.id:
            await _remove(bot, live, old, retired)


async def _remove(bot: CrosshairsBot, live: LiveMatch, message_id: int, words: str = "") -> None:
    """The old board goes, or becomes ``words`` (the turns it showed, told)."""
    channel = await match_channel(bot, live)
    old = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
    try:
        if words:
            await old.edit(content=words, attachments=[], view=None)
        else:
            await old.delete()
    except discord.HTTPException as exc:
        log.info("match %s: the old board could not be removed (%s)", live.id, exc)


def finished_turns(update: Update) -> list[Told]:
    """The player-turns that ``update`` brought to an end (the last one too, if it
    ended the game): what a board with no mark of what it shows goes on from."""
    live = update.match
    ended = {e.turn - 1 for e in update.events if isinstance(e, TurnPassed)}
    if update.ended:
        ended.add(live.game.turn)
    if not ended:
        return []
    return [t for t in live.telling().turns if t.turn in ended]


def turns_since(live: LiveMatch, shown: int) -> list[Told]:
    """The player-turns that ended after a board drawn at ply ``shown`` (the last one
    too, once the game is over)."""
    history = live.game.history
    if shown >= len(history):
        return []
    first, now = history[shown].turn, live.game.turn
    return [
        told
        for told in live.telling().turns
        if first <= told.turn and (told.turn < now or live.game.is_over)
    ]


def missed_turns(bot: CrosshairsBot, live: LiveMatch, shown: int | None) -> str:
    """The player-turns that ended after a board drawn at ply ``shown``, told in words:
    what that board becomes when a board drawn later replaces it."""
    ended = [] if shown is None else turns_since(live, shown)
    text = "\n\n".join(told_message(bot, live, told) for told in ended)
    return text if len(text) <= 2000 else text[:1999] + "…"


def told_message(bot: CrosshairsBot, live: LiveMatch, told: Told) -> str:
    """A finished player-turn in words, led by its seat's insignia (where the glyphs
    are uploaded: bot/ui/glyphs.py)."""
    glyphs = glyphs_of(bot)
    text = told_text(live.game, told, live.names)
    if told.turn:
        text = glyphs.said(glyphs.insignia(live, told.seat)) + text
    intro = drawings_of(bot).intro(live, told.turn)
    text = f"{intro}\n\n{text}" if intro else text
    return text if len(text) <= 2000 else text[:1999] + "…"


async def refresh_board(
    bot: CrosshairsBot,
    edits: board_edits.BoardEdits,
    update: Update,
    view: discord.ui.View | None,
    extra: Sequence[str] = (),
    via: discord.Interaction | None = None,
) -> None:
    """Bring the thread up to date after ``update``, keeping the board its last message:
    an edit within a turn; when a turn ends, its board message becomes the turn told in
    words (one message per player-turn) and a new board follows (also after a card was
    posted below the board). ``via``, the answered interaction that made the update, may
    carry the new board (:mod:`bot.ui.board_edits`)."""
    async with bot.env.showing.of(update.match):
        await _refresh_board(bot, edits, update, view, extra, via)


async def _refresh_board(
    bot: CrosshairsBot,
    edits: board_edits.BoardEdits,
    update: Update,
    view: discord.ui.View | None,
    extra: Sequence[str],
    via: discord.Interaction | None,
) -> None:
    live = update.match
    channel = await match_channel(bot, live)
    cards = await announce_claims(bot, update)
    if live.over and not update.ended:
        return  # an action shown after the end (its cards above): the end's showing tells it all
    # The turns told are those the board has not shown yet, not this update's own:
    # updates shown late (taps on the live board can outrun the thread) are coalesced,
    # each turn told once and in order, never one for another.
    shown = await bot.games.board_mark(live)
    board_id = live.record.board_message_id
    # the ply drawn is the one noted as shown: another action may pass it meanwhile
    ply, text, file, told = await _drawn(
        bot,
        live,
        extra,
        lambda seen: finished_turns(update) if shown is None else turns_since(seen, shown),
    )
    old = None if board_id is None else channel.get_partial_message(board_id)  # type: ignore[attr-defined]
    if old is not None and not told and not cards:
        try:
            await edits.edit(live.id, old, content=text, attachments=[file], view=view)
        except discord.HTTPException as exc:
            log.info("match %s: board message gone (%s); posting a new one", live.id, exc)
        else:
            await bot.games.board_shown(live, ply)
            return
    # The new board goes up before the old one is turned into the first turn told (or
    # removed), so that the thread never lacks a board, not even for a moment.
    first, rest = (told[0], told[1:]) if told and old is not None else (None, told)
    for turn in rest:
        await board_edits.say(live.id, channel, via, told_message(bot, live, turn))
    message = await edits.post(live.id, channel, via, text, file, view)
    await bot.games.set_board_message(live, message.id, ply)
    if old is None:
        return
    try:
        if first is not None:
            words = told_message(bot, live, first)
            await edits.edit(live.id, old, content=words, attachments=[], view=None)
        else:
            await old.delete()
    except discord.HTTPException as exc:
        log.info("match %s: the old board could not be replaced (%s)", live.id, exc)


async def announce_claims(bot: CrosshairsBot, update: Update) -> int:
    """Post each card claimed by this update, drawn, the moment it happens; returns how
    many were posted."""
    claimed = [e for e in update.events if isinstance(e, CardClaimed)]
    if not claimed:
        return 0
    live = update.match
    channel = await match_channel(bot, live)
    for claim in claimed:
        card = CARDS[claim.card]
        who = live.who(claim.seat)
        png = await bot.workers.run(jobs.draw_card, card, live.names[claim.seat], current())
        said = n_(
            "{who} claims **{card}** ({n} point): {fate}",
            "{who} claims **{card}** ({n} points): {fate}",
            card.points,
            who=who,
            card=_(card.name),
            fate=_claim_fate(live.game, claim.seat),
        )
        await channel.send(
            f"🃏 {said}",
            file=picture(
                png, f"{claim.card}.png", cards_words([card], claimed_by=live.names[claim.seat])
            ),
        )
    return len(claimed)


def _claim_fate(game: Game, seat: int) -> str:
    """What becomes of a card claimed in ``game`` (docs/series.md)."""
    if game.result is None:
        return _("kept if they win this game.")
    if game.ended_early:
        return _("not kept: the game ended before every side had flown a turn.")
    if seat in game.result.winners:
        return _("kept: they won this game.")
    return _("back to the pool: they did not win this game.")


def draw_lines(live: LiveMatch) -> list[str]:
    """The standing draw offer, naming (and mentioning) who has still to answer."""
    if not live.draw_offers or live.game.is_over:
        return []
    offered = join(live.who(s) for s in sorted(live.draw_offers))
    waiting = [s for s in live.game.alive() if s not in live.draw_offers]
    them = join(
        f"<@{live.seats[s].user_id}>" if live.seats[s].user_id else live.who(s) for s in waiting
    )
    said = _(
        "{offered} offers a draw to {them}: **{accept}** or **{decline}** below.",
        offered=offered,
        them=them,
        accept=_("Accept draw"),
        decline=_("Decline draw"),
    )
    return [f"🤝 {said}"]


def seats_line(live: LiveMatch) -> str:
    """Who flies which seat, and from which edge their planes come on."""
    m = live.game.mode
    said = [
        _("{who} from the {side} edge", who=live.who(s), side=side(m.sides[s]))
        for s in range(live.game.seats)
    ]
    return _("Seats: {seats}. Planes come on at their home side's edge cells.", seats=join(said))


async def send_record(interaction: discord.Interaction, live: LiveMatch) -> None:
    """The whole game in words, to the asker only: as a message, or as a text file when
    it is longer than a message may be."""
    text = record_text(live.game, live.names) or _("Nothing has happened yet.")
    head = "📜 " + _("Match #{id}: {players}", id=live.id, players=_(" vs ").join(live.names))
    if len(head) + 2 + len(text) <= RECORD_INLINE:
        await interaction.response.send_message(f"{head}\n{text}", ephemeral=True)
        return
    await interaction.response.send_message(
        head + " — " + _("the record is long, so here it is as a file."),
        file=document(
            text, f"match-{live.id}.txt", _("The record of match {id} in words", id=live.id)
        ),
        ephemeral=True,
    )

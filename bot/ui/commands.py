"""The ``/crosshairs`` slash commands for playing and watching."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services import jobs
from bot.services.computer_seat import computer_name
from bot.services.live import ClockSettings, LiveMatch, Occupant
from bot.services.notifications import jump_link
from bot.services.pictures import replay_words
from bot.services.refusal import Refusal
from bot.ui import anywhere, invites
from bot.ui.access import require_play
from bot.ui.board import post_board
from bot.ui.context import bot_of
from bot.ui.errors import tell
from bot.ui.files import picture
from bot.ui.language import for_everyone
from bot.ui.offers import Table
from bot.ui.options import (
    GAME_DESCRIPTIONS,
    STRENGTH_CHOICES,
    game_choices,
    turn_clock,
)
from bot.ui.presses import ask_to_resign
from bot.ui.suggestions import Offers
from bot.ui.text import LIST, TOKENS, Picked, bounded, name_of
from bot.ui.thread import send_record
from bot.ui.walls import match_in_guild
from bot.ui.words import send_words_board
from i18n import N_, _, current
from rules.errors import RulesError
from rules.modes import MODES, Settings
from rules.variants import VARIANTS, names, parse_variants

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot


def top_level(name: str, description: str) -> app_commands.Group:
    """A top-level command: ``/crosshairs`` for playing, and one beside it for each part
    that needs room of its own (tournaments, series), since Discord counts its 8,000
    characters per top-level command (docs/localisation.md)."""
    return app_commands.Group(
        name=name,
        description=description,
        # a person may install the app and play in DMs, group DMs and servers without the
        # bot, through interactions only (bot/ui/anywhere.py)
        allowed_installs=app_commands.AppInstallationType(guild=True, user=True),
        allowed_contexts=app_commands.AppCommandContext(
            guild=True, dm_channel=True, private_channel=True
        ),
    )


crosshairs = top_level("crosshairs", "Crosshairs: WW1 dogfights on a hex board")


def add_commands(
    *commands: app_commands.Command[Any, ..., Any] | app_commands.Group,
    to: app_commands.Group = crosshairs,
) -> None:
    """Put a feature's commands under ``/crosshairs`` (or a group of it): its ``setup``
    does. The groups are one per process, so a second bot in it puts the same commands
    there again."""
    for command in commands:
        to.add_command(command, override=True)


# The long autocomplete offers lately made, so that ``move`` can read them back.
OFFERS = Offers()
SHOWN = 20  # matches listed by /crosshairs games

LOBBY_MODES = [
    app_commands.Choice(name=m.title, value=m.key) for m in MODES.values() if m.seats > 2
][:25]


def settings_of(mode: str, ruleset: str, planes: int | None, variants: str, fire: str) -> Settings:
    bounded(variants, LIST, N_("variants"))
    chosen = parse_variants(variants)
    try:
        return Settings(mode=mode, ruleset=ruleset, planes=planes, variants=chosen, fire=fire)
    except RulesError as exc:
        raise Refusal(
            _("{error} (variants: {variants})", error=exc, variants=names(VARIANTS))
        ) from None


def clock_of(seconds: int | None, claim: bool) -> ClockSettings:
    return ClockSettings(turn_clock(seconds), "claim" if claim else "lose")


def channel_ids(interaction: discord.Interaction) -> tuple[int, int | None]:
    channel = interaction.channel
    if isinstance(channel, discord.Thread) and channel.parent_id:
        return channel.parent_id, interaction.guild_id
    assert channel is not None
    return channel.id, interaction.guild_id


async def match_here(interaction: discord.Interaction) -> LiveMatch:
    """The match played in the channel or thread the command was used in."""
    channel = interaction.channel
    games = bot_of(interaction).games
    live = await games.by_thread(channel.id) if channel is not None else None
    if live is None:
        raise Refusal(_("there is no match in this channel: use this command in a match's thread"))
    await games.catch_up([live])  # another process may have played it (docs/activity.md)
    return live


@app_commands.command(name="challenge", description="Challenge someone (or the bot) to a duel")
@app_commands.describe(
    opponent="Who you challenge (the bot itself: the computer)",
    planes="Planes each (3 to 6, default 5)",
    **GAME_DESCRIPTIONS,
    claim="On time out, let the opponent claim instead of losing at once",
    strength="The computer's strength when you challenge the bot",
    rated="Off: unrated",
)
@game_choices
@app_commands.choices(strength=STRENGTH_CHOICES)
async def challenge(
    interaction: discord.Interaction,
    opponent: discord.User,
    ruleset: Picked = "2026",
    planes: app_commands.Range[int, 3, 6] = 5,
    variants: app_commands.Range[str, 0, LIST] = "",
    clouds: Picked = "random",
    fire: Picked = "auto",
    clock: int | None = None,
    claim: bool = False,
    strength: Picked = "medium",
    rated: bool = True,
) -> None:
    bot = bot_of(interaction)
    require_play(interaction)
    anywhere.refuse_option(interaction, clock is not None, anywhere.NO_CLOCK)
    settings = settings_of("duel", ruleset, planes, variants, fire)
    me = Occupant(interaction.user.id, name_of(interaction.user))
    channel_id, guild_id = channel_ids(interaction)
    if opponent.id == interaction.user.id:
        raise Refusal(_("you cannot challenge yourself — try the bot instead"))
    against_bot = bot.user is not None and opponent.id == bot.user.id
    if opponent.bot and not against_bot:
        raise Refusal(_("that bot cannot play Crosshairs — challenge me instead"))
    if against_bot:  # the computer accepts at once: answered with the table, then made
        with for_everyone(bot, guild_id):
            invited = Occupant(None, computer_name(strength), strength)
            table = Table(
                id=0,  # not an offer: the match is made at once
                host=me,
                settings=settings,
                clouds=clouds,
                clock=clock_of(clock, claim),
                channel_id=channel_id,
                guild_id=guild_id,
                seats=[me, invited],
                rated=False,  # a game with the computer is never rated
            )
            described = table.describe()
        await interaction.response.send_message(described)
    else:
        invited = Occupant(opponent.id, name_of(opponent))
    # a person's posted, pinging only them, as the answer to this command; the
    # computer's match opened, its table's answer saying where
    await bot.env.challenges.ask(
        me,
        invited,
        settings,
        clouds=clouds,
        clock=clock_of(clock, claim),
        channel_id=channel_id,
        guild_id=guild_id,
        rated=rated,
        via=interaction,
    )


@app_commands.command(name="lobby", description="Open a table for 3 to 6 players or teams")
@app_commands.describe(mode="Free-for-all, Circle of Death or a team game", **GAME_DESCRIPTIONS)
@app_commands.choices(mode=LOBBY_MODES)
@game_choices
async def lobby(
    interaction: discord.Interaction,
    mode: Picked,
    ruleset: Picked = "2026",
    variants: app_commands.Range[str, 0, LIST] = "",
    clouds: Picked = "random",
    fire: Picked = "auto",
    clock: int | None = None,
) -> None:
    require_play(interaction)
    anywhere.refuse_option(interaction, clock is not None, anywhere.NO_CLOCK)
    settings = settings_of(mode, ruleset, None, variants, fire)
    me = Occupant(interaction.user.id, name_of(interaction.user))
    channel_id, guild_id = channel_ids(interaction)
    seats: list[Occupant | None] = [None] * settings.spec.seats
    seats[0] = me
    table = invites.new_table(
        bot_of(interaction),
        host=me,
        settings=settings,
        clouds=clouds,
        clock=clock_of(clock, False),
        channel_id=channel_id,
        guild_id=guild_id,
        seats=seats,
    )
    with for_everyone(bot_of(interaction), guild_id):
        content, view = invites.lobby_text(table), invites.lobby_view(table)
    await interaction.response.send_message(content, view=view)


@app_commands.command(name="move", description="Fly by notation, e.g. c3C< or e6SS>P *d4")
@app_commands.describe(tokens="One or more tokens: +a3NE c3C< e6SS>P *d4 -")
async def move(
    interaction: discord.Interaction, tokens: app_commands.Range[str, 1, TOKENS]
) -> None:
    bounded(tokens, TOKENS, N_("a turn"))
    live = await match_here(interaction)
    whole = OFFERS.whole(interaction.user.id, tokens)
    if whole is None:
        raise Refusal(_("that shortened suggestion has expired: pick it again or type the turn"))
    words = whole.split()
    if not words:
        raise Refusal(_("type at least one token, e.g. c3C"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    update = await bot_of(interaction).games.play(live.id, interaction.user.id, words)
    # the answer first: a follow-up after it is a message of its own, so the next board
    # can go up through this interaction's webhook
    await interaction.followup.send(f"✅ {' '.join(words)}", ephemeral=True)
    await bot_of(interaction).env.life.after(update, via=interaction)


@move.autocomplete("tokens")
async def move_tokens(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    channel = interaction.channel
    live = await bot_of(interaction).games.by_thread(channel.id) if channel is not None else None
    if live is None or live.user_to_move() != interaction.user.id:
        return []
    typed = OFFERS.whole(interaction.user.id, current)
    if typed is None:
        return []
    done, _, last = typed.rpartition(" ")
    legal = await bot_of(interaction).games.suggestions.tokens(live, done.split())
    prefix = f"{done} " if done else ""
    found = [t for t in legal or () if t.lower().startswith(last.lower())]
    return [
        app_commands.Choice(name=name, value=value)
        for name, value in OFFERS.make(interaction.user.id, prefix, found)
    ]


@app_commands.command(name="board", description="Post the current board of this match again")
@app_commands.describe(words="Only to you, the position in words instead of a picture")
async def board(interaction: discord.Interaction, words: bool = False) -> None:
    live = await match_here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    if words:
        await send_words_board(interaction, live)
        return
    channel = interaction.channel
    assert isinstance(channel, discord.abc.Messageable)
    await post_board(bot_of(interaction), live, channel)
    await interaction.followup.send(_("Board posted."), ephemeral=True)


@app_commands.command(name="games", description="List the live matches of this server")
@app_commands.describe(mine="Mine only")
async def games(interaction: discord.Interaction, mine: bool = False) -> None:
    bot = bot_of(interaction)
    mine = mine or interaction.guild_id is None  # outside servers: no one else's DMs
    if mine:
        user = interaction.user.id
        live = await bot.games.active(user_id=user, limit=SHOWN)
    else:
        live = await bot.games.active(guild_id=interaction.guild_id, limit=SHOWN)
    if not live:
        said = _("You are in no live match.") if mine else _("No match is being flown right now.")
        await interaction.response.send_message(said, ephemeral=True)
        return
    lines = []
    for m in live:
        # a channel mention shows only in its own server: elsewhere, a link
        where = f"<#{m.record.thread_id or m.record.channel_id}>"
        if mine:
            where = jump_link(m) + (" — " + _("your turn") if m.user_to_move() == user else "")
        players = _(" vs ").join(m.names)
        turn = _("turn {n}", n=m.game.turn)
        lines.append(f"**#{m.id}** {_(m.game.mode.title)}: {players} — {where} — {turn}")
    await interaction.response.send_message("\n".join(lines), ephemeral=True)


@app_commands.command(name="replay", description="Watch a match again as an animation")
@app_commands.describe(match="The match number (default: this thread's match)")
async def replay(interaction: discord.Interaction, match: int | None = None) -> None:

    live = await (
        match_in_guild(interaction, match) if match is not None else match_here(interaction)
    )
    await interaction.response.defer(thinking=True)
    gif = await bot_of(interaction).workers.run(
        jobs.draw_replay, jobs.snapshot_of(live.game), live.names, current()
    )
    await interaction.followup.send(
        "🎞️ " + _("Match #{id}: {players}", id=live.id, players=_(" vs ").join(live.names)),
        file=picture(gif, f"match-{live.id}.gif", replay_words(live.game, live.names, live.id)),
    )


@app_commands.command(name="resign", description="Resign this match")
async def resign(interaction: discord.Interaction) -> None:
    live = await match_here(interaction)
    if live.over:
        raise Refusal(live.over_text())
    await ask_to_resign(interaction, live)


@app_commands.command(name="draw", description="Offer (or accept) a draw in this match")
async def draw(interaction: discord.Interaction) -> None:
    live = await match_here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    update = await bot_of(interaction).games.offer_draw(live.id, interaction.user.id)
    await bot_of(interaction).env.life.after(update)
    await interaction.followup.send(_("Done."), ephemeral=True)


@app_commands.command(name="record", description="The whole game record of a match, in words")
@app_commands.describe(match="The match number (default: this thread's match)")
async def record(interaction: discord.Interaction, match: int | None = None) -> None:
    live = await (
        match_in_guild(interaction, match) if match is not None else match_here(interaction)
    )
    await send_record(interaction, live)


@app_commands.command(name="abort", description="Call the match off before every side has flown")
async def abort(interaction: discord.Interaction) -> None:
    live = await match_here(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)  # before the write
    update = await bot_of(interaction).games.abort(live.id, interaction.user.id)
    await bot_of(interaction).env.life.after(update)
    await interaction.followup.send(_("The match is called off."), ephemeral=True)


@app_commands.command(
    name="sync", description="Owner only: sync the slash commands with Discord now"
)
async def sync(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    if not await bot.is_owner(interaction.user):
        raise app_commands.CheckFailure(_("only the bot's owner can sync its commands"))
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot.sync_if_changed(force=True)
    await tell(interaction, _("Slash commands synced."))


async def setup(bot: CrosshairsBot) -> None:
    add_commands(challenge, lobby, move, board, games, replay, resign, draw, record, abort, sync)
    bot.tree.add_command(crosshairs)

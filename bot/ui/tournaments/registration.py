"""Entering a tournament: ``/crosshairs-tournament create`` and the registration message's
buttons (join, leave, check in; close check-in and start for the organiser)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.services.once import IN_FLIGHT
from bot.services.records import Tournament, TournamentStatus
from bot.services.refusal import Refusal
from bot.services.tournaments.plan import TournamentPlan
from bot.ui.commands import add_commands
from bot.ui.components import Persistent, components
from bot.ui.context import bot_of
from bot.ui.desks import desks_of
from bot.ui.errors import guarded
from bot.ui.language import for_everyone
from bot.ui.options import (
    CLOCK_CHOICES,
    CLOUD_CHOICES,
    FIRE_CHOICES,
    GAME_DESCRIPTIONS,
    RULESET_CHOICES,
    game_settings_text,
    turn_clock,
)
from bot.ui.text import LIST, NAME, Picked, bounded, name_of, plain, visible
from bot.ui.tournaments.calendar import missing_event_text
from bot.ui.tournaments.desk import TournamentDesk, no_shows_text
from bot.ui.tournaments.group import FORMAT_NAMES, require_organiser, tournament, tournament_here
from competition.standings import DEFAULT_ORDER
from i18n import LANGUAGES, N_, _, in_language, n_
from rules.errors import RulesError
from rules.modes import Settings

if TYPE_CHECKING:
    from bot.discord_app import CrosshairsBot

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    app_commands.Choice(name="Swiss (set number of rounds)", value="swiss"),
    app_commands.Choice(name="Round robin (divisions of up to 10)", value="round-robin"),
    app_commands.Choice(name="Double round robin (everyone twice)", value="double-round-robin"),
    app_commands.Choice(name="Single elimination", value="single"),
    app_commands.Choice(name="Double elimination", value="double"),
    app_commands.Choice(name="Arena (re-paired as games end, for a set time)", value="arena"),
]
MODE_CHOICES = [
    app_commands.Choice(name="Duel", value="duel"),
    app_commands.Choice(name="Teams of 2 (2v2)", value="2v2"),
    app_commands.Choice(name="Teams of 3 (3v3)", value="3v3"),
    *(app_commands.Choice(name=f"Tables of {n} (Swiss)", value=f"ffa{n}") for n in range(3, 7)),
]
HANDICAP_CHOICES = [
    app_commands.Choice(name="No handicaps", value="none"),
    app_commands.Choice(name="Handicap tokens from ratings", value="rating"),
]


def registration_view(tid: int, *, check_in: bool) -> discord.ui.View:
    """The sign-up's buttons; Check in and Close check-in only for an event with check-in."""
    view = components()
    ops = ("join", "leave", "checkin", "close", "start") if check_in else ("join", "leave", "start")
    for op in ops:
        view.add_item(RegistrationButton(tid, op))
    return view


BUTTONS = {
    "join": (N_("Join"), discord.ButtonStyle.success),
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    "checkin": (N_("Check in"), discord.ButtonStyle.primary),
    "close": (N_("Close check-in"), discord.ButtonStyle.secondary),
    "start": (N_("Start"), discord.ButtonStyle.danger),
}


class RegistrationButton(
    Persistent[discord.ui.Button[Any]],
    template=r"xh:tn:(?P<tid>\d+):(?P<op>join|leave|checkin|close|start)",
):
    def __init__(self, tid: int, op: str) -> None:
        label, style = BUTTONS[op]
        super().__init__(
            discord.ui.Button(label=_(label), style=style, custom_id=f"xh:tn:{tid}:{op}")
        )
        self.tid = tid
        self.op = op

    async def callback(self, interaction: discord.Interaction) -> None:
        await guarded(interaction, self._press(interaction))

    async def _press(self, interaction: discord.Interaction) -> None:
        tournaments = desks_of(bot_of(interaction)).tournaments
        service = tournaments.service
        user = interaction.user
        found = await tournament_here(interaction, self.tid)  # only this server's ones
        if self.op in ("join", "leave", "checkin"):
            with IN_FLIGHT.claim(
                ("tn", self.tid, user.id), _("one moment: your last press is being done")
            ):
                # answered first: the writes below may take longer than Discord waits
                await interaction.response.defer(ephemeral=True, thinking=True)
                if self.op == "join":
                    await service.registration.join(self.tid, user.id, name_of(user))
                    text = (
                        _("✅ You are in. Watch this channel for check-in and your pairings.")
                        if TournamentPlan.from_json(found.settings_json).check_in
                        else _("✅ You are in. Watch this channel for your pairings.")
                    )
                elif self.op == "leave":
                    await service.registration.leave(self.tid, user.id)
                    text = _("You have left the tournament.")
                else:
                    await service.registration.check_in(self.tid, user.id)
                    text = _("✅ Checked in.")
                await interaction.followup.send(text, ephemeral=True)
            if self.op != "checkin" and interaction.message is not None:
                with for_everyone(bot_of(interaction), found.guild_id):
                    await _list_entrants(interaction.message, tournaments, self.tid)
            return
        require_organiser(interaction)
        if found.status is not TournamentStatus.OPEN:  # told only to the presser
            raise Refusal(_("{name} has already started", name=found.name))
        busy = _("the tournament is already being started or closed")
        with IN_FLIGHT.claim(("tn", self.tid), busy):
            if self.op == "close":
                await interaction.response.defer(thinking=True)
                gone = await service.registration.close_check_in(self.tid)
                with for_everyone(bot_of(interaction), found.guild_id):
                    said = no_shows_text(gone)
                await interaction.followup.send(said)
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await tournaments.begin(self.tid)
            # the sign-up is over: its buttons go, so nobody joins or starts it again
            if interaction.message is not None:
                await interaction.message.edit(view=None)
            await interaction.followup.send(_("🏁 Started."), ephemeral=True)


@app_commands.command(name="create", description="Organiser: create a tournament and open entries")
@app_commands.describe(
    name="What the event is called",
    format="Swiss, round robin, single or double elimination",
    rounds="Swiss: the number of rounds",
    mode="Duels, teams (2v2, 3v3) or tables of 3 to 6 (Swiss only)",
    games="Games per pairing (odd: a best-of-N series)",
    third_place="Single elimination: play a third-place match",
    reset="Double elimination: a second final if needed",
    clock="Time per turn; out of time loses (leave out: no clock)",
    planes="Planes each (3 to 6; duels and free-for-alls)",
    ruleset=GAME_DESCRIPTIONS["ruleset"],
    clouds=GAME_DESCRIPTIONS["clouds"],
    fire=GAME_DESCRIPTIONS["fire"],
    handicaps="Handicap policy for every pairing",
    check_in="Players must check in; the rest are dropped",
    start_in="Start in this many minutes (0: the organiser starts it)",
    round_minutes="Minutes between rounds (0: when the last ends)",
    no_show_minutes="Minutes after a round opens until a no-show forfeits",
    duration="Arena: minutes of pairing (games in play still count)",
    tiebreaks="Tie-breaks in order: head-to-head, buchholz, median-buchholz, "
    "sonneborn-berger, rating",
)
@app_commands.choices(format=FORMAT_CHOICES, mode=MODE_CHOICES)
@app_commands.choices(clock=CLOCK_CHOICES)
@app_commands.choices(ruleset=RULESET_CHOICES, clouds=CLOUD_CHOICES, fire=FIRE_CHOICES)
@app_commands.choices(handicaps=HANDICAP_CHOICES)
async def create(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, NAME],
    format: Picked,
    rounds: app_commands.Range[int, 0, 20] = 0,
    mode: Picked = "duel",
    games: app_commands.Range[int, 1, 7] = 1,
    third_place: bool = False,
    reset: bool = True,
    clock: int | None = None,
    handicaps: Picked = "none",
    check_in: bool = False,
    start_in: app_commands.Range[int, 0, 10080] = 0,
    round_minutes: app_commands.Range[int, 0, 1440] = 0,
    no_show_minutes: app_commands.Range[int, 1, 60] = 5,
    duration: app_commands.Range[int, 0, 1440] = 0,
    tiebreaks: app_commands.Range[str, 0, LIST] = "",
    planes: app_commands.Range[int, 3, 6] | None = None,
    ruleset: Picked = "2026",
    clouds: Picked = "random",
    fire: Picked = "auto",
) -> None:
    require_organiser(interaction)
    bot = bot_of(interaction)
    name = plain(bounded(name, NAME, N_("a tournament's name")))
    if not visible(name):  # blank-looking wherever it is shown
        raise Refusal(_("give the tournament a name"))
    bounded(tiebreaks, LIST, N_("tie-breaks"))
    try:  # a mode with fixed planes, or a bad choice, is refused before anything is stored
        every_game = Settings(mode=mode, ruleset=ruleset, planes=planes, fire=fire)
    except RulesError as exc:
        raise Refusal(str(exc)) from None
    if clouds.lower() not in {c.value for c in CLOUD_CHOICES}:
        raise Refusal(
            _("clouds: choose one of {choices}", choices=", ".join(c.value for c in CLOUD_CHOICES))
        )
    order = tuple(t.strip().lower() for t in tiebreaks.split(",") if t.strip())
    plan = TournamentPlan(
        organiser=interaction.user.id,
        rounds=rounds or None,
        third_place=third_place,
        reset=reset,
        tiebreaks=order or tuple(DEFAULT_ORDER),
        clock_per_turn=turn_clock(clock),
        ruleset=ruleset,
        planes=planes,
        clouds=clouds,
        fire=fire,
        handicaps=handicaps,
        check_in=check_in,
        start_at=bot.env.clock.now() + start_in * 60 if start_in else None,
        round_minutes=round_minutes or None,
        no_show_minutes=no_show_minutes,
        arena_minutes=duration or None,
    )
    if interaction.guild_id is None or interaction.channel_id is None:
        raise Refusal(_("tournaments are run in a server channel"))
    await interaction.response.defer(thinking=True)  # before the writes
    created = await bot.env.tournaments.registration.create(
        plan,
        name=name,
        format=format,
        mode=mode,
        games=games,
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
    )
    with for_everyone(bot, interaction.guild_id):  # the sign-up message is for everyone
        said = "\n".join(sign_up_lines(created, plan, every_game))
        view = registration_view(created.id, check_in=plan.check_in)
    await interaction.followup.send(said, view=view)
    if not interaction.app_permissions.create_events:  # said once: as it is created
        await interaction.followup.send(missing_event_text(created.name), ephemeral=True)


def sign_up_lines(created: Tournament, plan: TournamentPlan, every_game: Settings) -> list[str]:
    """The sign-up message: the event, how each pairing plays, how to enter."""
    teams = created.mode in ("2v2", "3v3")
    lines = [
        _(
            "🏆 **{name}** (tournament #{id}) — {format}",
            name=created.name,
            id=created.id,
            format=_format_text(created, plan),
        ),
        _(
            "Each pairing plays a best of {games} series with achievement cards: {settings}.",
            games=created.games_per_pairing,
            settings=game_settings_text(every_game, plan.clouds),
        )
        if created.games_per_pairing > 1
        else _(
            "Each pairing plays one game: {settings}.",
            settings=game_settings_text(every_game, plan.clouds),
        ),
    ]
    if teams and plan.check_in:
        lines.append(
            _(
                "A captain enters a team with `/crosshairs-tournament team`, then **Check in** "
                "before check-in closes."
            )
        )
    elif teams:
        lines.append(_("A captain enters a team with `/crosshairs-tournament team`."))
    elif plan.check_in:
        lines.append(_("Press **Join** to enter, then **Check in** before check-in closes."))
    else:
        lines.append(_("Press **Join** to enter."))
    if plan.start_at is not None:
        lines.append(_("Starts {when}.", when=f"<t:{int(plan.start_at)}:R>"))
    if plan.round_minutes is not None:
        lines.append(
            _(
                "A round opens every {minutes} minutes; whoever has not flown {late} minutes "
                "after their round opens forfeits.",
                minutes=plan.round_minutes,
                late=plan.no_show_minutes,
            )
        )
    return lines


ENTERED = N_("Entered")  # the sign-up message's last line names who is in


async def _list_entrants(message: discord.Message, tournaments: TournamentDesk, tid: int) -> None:
    """Bring the sign-up message's list of entrants up to date (names, no pings)."""
    ids = await tournaments.service.registration.entrants(tid)
    names = await tournaments.service.teams.entrant_names(tid, ids)
    # the line as any language wrote it: the server's language may have changed since
    heads = tuple(in_language(lang, ENTERED) for lang in LANGUAGES)
    kept = [line for line in message.content.splitlines() if not line.startswith(heads)]
    if ids:
        kept.append(
            _(
                "{entered} ({n}): {names}",
                entered=_(ENTERED),
                n=len(ids),
                names=", ".join(names.get(u, "?") for u in ids),
            )
        )
    try:
        await message.edit(content="\n".join(kept), allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as exc:  # the entry stands; only the list is behind
        log.info("tournament %s: sign-up message not updated (%s)", tid, exc)


def _format_text(t: Tournament, plan: TournamentPlan) -> str:
    if t.format == "swiss":
        what = n_("Swiss, {n} round", "Swiss, {n} rounds", plan.rounds or 0)
    elif t.format == "single" and plan.third_place:
        what = _("single elimination with a third-place match")
    elif t.format == "arena":
        what = n_(
            "arena for {n} minute (a win 2, a draw 1, doubled on a streak)",
            "arena for {n} minutes (a win 2, a draw 1, doubled on a streak)",
            plan.arena_minutes or 0,
        )
    else:
        what = _(FORMAT_NAMES[t.format])
    if t.mode in ("2v2", "3v3"):
        return _("{format}, teams of {n} ({mode})", format=what, n=t.mode[0], mode=t.mode)
    if t.mode == "duel":
        return what
    return _("{format}, tables of {n}", format=what, n=t.mode[3:])


async def setup(bot: CrosshairsBot) -> None:
    add_commands(create, to=tournament)
    bot.add_dynamic_items(RegistrationButton)

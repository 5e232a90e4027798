"""Tournaments in German, French and Spanish servers: everything the bot posts for the
channel — the sign-up and its buttons, the rounds, the pairings' threads, the results,
the bracket and standings (their alt text), the winner, a team invitation and its
acceptance, an arena's live board, the round clock's no-shows and reminders, and the
games' turns told in words, though the movers speak English — is in the server's
language, with no English word (i18n; what counts as one: :mod:`e2e.english`). The
asker's own answers are in their Discord language, which simcord always gives as English;
tests/e2e/test_e2e_tournament_german.py has German players too."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from e2e.english import english_in
from support.replies import answer

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from i18n import in_language
from tournament_bot.tournament_harness import (
    Club,
    open_games,
    resign,
    run_out_clock,
    seat_users,
    tick,
)

LOCALES = {
    "de": discord.Locale.german,
    "fr": discord.Locale.french,
    "es": discord.Locale.spain_spanish,
}
# what the test itself checks, as a reader of each language reads it
SAID = {
    "de": ("K.-o.-System mit Spiel um Platz 3", "Gewinnerrunde: Runde 1, ", "hat gewonnen"),
    "fr": ("élimination directe avec petite finale", "Tableau des gagnants : ronde 1, ", "a gagné"),
    "es": (
        "eliminación directa con partido por el tercer puesto",
        "Cuadro de ganadores: ronda 1, ",
        "ganó",
    ),
}


def club_in(simcord_env: Any, simcord_bot: CrosshairsBot, pilots: int, lang: str) -> Club:
    """A club of ``pilots`` in a server whose preferred language is ``lang``."""
    club = Club(simcord_env, pilots)
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = LOCALES[lang]
    return club


def public(channel: Any) -> list[str]:
    """What everyone in the channel (or thread) reads: texts, alt texts, button labels."""
    said: list[str] = []
    for message in channel.history():
        if message.flags.ephemeral:
            continue
        said += [message.content, *(a.description or "" for a in message.attachments)]
        for row in message.components:
            said += [str(getattr(item, "label", "") or "") for item in row.children]
    return said


@pytest.mark.parametrize("lang", sorted(LOCALES))
async def test_a_knockout_and_a_team_invitation_post_no_english_word_in_the_servers_language(
    simcord_env: Any, simcord_bot: CrosshairsBot, lang: str
) -> None:
    club = club_in(simcord_env, simcord_bot, 4, lang)
    kind, first_round, won = SAID[lang]
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Pokal",
            format="single",
            third_place=True,
        )
    )
    assert kind in created.content
    for pilot in club.pilots:
        await pilot.click(created, label=in_language(lang, "Join"))
    await club.organiser.click(created, label=in_language(lang, "Start"))
    for round_no in (1, 2):
        header = in_language(lang, "📣 **{name} — round {round}**", name="Pokal", round=round_no)
        assert any(t.startswith(header) for t in club.said())
        for thread, live in await open_games(simcord_bot, club):
            await resign(club, thread, seat_users(live)[1])
    over = in_language(lang, "🏆 **{name}** is over. Winner: {winners}!", name="Pokal", winners="@")
    assert club.said()[-1].startswith(over.split("@")[0] + "<@")
    head = in_language(lang, "**{name}**: the bracket", name="Pokal")
    *_, bracket = [m for m in club.channel.history() if m.content == head]
    words = bracket.attachments[0].description or ""
    third = in_language(lang, "{side}:", side=in_language(lang, "Third place"))
    assert first_round in words and f"{third} " in words and won in words

    team_event = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Doppel",
            format="swiss",
            rounds=1,
            mode="2v2",
        )
    )
    number = int(team_event.content.split("#", 1)[1].split(")", 1)[0])
    captain, partner = club.pilots[:2]
    invitation = answer(
        await captain.slash(
            club.channel, "crosshairs-tournament team", partner=partner, tournament_id=number
        )
    )
    assert "**Doppel**" in invitation.content and partner.mention in invitation.content
    await partner.click(invitation, label=in_language(lang, "Accept"))
    entered = in_language(
        lang,
        "✅ {captain}'s team is complete and entered in **{name}**.",
        captain=captain.mention,
        name="Doppel",
    )
    assert entered in club.said()

    shown = public(club.channel) + [
        text for thread in club.channel.threads for text in [thread.name, *public(thread)]
    ]
    assert len(shown) > 20
    assert {text: found for text in shown if (found := english_in(text, lang))} == {}


async def test_an_arena_in_a_spanish_server_posts_no_english_word(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    """The arena's sign-up, its games as they are paired, the live board (edited as
    results come in), the final board, standings and winner."""
    club = club_in(simcord_env, simcord_bot, 2, "es")
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Relámpago",
            format="arena",
            duration=1,
        )
    )
    assert "arena de 1 minuto (" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Inscribirse")
    await club.organiser.click(created, label="Empezar")
    ((thread, live),) = await open_games(simcord_bot, club)
    await resign(club, thread, seat_users(live)[1])
    assert any(t.startswith("🏟️ **Relámpago** — clasificación de la arena") for t in club.said())
    await run_out_clock(simcord_env, clock)  # the window closes while a rematch is in play
    for thread, live in await open_games(simcord_bot, club):
        await resign(club, thread, seat_users(live)[1])
    assert club.said()[-1].startswith("🏆 **Relámpago** ha terminado. ¡Gana <@")

    shown = public(club.channel) + [
        text for thread in club.channel.threads for text in [thread.name, *public(thread)]
    ]
    assert {text: found for text in shown if (found := english_in(text, "es"))} == {}


async def test_the_round_clock_in_a_french_server_posts_no_english_word(
    simcord_env: Any, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    """Round times: the no-show forfeit, the reminder before a round and the round opening
    at its time, posted by the tournament clock (no interaction: the server's language);
    then the organiser pairs the round again, drops a player and ends the event."""
    club = club_in(simcord_env, simcord_bot, 4, "fr")
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs-tournament create",
            name="Horloge",
            format="swiss",
            rounds=2,
            round_minutes=30,
            no_show_minutes=5,
        )
    )
    assert "Une ronde s'ouvre toutes les 30 minutes" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="S'inscrire")
    await club.organiser.click(created, label="Lancer")
    (thread_a, live_a), (thread_b, live_b) = await open_games(simcord_bot, club)
    await resign(club, thread_a, seat_users(live_a)[1])
    flies = seat_users(live_b)[0]
    token = live_b.game.legal_steps()[0].token
    await club.member(flies).slash(thread_b, "crosshairs move", tokens=token)

    await tick(simcord_env, clock, 6 * 60)  # the other never flies: a no-show
    (forfeit,) = [t for t in club.said() if t.endswith("— absent")]
    assert "Horloge ronde 1, table" in forfeit and "(forfait)" in forfeit
    await tick(simcord_env, clock, 19 * 60)  # 25 minutes in: the reminder
    assert any(t.startswith("⏰ **Horloge** — la ronde 2 s'ouvre <t:") for t in club.said())
    await tick(simcord_env, clock, 5 * 60)
    assert any(t.startswith("📣 **Horloge — ronde 2**") for t in club.said())
    # the organiser's controls: the round paired again, a player dropped, the event ended
    await club.organiser.slash(club.channel, "crosshairs-tournament repair")
    assert "🔀 **Horloge** : la ronde est appariée à nouveau." in club.said()
    await club.organiser.slash(club.channel, "crosshairs-tournament drop", player=club.pilots[3])
    dropped = f"{club.pilots[3].mention} est retiré de **Horloge**"
    assert any(t.startswith(dropped) for t in club.said())
    await club.organiser.slash(club.channel, "crosshairs-tournament end")
    assert "🛑 **Horloge** est terminé." in club.said()
    assert club.said()[-1].startswith("🏆 **Horloge** est terminé. Vainqueur : <@")

    shown = public(club.channel) + [
        text for thread in club.channel.threads for text in [thread.name, *public(thread)]
    ]
    assert {text: found for text in shown if (found := english_in(text, "fr"))} == {}

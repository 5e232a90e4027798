"""A knockout and a team invitation in a German, a French and a Spanish server: everything
the bot posts for the channel — the sign-up and its buttons, the rounds, the pairings'
threads, the results, the bracket and standings (their alt text), the winner, a team
invitation and its acceptance, and the games' turns told in words, though the movers
speak English — is in the server's language, with no English word (i18n; what counts as
one: :mod:`e2e.english`). The asker's own answers are in their Discord language, which
simcord always gives as English; tests/e2e/test_e2e_tournament_german.py has German
players too."""

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
    club = Club(simcord_env, 4)
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = LOCALES[lang]
    kind, first_round, won = SAID[lang]
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs tournament create",
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
            "crosshairs tournament create",
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
            club.channel, "crosshairs tournament team", partner=partner, tournament_id=number
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
    club = Club(simcord_env, 2)
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = LOCALES["es"]
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs tournament create",
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

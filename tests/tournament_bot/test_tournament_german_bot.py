"""A knockout and a team invitation in a German server: everything the bot posts for the
channel — the sign-up and its buttons, the rounds, the pairings' threads, the results,
the bracket and standings (their alt text), the winner, a team invitation and its
acceptance, and the games' turns told in words, though the movers speak English — is in
the server's language, with no English word (i18n; what counts as one:
:mod:`e2e.english`). The asker's own answers are in their Discord language, which
simcord always gives as English; tests/e2e/test_e2e_tournament_german.py has German
players too."""

from __future__ import annotations

from typing import Any

import discord
from e2e.english import english_in
from support.replies import answer

from bot.discord_app import CrosshairsBot
from tournament_bot.tournament_harness import Club, open_games, resign, seat_users


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


async def test_a_knockout_and_a_team_invitation_in_a_german_server_post_no_english_word(
    simcord_env: Any, simcord_bot: CrosshairsBot
) -> None:
    club = Club(simcord_env, 4)
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    created = answer(
        await club.organiser.slash(
            club.channel,
            "crosshairs tournament create",
            name="Pokal",
            format="single",
            third_place=True,
        )
    )
    assert "K.-o.-System mit Spiel um Platz 3" in created.content
    for pilot in club.pilots:
        await pilot.click(created, label="Anmelden")
    await club.organiser.click(created, label="Starten")
    for round_no in (1, 2):
        assert any(t.startswith(f"📣 **Pokal — Runde {round_no}**") for t in club.said())
        for thread, live in await open_games(simcord_bot, club):
            await resign(club, thread, seat_users(live)[1])
    assert any(t.startswith("🏆 **Pokal** ist beendet. Turniersieg: <@") for t in club.said())
    *_, bracket = [m for m in club.channel.history() if m.content == "**Pokal**: der Turnierbaum"]
    words = bracket.attachments[0].description or ""
    assert "Gewinnerrunde: Runde 1, " in words and "Spiel um Platz 3: Runde 1, " in words
    assert "hat gewonnen" in words

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
    number = int(team_event.content.split("(Turnier #", 1)[1].split(")", 1)[0])
    captain, partner = club.pilots[:2]
    invitation = answer(
        await captain.slash(
            club.channel, "crosshairs tournament team", partner=partner, tournament_id=number
        )
    )
    assert "in ein Team für **Doppel** ein" in invitation.content
    await partner.click(invitation, label="Annehmen")
    assert any("vollständig und für **Doppel** angemeldet" in t for t in club.said())

    shown = public(club.channel) + [
        text for thread in club.channel.threads for text in [thread.name, *public(thread)]
    ]
    assert len(shown) > 20
    assert {text: found for text in shown if (found := english_in(text))} == {}

"""Ratings after games played through Discord, checked against openskill called directly.

Each game is ended by the players themselves (``/crosshairs resign`` and
``/crosshairs draw``) once every side has flown a turn (before that a resignation or a
draw aborts the game, unrated); the expected ratings come from openskill's Plackett-Luce model,
not from the bot's rating module, except where docs/ratings.md says the bot departs
from openskill on purpose (ties of three or more sides), and there the workaround is
rebuilt here from openskill calls too.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import discord
import pytest
from e2e.english import english_in
from openskill.models import PlackettLuce
from support.flying import fly_first_turns, resign
from support.replies import answer
from support.uploads import Upload

from bot.discord_app import CrosshairsBot
from bot.services import jobs
from bot.services.clock import FakeClock
from i18n import in_language
from rules.achievements import CARDS
from storage.ratings import RatingRepo

from .support import Club, current_match

MODEL = PlackettLuce()


async def lobby(club: Club, mode: str, people: list[Any]) -> Any:
    """The first person opens a lobby, the others sit in order, the host starts it."""
    opened = await people[0].slash(club.channel, "crosshairs lobby", mode=mode)
    message = opened.response.message
    labels = ["P2", "P3", "P4"] if mode.startswith("ffa") else ["B", "C", "D"]
    for person, label in zip(people[1:], labels, strict=True):
        await person.click(message, label=f"Sit {label}")
    await people[0].click(message, label="Start")
    # the match's thread: the first made (a team game opens each team a room after it)
    return min(club.channel.threads, key=lambda t: t.id)


async def stored(bot: CrosshairsBot, user_id: int, family: str) -> tuple[float, float, int]:
    rating = await RatingRepo(bot.db).get(user_id, family)
    assert rating is not None
    return rating.mu, rating.sigma, rating.games


async def test_duel_rating_is_openskills_and_the_profile_shows_it(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    (thread,) = club.channel.threads
    await fly_first_turns(club.member, thread, await current_match(simcord_bot, thread))
    await resign(bob, thread)

    [[a], [b]] = MODEL.rate([[MODEL.rating()], [MODEL.rating()]], ranks=[0.0, 1.0])
    assert await stored(simcord_bot, alice.id, "duel") == pytest.approx((a.mu, a.sigma, 1))
    assert await stored(simcord_bot, bob.id, "duel") == pytest.approx((b.mu, b.sigma, 1))
    history = await RatingRepo(simcord_bot.db).history(alice.id, "duel")
    assert [(h.match_id, h.mu_before, h.mu_after) for h in history] == [(1, None, a.mu)]

    shown = answer(await bob.slash(club.channel, "crosshairs profile", player=alice))
    (embed,) = shown.embeds
    fields = {f.name: f.value for f in embed.fields}
    display = 1500 + round(25 * (a.mu - 25))  # the skill estimate, not μ − 3σ
    other = 1500 + round(25 * (b.mu - 25))
    assert display > 1500 > other
    assert fields["Duels"] == f"{display}? (μ {a.mu:.2f}, σ {a.sigma:.2f}, 1 game)"
    assert fields["Games"] == "1 played · 1 won · 0 drawn · 0 lost"
    assert fields["Cards earned"] == "None yet"
    assert fields["Where games count"] == (
        "Ratings and results count rated games on every server: 1 game, 1 of them on this server."
    )

    board = answer(await bob.slash(club.channel, "crosshairs leaderboard"))
    lines = board.embeds[0].description.splitlines()
    assert lines == [
        f"1. **alice** — {display}? (1 game)",
        f"2. **bob** — {other}? (1 game)",
    ]
    assert "μ" not in board.embeds[0].description  # μ and σ only in the profile
    footer = board.embeds[0].footer.text
    assert "rated game on this server" in footer and "starts at 1500" in footer
    assert "average" not in footer  # a newcomer is not told they are below average
    posted = [m.content for m in thread.history() if m.content.startswith("📊")]
    assert posted == [
        f"📊 Ratings (Duels): alice {display}?; bob {other}? ('?': provisional, still settling)"
    ]


async def test_four_player_free_for_all_with_a_tie(club: Club, simcord_bot: CrosshairsBot) -> None:
    alice, bob, carol, dave = club.people
    thread = await lobby(club, "ffa4", club.people)
    live = await current_match(simcord_bot, thread)
    assert [e.user_id for e in live.seats] == [p.id for p in club.people]
    await fly_first_turns(club.member, thread, live)
    await resign(dave, thread)  # out first: fourth
    await resign(carol, thread)  # out second: third
    await alice.slash(thread, "crosshairs draw")
    await bob.slash(thread, "crosshairs draw")  # alice and bob share first place
    assert live.game.result is not None and live.game.result.winners == ()

    # openskill's own answer to equal ranks, which the bot deliberately does not use:
    naive = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[0.0, 0.0, 1.0, 2.0])
    assert naive[2][0].mu == pytest.approx(naive[0][0].mu)  # third as high as the winners

    # The bot's workaround, rebuilt from openskill: the mean over both orders of the tie.
    orders = [
        MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[float(r) for r in ranks])
        for ranks in ([0, 1, 2, 3], [1, 0, 2, 3])
    ]
    for seat, person in enumerate(club.people):
        mu = sum(o[seat][0].mu for o in orders) / 2
        sigma = sum(o[seat][0].sigma for o in orders) / 2
        assert await stored(simcord_bot, person.id, "ffa") == pytest.approx((mu, sigma, 1))
    a = await stored(simcord_bot, alice.id, "ffa")
    b = await stored(simcord_bot, bob.id, "ffa")
    c = await stored(simcord_bot, carol.id, "ffa")
    d = await stored(simcord_bot, dave.id, "ffa")
    assert a == b and a[0] > c[0] > d[0]  # tied equal, and nobody below them above them
    assert any(m.content.startswith("📊 Ratings (Free-for-all)") for m in thread.history())


async def test_two_against_two(club: Club, simcord_bot: CrosshairsBot) -> None:
    carol, dave = club.carol, club.dave
    thread = await lobby(club, "2v2", club.people)
    live = await current_match(simcord_bot, thread)
    await fly_first_turns(club.member, thread, live)
    await resign(carol, thread)
    await resign(dave, thread)  # team C and D is out: A and B win
    assert live.game.result is not None and set(live.game.result.winners) == {0, 1}

    teams = MODEL.rate(
        [[MODEL.rating(), MODEL.rating()], [MODEL.rating(), MODEL.rating()]], ranks=[0.0, 1.0]
    )
    for (t, i), person in zip(itertools.product((0, 1), (0, 1)), club.people, strict=True):
        expected = teams[t][i]
        assert await stored(simcord_bot, person.id, "team") == pytest.approx(
            (expected.mu, expected.sigma, 1)
        )
    for person in club.people:  # a team game moves no other family
        assert await RatingRepo(simcord_bot.db).get(person.id, "ffa") is None


async def test_an_early_resignation_is_aborted_and_an_agreed_draw_moves_no_one_up(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    confirm = answer(await alice.slash(thread, "crosshairs resign"))
    assert "aborted and not rated" in confirm.content  # the question says what will happen
    assert "aborted" in answer(await alice.click(confirm, label="Yes, resign")).content
    assert live.aborted and live.game.result is None
    assert any("aborted, not rated" in m.content for m in thread.history())
    assert await RatingRepo(simcord_bot.db).get(alice.id, "duel") is None
    assert await RatingRepo(simcord_bot.db).get(bob.id, "duel") is None

    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    thread = next(t for t in club.channel.threads if t.id != thread.id)
    await fly_first_turns(club.member, thread, await current_match(simcord_bot, thread))
    await alice.slash(thread, "crosshairs draw")
    await bob.slash(thread, "crosshairs draw")
    for person in (alice, bob):  # equals drew: the skill estimate stays where it was
        mu, sigma, games = await stored(simcord_bot, person.id, "duel")
        assert games == 1 and sigma < MODEL.sigma and round(25 * (mu - 25)) == 0
    board = answer(await bob.slash(club.channel, "crosshairs leaderboard"))
    assert board.embeds[0].description.splitlines() == [
        "1. **alice** — 1500? (1 game)",
        "2. **bob** — 1500? (1 game)",
    ]


async def test_a_servers_leaderboard_lists_only_its_players(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    (thread,) = club.channel.threads
    await fly_first_turns(club.member, thread, await current_match(simcord_bot, thread))
    await resign(bob, thread)

    elsewhere = club.env.create_guild()
    lobby_channel = elsewhere.create_text_channel("hangar")
    zed = elsewhere.add_member(club.env.create_user("zed"))
    alice_there = elsewhere.add_member(alice.user)
    board = answer(await zed.slash(lobby_channel, "crosshairs leaderboard"))
    assert board.embeds[0].description == "Nobody has played a rated game on this server yet."
    shown = answer(await zed.slash(lobby_channel, "crosshairs profile", player=alice_there))
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    assert fields["Games"].startswith("1 played")  # ratings and results are global
    assert "1 game, 0 of them on this server" in fields["Where games count"]


async def test_a_clock_run_out_before_the_player_flew_keeps_the_result_unrated(
    club: Club, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    alice, bob = club.alice, club.bob
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob, clock=120)
    await bob.click(invite.response.message, label="Accept")
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    await alice.slash(thread, "crosshairs move", tokens=live.game.legal_steps()[0].token)
    clock.advance(121)  # bob never flies
    await club.env.advance_time(simcord_bot.config.clock_interval + 1)
    assert live.game.result is not None and live.game.result.winners == (0,)  # it counts
    told = [m.content for m in thread.history()]
    assert "📊 Unrated game: the game ended before every side had flown a turn." in told
    assert await RatingRepo(simcord_bot.db).get(alice.id, "duel") is None


async def test_the_leaderboard_profile_and_cards_speak_the_servers_language(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    board = answer(await club.bob.slash(club.channel, "crosshairs leaderboard")).embeds[0]
    assert board.title.startswith("🏆 Rangliste · ")
    assert board.description == "Auf diesem Server hat noch niemand eine gewertete Partie gespielt."
    shown = answer(await club.bob.slash(club.channel, "crosshairs profile", player=club.alice))
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    assert fields["Wertungszahl"] == "Noch keine gewertete Partie"
    assert fields["Partien"] == "0 gespielt · 0 gewonnen · 0 unentschieden · 0 verloren"
    assert fields["Gewonnene Karten"] == "Noch keine"
    cards = answer(await club.bob.slash(club.channel, "crosshairs cards")).content
    assert cards.endswith("Die meisten Punkte gewinnen.")


async def test_the_profile_names_the_manoeuvres_flown_in_the_servers_language(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob, clouds="none")
    await bob.click(invite.response.message, label="Accept")
    (thread,) = club.channel.threads
    live = await current_match(simcord_bot, thread)
    flown = 0
    while flown < 3:  # the first legal step each time, until three manoeuvres were flown
        assert not live.game.is_over
        step = live.game.legal_steps()[0]
        flown += step.is_manoeuvre
        await club.member(live.user_to_move()).slash(thread, "crosshairs move", tokens=step.token)
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    shown = answer(await bob.slash(club.channel, "crosshairs profile", player=alice))
    favourite = {f.name: f.value for f in shown.embeds[0].fields}["Lieblingsmanöver"]
    said = favourite.split(", ")
    assert said and all(re.fullmatch(GERMAN_MANOEUVRES, s) for s in said), favourite
    assert english_in(favourite) == set()


# how many times, then the manoeuvre, as the German catalogue names them
GERMAN_MANOEUVRES = (
    r"\d+(× Steigen| Geradeausflug| Geradeausflüge| Abschwung| Abschwünge"
    r"| Steilsturz| Steilstürze|× Immelmann)( um ein Feld)?"
)


async def test_the_card_sheet_picture_is_drawn_in_the_servers_language(
    club: Club, simcord_bot: CrosshairsBot, uploads: list[Upload]
) -> None:
    """The worker that draws ``/crosshairs cards`` is told the server's language: the
    picture posted is the German drawing, not the English one."""
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german
    await club.bob.slash(club.channel, "crosshairs cards")
    (sheet,) = [u for u in uploads if u.filename == "cards.png"]
    cards = tuple(CARDS.values())
    title = in_language("de", "Crosshairs achievement cards")
    assert title != "Crosshairs achievement cards"
    assert sheet.data == jobs.draw_cards(cards, title, "de")
    assert sheet.data != jobs.draw_cards(cards, title, "en")
    assert sheet.description is not None and "Erstes Blut" in sheet.description

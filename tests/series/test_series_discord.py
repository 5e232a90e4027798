"""Achievement series played through Discord: slash commands and the series thread.

Games are finished quickly: a player resigns, or the players fly the easy computer's
choices by ``/crosshairs move`` until a card is claimed and the claimer resigns, which
makes the loser's claims go back to the pool (rules spec §8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
import pytest
from e2e.english import english_in
from support.drawing import texts_drawn
from support.flying import fly_first_turns, resign
from support.replies import answer
from support.uploads import Upload

from bot.discord_app import CrosshairsBot
from bot.services.clock import FakeClock
from bot.services.live import LiveMatch
from competition.ratings import Rating as PureRating
from competition.ratings import suggest_handicap
from rules.achievements import CARDS, claims
from storage.ratings import RatingRepo
from storage.series import SeriesRepo, SeriesStatus

from .support import Club, current_match, fly


def files(thread: Any) -> list[str]:
    return [a.filename for m in thread.history() for a in m.attachments]


def texts(thread: Any) -> list[str]:
    return [m.content for m in thread.history()]


class Ledger:
    """What the rules say the series should hold, worked out from each game's claims."""

    def __init__(self) -> None:
        self.kept: dict[str, int] = {}  # card → user id
        self.returned: list[str] = []
        self.wins: dict[int, int] = {}

    def book(self, live: LiveMatch) -> list[str]:
        """Apply one finished game; returns the cards claimed in it."""
        result = live.game.result
        assert result is not None
        winners = {live.seats[s].user_id for s in result.winners}
        for user in winners:
            assert user is not None
            self.wins[user] = self.wins.get(user, 0) + 1
        made = claims(live.game)
        for claim in made:
            user = live.seats[claim.seat].user_id
            assert user is not None
            if user in winners:
                self.kept[claim.card] = user
            else:
                self.returned.append(claim.card)
        return [c.card for c in made]

    def points(self, user: int) -> int:
        return sum(CARDS[c].points for c, who in self.kept.items() if who == user)


async def fly_until_claim(club: Club, bot: CrosshairsBot, thread: Any, live: LiveMatch) -> None:
    for _ in range(300):
        if claims(live.game) or live.game.is_over:
            return
        await fly(club, bot, thread, live, 1)
    raise AssertionError("no card was claimed in 300 steps")


async def resign_claimer(club: Club, thread: Any, live: LiveMatch) -> None:
    """The player who made the game's first claim resigns (if the game is still on)."""
    if not live.game.is_over:
        claimer = live.seats[claims(live.game)[0].seat].user_id
        await resign(club.member(claimer), thread)
    assert live.game.is_over


async def test_best_of_three_duel_series_keeps_and_returns_cards_by_the_rules(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    started = await club.start_series(alice, bob, games=3, planes=3)
    assert "Series #1" in answer(started).content
    (thread,) = club.channel.threads
    ledger = Ledger()

    # Bob resigns before he has flown: the game is aborted and played again, no card.
    g0 = await current_match(simcord_bot, thread)
    await resign(bob, thread)
    assert g0.aborted and not claims(g0.game)
    assert any("was aborted: it is played again" in t for t in texts(thread))

    # Game 1: bob resigns after the first turns, so alice wins without losing a plane:
    # Untouchable.
    g1 = await current_match(simcord_bot, thread)
    assert g1.id != g0.id
    assert [e.user_id for e in g1.seats] == [alice.id, bob.id]
    assert set(g1.game.settings.cards) == set(CARDS)  # the whole pool is in play
    await fly_first_turns(club.member, thread, g1)
    await resign(bob, thread)
    assert ledger.book(g1) == ["untouchable"]
    assert ledger.kept == {"untouchable": alice.id}
    assert "untouchable.png" in files(thread)  # the claim was announced with its card
    (claimed,) = [t for t in texts(thread) if t.startswith("🃏") and "Untouchable" in t]
    assert claimed.endswith("kept: they won this game.")  # not "kept if they win"
    assert any(t.startswith("📋 Series #1 after game 1") for t in texts(thread))

    # Game 2: bob flies first now; fly until someone claims, then the claimer resigns.
    g2 = await current_match(simcord_bot, thread)
    assert g2.id != g1.id
    assert [e.user_id for e in g2.seats] == [bob.id, alice.id]
    assert "untouchable" not in g2.game.settings.cards  # kept cards leave the pool
    await fly_until_claim(club, simcord_bot, thread, g2)
    await resign_claimer(club, thread, g2)
    made = ledger.book(g2)
    assert all(f"{card}.png" in files(thread) for card in made)
    returned_in_2 = [c for c in made if c in ledger.returned]
    assert returned_in_2, "the claimer resigned, so their claims go back"

    # Game 3: alice first again; the cards returned in game 2 can be won again.
    g3 = await current_match(simcord_bot, thread)
    assert [e.user_id for e in g3.seats] == [alice.id, bob.id]
    assert set(returned_in_2) <= set(g3.game.settings.cards)
    assert set(g3.game.settings.cards) == set(CARDS) - set(ledger.kept)
    await fly_until_claim(club, simcord_bot, thread, g3)
    await resign_claimer(club, thread, g3)
    ledger.book(g3)

    # The series is over: storage, the status command and the thread all agree.
    stored = await SeriesRepo(simcord_bot.db).get(1)
    assert stored.status is SeriesStatus.FINISHED
    assert stored.games_played == 3
    side = {alice.id: 0, bob.id: 1}
    assert {k.card: k.side for k in stored.kept} == {c: side[u] for c, u in ledger.kept.items()}
    assert set(stored.current_pool) == set(CARDS) - set(ledger.kept)
    assert len(ledger.kept) >= 2 and ledger.returned  # both halves of the rule happened
    assert (await current_match(simcord_bot, thread)).id == g3.id  # no fourth game

    status = await alice.slash(thread, "crosshairs-series status")
    shown = answer(status).content
    for person in (alice, bob):
        points, wins = ledger.points(person.id), ledger.wins.get(person.id, 0)
        noun = "point" if points == 1 else "points"
        assert f"**{person.name}**: {wins} won, {points} {noun}" in shown
    assert answer(status).attachments[0].filename == "series-1.png"

    ranked = sorted(
        (alice, bob),
        key=lambda p: (-ledger.points(p.id), -ledger.wins.get(p.id, 0)),
    )
    best = ranked[0]
    tied = (ledger.points(alice.id), ledger.wins.get(alice.id, 0)) == (
        ledger.points(bob.id),
        ledger.wins.get(bob.id, 0),
    )
    expected = "shared" if tied else f"🏆 **{best.name}** wins the series!"
    assert any(expected in t for t in texts(thread))
    shown = answer(await bob.slash(club.channel, "crosshairs profile", player=alice))
    fields = {f.name: f.value for f in shown.embeds[0].fields}
    earned = [CARDS[c].name for c in CARDS if ledger.kept.get(c) == alice.id]
    assert fields["Cards earned"].startswith(", ".join(earned))
    assert fields["Favourite manoeuvres"] != "None flown yet"  # from her stored steps

    boards = [
        m for m in thread.history() if m.content.startswith("📋 Series #1 after game")
    ]  # a scoreboard image after every game
    assert [m.attachments[0].filename for m in boards] == ["series-1.png"] * 3


async def test_series_with_handicaps_stores_shows_and_leaves_ratings_alone(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, handicaps="0,2")
    (thread,) = club.channel.threads
    g1 = await current_match(simcord_bot, thread)
    assert g1.game.settings.handicaps == (0, 2)
    assert [s.handicap for s in g1.record.seats] == [0, 2]  # stored with the match
    assert g1.game.seat(1).handicap == 2  # the board panel draws these tokens
    assert any("Handicap tokens: bob 2 (unrated)" in t for t in texts(thread))
    stored = await SeriesRepo(simcord_bot.db).get(1)
    assert [p.handicap for p in stored.players] == [0, 2]

    # Seats rotate for game 2; the handicap follows bob, not the seat.
    await fly_first_turns(club.member, thread, g1)
    await resign(alice, thread)
    g2 = await current_match(simcord_bot, thread)
    assert [e.user_id for e in g2.seats] == [bob.id, alice.id]
    assert g2.game.settings.handicaps == (2, 0)

    # The organiser changes bob's handicap; only the organiser may.
    refused = await bob.slash(thread, "crosshairs-series handicap", player=bob, tokens=0)
    assert "only the series' organiser" in answer(refused).content
    refusals = [str(getattr(e, "original", e)) for e in club.env.errors]  # seen, so not fatal
    assert refusals == ["only the series' organiser can set handicaps"]
    await alice.slash(thread, "crosshairs-series handicap", player=bob, tokens=1)
    assert [p.handicap for p in (await SeriesRepo(simcord_bot.db).get(1)).players] == [0, 1]
    await fly_first_turns(club.member, thread, g2)
    await resign(bob, thread)

    assert any("Unrated game: handicap tokens were in play" in t for t in texts(thread))
    for person in (alice, bob):
        assert await RatingRepo(simcord_bot.db).get(person.id, "duel") is None


async def test_rated_handicap_opt_in_and_suggested_handicap(
    club: Club, simcord_bot: CrosshairsBot
) -> None:
    alice, bob = club.alice, club.bob
    # A rated duel first, so that alice and bob have different ratings.
    invite = await alice.slash(club.channel, "crosshairs challenge", opponent=bob)
    await bob.click(invite.response.message, label="Accept")
    (duel,) = club.channel.threads
    await fly_first_turns(club.member, duel, await current_match(simcord_bot, duel))
    await resign(bob, duel)
    repo = RatingRepo(simcord_bot.db)
    a, b = await repo.get(alice.id, "duel"), await repo.get(bob.id, "duel")
    assert a is not None and b is not None
    tokens = suggest_handicap(PureRating(a.mu, a.sigma), PureRating(b.mu, b.sigma))
    assert tokens == 1  # one win between newcomers is a gap of just over one beta

    await club.start_series(alice, bob, games=1, handicaps="suggest", rate_handicapped=True)
    thread = next(t for t in club.channel.threads if t.id != duel.id)
    g1 = await current_match(simcord_bot, thread)
    assert g1.game.settings.handicaps == (0, tokens)
    assert any(f"Handicap tokens: bob {tokens} (rated)" in t for t in texts(thread))
    await fly_first_turns(club.member, thread, g1)
    await resign(bob, thread)
    after = await repo.get(alice.id, "duel")
    assert after is not None and after.games == 2  # the organiser opted in: rated


async def test_a_series_survives_a_restart_in_the_middle(
    club: Club,
    simcord_env: Any,
    simcord_bot: CrosshairsBot,
    new_bot: Callable[[], CrosshairsBot],
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, planes=3)
    (thread,) = club.channel.threads
    await fly_first_turns(club.member, thread, await current_match(simcord_bot, thread))
    await resign(bob, thread)  # game 1: alice, with Untouchable
    g2 = await current_match(simcord_bot, thread)
    await fly(club, simcord_bot, thread, g2, 4)
    ply = g2.ply

    fresh = new_bot()  # a restart; the fixture closes its database
    await simcord_env.restart_bot(fresh)
    resumed = await current_match(fresh, thread)
    assert resumed.id == g2.id and resumed.ply == ply and resumed is not g2
    status = await bob.slash(thread, "crosshairs-series status")
    assert "game 2 of 2" in answer(status).content
    assert "**alice**: 1 won, 3 points (Untouchable)" in answer(status).content

    await fly(club, fresh, thread, resumed, 2)
    await fly_first_turns(club.member, thread, resumed)
    await resign(alice, thread)  # game 2: bob
    stored = await SeriesRepo(fresh.db).get(1)
    assert stored.status is SeriesStatus.FINISHED
    assert [g.winners for g in stored.games] == [(0,), (1,)]
    assert {k.card: k.side for k in stored.kept} == {
        "untouchable": 0,
        **{c.card: 1 for c in claims(resumed.game) if resumed.seats[c.seat].user_id == bob.id},
    }
    assert any("🏆" in t and "series" in t for t in texts(thread))
    assert (await current_match(fresh, thread)).id == resumed.id  # nothing started twice


async def test_cards_command_shows_all_eight(club: Club, simcord_bot: CrosshairsBot) -> None:
    result = await club.alice.slash(club.channel, "crosshairs cards")
    shown = answer(result)
    for card in CARDS.values():
        assert f"**{card.name}** ({card.points}) — {card.rule}" in shown.content
    assert shown.attachments[0].filename == "cards.png"


async def test_a_card_claimed_as_a_clock_ends_a_game_before_everyone_flew_is_not_kept(
    club: Club, simcord_bot: CrosshairsBot, clock: FakeClock
) -> None:
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, clock=120)
    (thread,) = club.channel.threads
    g1 = await current_match(simcord_bot, thread)
    await alice.slash(thread, "crosshairs move", tokens=g1.game.legal_steps()[0].token)
    clock.advance(121)  # bob never flies: alice wins on the clock, not a plane lost
    await club.env.advance_time(simcord_bot.config.clock_interval + 1)
    assert g1.game.result is not None and [c.card for c in claims(g1.game)] == ["untouchable"]
    (claim,) = [t for t in texts(thread) if t.startswith("🃏")]
    assert claim.endswith("not kept: the game ended before every side had flown a turn.")
    stored = await SeriesRepo(simcord_bot.db).get(1)
    assert stored.kept == () and [g.winners for g in stored.games][:1] == [(0,)]
    assert "untouchable" in stored.current_pool  # back in the pool for game 2


async def test_a_series_speaks_the_language_of_its_server(
    club: Club, simcord_bot: CrosshairsBot, uploads: list[Upload], monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a German server, what everyone reads of a series (its status and the words of
    its scoreboard picture, a handicap change, its end) is German, whoever asked."""
    alice, bob = club.alice, club.bob
    await club.start_series(alice, bob, games=2, handicaps="0,2")
    (thread,) = club.channel.threads
    guild = simcord_bot.get_guild(club.guild.id)
    assert guild is not None
    guild.preferred_locale = discord.Locale.german  # after the (English) invitation
    drawn = texts_drawn(monkeypatch)
    shown = answer(await alice.slash(thread, "crosshairs-series status")).content
    assert shown.startswith("**Serie #1** · ") and "Partie 1 von 2 · aktiv" in shown
    assert "Vorgabemarken: bob 2 (ungewertet)" in shown
    assert "Noch zu gewinnende Karten: " in shown
    (board,) = [u for u in uploads if u.filename == "series-1.png"]
    assert board.description is not None and board.description.startswith("Punktestand, Serie")
    assert {"Serie #1 · alice gegen bob", "Siege", "Punkte", "keine Karten behalten"} <= set(drawn)
    assert any(t.startswith("Noch im Stapel: ") for t in drawn)
    assert english_in(" ".join(drawn)) == set()
    changed = await alice.slash(thread, "crosshairs-series handicap", player=bob, tokens=1)
    assert answer(changed).content == (
        "bob bekommt ab der nächsten Partie der Serie #1 1 Vorgabemarke."
    )
    stopped = await alice.slash(thread, "crosshairs-series stop")
    assert answer(stopped).content == (
        "Serie #1 ist abgebrochen; es beginnen keine weiteren Partien."
    )

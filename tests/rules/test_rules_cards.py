"""Rules spec §8: the eight achievement cards, each claimed and each missed narrowly,
and the series rule over finished games."""

from __future__ import annotations

from rules_support import of_type, play, pos

from rules import events
from rules.achievements import ALL_CARDS, CARDS, SeriesGame, claims, series_standings
from rules.game import Game


def cards(text: str, fire: str = "manual") -> Game:
    return pos(text, fire=fire, cards=ALL_CARDS)


def claimed(game: Game) -> dict[str, int]:
    return {c.card: c.seat for c in claims(game)}


def test_the_eight_cards_as_data() -> None:
    assert [(c.name, c.points) for c in CARDS.values()] == [
        ("First Blood", 1),
        ("Double Kill", 2),
        ("Out of the Blue", 2),
        ("Power Diver", 2),
        ("Top Cover", 1),
        ("Ace of Aces", 3),
        ("Untouchable", 3),
        ("Last Ditch", 2),
    ]
    assert all(c.rule.endswith(".") for c in CARDS.values())


CHAIN = "duel/2026 t9 - | - | >e3E0 f6SW0 g9SW0 a6E0 +0 | e5W0 e7W0 k10E0 k6W0 +0"


def test_first_blood_is_the_first_kill_of_the_game() -> None:
    game = cards(CHAIN)
    play(game, "*e5")
    assert claimed(game) == {"first-blood": 0}
    assert claims(game)[0].step == 0  # earned by the first step of the record


def test_first_blood_near_miss_one_line_of_fire_is_no_kill() -> None:
    game = cards("duel/2026 t9 - | - | >e3E0 a6NW0 +0 | e5W0 e7W0 k10E0 +0")
    play(game, "e3C", "a6C")
    assert claimed(game) == {}


def test_double_kill_two_planes_in_one_turn() -> None:
    game = cards(CHAIN)
    play(game, "*e5", "*e7")
    assert claimed(game) == {"first-blood": 0, "double-kill": 0}


def test_double_kill_near_miss_one_kill_per_turn() -> None:
    game = cards("duel/2026 t9 - | - | >e3E0 f6SW0 a6NW0 +0 | e5W0 e7W0 k10E0 k6W0 +0")
    play(game, "*e5")
    assert not any(t.startswith("*") for t in {s.token for s in game.legal_steps()})
    assert claimed(game) == {"first-blood": 0}


def test_out_of_the_blue_a_kill_by_a_plane_that_began_the_turn_in_a_cloud() -> None:
    # d3 starts in a cloud, climbs out to d4 facing E and, with f8, catches d6.
    game = cards("duel/2026 t9 - | d3 | >d3E0 f8SW0 a6E0 +0 | d6W0 k10E0 k6W0 +0")
    play(game, "d3C", "*d6")
    assert "out-of-the-blue" in claimed(game)


def test_out_of_the_blue_near_miss_the_plane_began_outside_the_cloud() -> None:
    game = cards("duel/2026 t9 - | d4 | >d3E0 f8SW0 a6E0 +0 | d6W0 k10E0 k6W0 +0")
    play(game, "d3F", "*d6")  # through the cloud, but it did not begin there
    assert "first-blood" in claimed(game)
    assert "out-of-the-blue" not in claimed(game)


def test_power_diver_a_kill_after_losing_4_height_diving_this_turn() -> None:
    game = cards("duel/2026 t9 - | - | >c2E6 e3E0 +0 | e8W0 k10E0 k8SW0 +0")
    play(game, "c2SSSS<*e8")
    assert "power-diver" in claimed(game)


def test_power_diver_near_miss_only_3_height_lost() -> None:
    game = cards("duel/2026 t9 - | - | >c3E5 e3E0 +0 | e8W0 k10E0 k8SW0 +0")
    play(game, "c3SSS<*e8")
    assert "first-blood" in claimed(game)
    assert "power-diver" not in claimed(game)


def test_top_cover_ending_a_turn_with_three_planes_at_5_or_6() -> None:
    game = cards("duel/2026 t9 - | - | >c3E4 d3E5 e3E6 +0 | k7SW0 k10E0 +0")
    play(game, "c3C", "d3C", "e3P", "-")
    assert claimed(game) == {}  # e3 fell to 4
    game = cards("duel/2026 t9 - | - | >c3E4 d3E5 e3E6 +0 | k7SW0 k10E0 +0")
    play(game, "c3C", "d3C", "e3F")
    assert claimed(game) == {"top-cover": 0}


def test_ace_of_aces_one_plane_in_three_kills() -> None:
    # e3 aims along row e; f6, g9 and f10 each cover the next plane in line.
    game = cards(
        "duel/2026 t9 - | - | >e3E0 f6SW0 g9SW0 f10SW0 a6E0 +0 | e5W0 e7W0 e9W0 k10E0 k6W0 +0"
    )
    play(game, "*e5", "*e7")
    assert "ace-of-aces" not in claimed(game)
    play(game, "*e9")
    assert claimed(game)["ace-of-aces"] == 0


def test_untouchable_winning_without_losing_a_plane() -> None:
    game = cards("duel/2026 t9 - | - | >d2E0 f8SW0 a6E0 +0 | d6W0 k10E0 +0")
    play(game, "*d6")
    assert game.result is not None and game.result.winners == (0,)
    assert "untouchable" in claimed(game)


def test_untouchable_near_miss_a_plane_was_lost() -> None:
    game = cards("duel/2026 t9 - | - | >a1SW1 d2E0 f8SW0 a6E0 +0 | d6W0 k10E0 +0")
    play(game, "a1X", "*d6")
    assert game.result is not None and game.result.winners == (0,)
    assert "untouchable" not in claimed(game)


def test_last_ditch_winning_with_exactly_two_planes_left() -> None:
    game = cards("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 +0")
    play(game, "*d6")
    assert "last-ditch" in claimed(game)
    game = cards("duel/2026 t9 - | - | >d2E0 f8SW0 a6E0 +0 | d6W0 k10E0 +0")
    play(game, "*d6")
    assert "last-ditch" not in claimed(game)


def test_a_card_is_claimed_once_and_only_from_the_pool() -> None:
    game = pos(CHAIN, fire="manual", cards=("double-kill",))
    happened = play(game, "*e5", "*e7")
    assert [e.card for e in of_type(happened, events.CardClaimed)] == ["double-kill"]


def test_claims_survive_the_game_json_and_undo() -> None:
    from rules import serialize

    game = cards(CHAIN)
    play(game, "*e5")
    assert claimed(serialize.loads(serialize.dumps(game))) == {"first-blood": 0}
    game.push(game.legal_steps()[0])
    game.pop()
    assert claimed(game) == {"first-blood": 0}


# ---------------------------------------------------------------- series rule


def test_series_winner_keeps_claims_loser_claims_return_to_the_pool() -> None:
    games = [
        SeriesGame(("ann", "bob"), (0,), (("first-blood", 1), ("untouchable", 0))),
        SeriesGame(("bob", "ann"), (0,), (("first-blood", 0), ("double-kill", 1))),
    ]
    standings = series_standings(games)
    assert standings.kept == {"untouchable": "ann", "first-blood": "bob"}
    assert "double-kill" in standings.pool and "first-blood" not in standings.pool
    assert standings.points == {"ann": 3, "bob": 1}
    assert standings.wins == {"ann": 1, "bob": 1}
    assert standings.leaders == ("ann",)


def test_series_ties_go_to_more_games_won_then_are_shared() -> None:
    games = [
        SeriesGame(("ann", "bob"), (0,), (("first-blood", 0),)),
        SeriesGame(("ann", "bob"), (0,), ()),
        SeriesGame(("ann", "bob"), (1,), (("top-cover", 1),)),
    ]
    assert series_standings(games).leaders == ("ann",)
    shared = series_standings(games[::2])
    assert shared.leaders == ("ann", "bob")


def test_series_with_no_games_lists_every_competitor_with_no_points() -> None:
    standings = series_standings([], competitors=["ann", "bob"])
    assert standings.points == {"ann": 0, "bob": 0}
    assert standings.pool == ALL_CARDS

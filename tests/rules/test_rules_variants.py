"""Rules spec §7: the variants, each a setting that combines with every mode."""

from __future__ import annotations

from dataclasses import replace

import pytest
from rules_support import at, legal, legal_for, of_type, play, pos

from rules import events, serialize, variants
from rules.errors import RulesError
from rules.game import Game
from rules.modes import MODES, Settings
from rules.players import RandomPlayer, new_game, play_out
from rules.position import format_position
from rules.variants import VARIANTS, Rules, Variant, combined_rules


def test_handicap_tokens_put_the_first_planes_on_at_height_1() -> None:
    game = Game(Settings(handicaps=(0, 2)))
    play(game, "+a3NE", "+k7SW", "+k8SW", "a3C", "+a1E", "+a5E")
    assert at(game, "k7") == (1, "SW", 1)
    assert at(game, "k8") == (1, "SW", 1)
    assert game.seat(1).handicap == 0
    play(game, "+k10SW")
    assert at(game, "k10") == (1, "SW", 0)
    assert at(game, "a1") == (0, "E", 0)


def test_handicap_is_per_seat_in_multi_player_games() -> None:
    game = Game(Settings(mode="ffa3", handicaps=(0, 0, 1)))
    play(game, "+a3NE", "+f1E", "+g2E", "+f11W")
    assert at(game, "f11") == (2, "W", 1)
    assert at(game, "g2") == (1, "E", 0)


TURB = "duel/2026 t9 turbulence | {clouds} | >d4E{h} a6E0 +0 | k7SW0 k10E0 +0"


def test_turbulence_entering_a_cloud_costs_one_height_at_once() -> None:
    game = pos(TURB.format(clouds="d6", h=3))
    play(game, "d4F")
    assert at(game, "d6") == (0, "E", 2)
    game = pos(TURB.format(clouds="d5", h=3))
    play(game, "d4F")  # through the cloud at d5 and out again to d6
    assert at(game, "d6") == (0, "E", 2)
    game = pos(TURB.format(clouds="d5", h=3))
    play(game, "d4C")  # +1 for the climb, -1 for the cloud
    assert at(game, "d5") == (0, "E", 3)


def test_turbulence_no_loss_moving_within_clouds_or_below_zero() -> None:
    game = pos(TURB.format(clouds="d4 d5", h=3))
    play(game, "d4C")
    assert at(game, "d5") == (0, "E", 4)
    game = pos(TURB.format(clouds="d6", h=0))
    happened = play(game, "d4F")
    assert at(game, "d6") == (0, "E", 0)
    assert not [e for e in of_type(happened, events.HeightChanged) if e.cause == "turbulence"]


def test_turbulence_placing_into_a_cloud_is_not_entering_it() -> None:
    game = Game(Settings(variants=frozenset({"turbulence"}), handicaps=(1, 0)), clouds=[2])
    play(game, "+a3NE")
    assert at(game, "a3") == (0, "NE", 1)


def test_without_turbulence_clouds_cost_nothing() -> None:
    game = pos("duel/2026 t9 - | d6 | >d4E3 a6E0 +0 | k7SW0 k10E0 +0")
    play(game, "d4F")
    assert at(game, "d6") == (0, "E", 3)


CONCEALED = "duel/2026 t9 {v} | {clouds} | >d2E0 f8SW0 a6E0 +0 | d6W0 k10E0 k6W0 +0"


def test_concealed_fire_a_plane_in_a_cloud_can_shoot_out() -> None:
    assert "*d6" not in legal(pos(CONCEALED.format(v="-", clouds="d2")))
    assert "*d6" in legal(pos(CONCEALED.format(v="concealed-fire", clouds="d2")))


def test_concealed_fire_lines_still_stop_at_clouds() -> None:
    assert "*d6" not in legal(pos(CONCEALED.format(v="concealed-fire", clouds="d6")))
    assert "*d6" not in legal(pos(CONCEALED.format(v="concealed-fire", clouds="d4")))


def test_aces_every_plane_whose_line_caught_the_victim_becomes_an_ace() -> None:
    game = pos("duel/2026 t9 aces | - | >d2E3 f8SW0 a6E0 +0 | d6W0 k10E0 k6W0 +0")
    happened = play(game, "*d6")
    made = {e.cell for e in of_type(happened, events.BecameAce)}
    assert len(made) == 2
    d2 = game.plane_at(made.pop())
    assert d2 is not None and d2.ace


def test_aces_may_make_the_immelmann_losing_3_height_to_turn_180() -> None:
    game = pos("duel/2026 t9 aces | - | >d4E3! a6E0 +0 | k7SW0 k10E0 +0")
    assert "d4I" in legal(game)
    play(game, "d4I")
    assert at(game, "d4") == (0, "W", 0)


def test_only_aces_with_3_height_may_make_the_immelmann() -> None:
    assert "d4I" not in legal(pos("duel/2026 t9 aces | - | >d4E3 a6E0 +0 | k7SW0 k10E0 +0"))
    assert "d4I" not in legal(pos("duel/2026 t9 aces | - | >d4E2! a6E0 +0 | k7SW0 k10E0 +0"))


def test_the_immelmann_is_a_dive_manoeuvre() -> None:
    game = pos("duel/2026 t9 aces | - | >d4E6! a6E0 +0 | k7SW0 k10E0 +0")
    play(game, "d4S", "d5I")
    assert at(game, "d5") == (0, "W", 2)
    assert legal_for(game, "d5") >= {"d5P", "d5S"}


def test_no_level_flight() -> None:
    game = pos("duel/2026 t9 no-level | - | >d4E3 a6E0 +0 | k7SW0 k10E0 +0")
    assert not any("F" in t for t in legal(game))


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("ruleset", ["2026", "classic"])
def test_every_variant_combines_with_every_mode_and_ruleset(mode: str, ruleset: str) -> None:
    settings = Settings(
        mode=mode,
        ruleset=ruleset,
        variants=frozenset(v.name for v in VARIANTS),
        turn_limit=300,
        handicaps=(1,) * MODES[mode].seats,
    )
    game = play_out(new_game(settings, 7), [RandomPlayer(7)] * MODES[mode].seats)
    assert game.is_over


class _Gusts(Variant):
    """A variant made for this test: one class, listed in the registry, is all it takes."""

    name = "gusts"
    title = "Gusts"
    teaching = "clouds shake planes as turbulence does."

    def apply(self, rules: Rules) -> Rules:
        return replace(rules, turbulence=True)


def test_a_variant_is_one_class_in_the_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(RulesError, match="unknown variant 'gusts'"):
        Settings(variants=frozenset({"gusts"}))
    monkeypatch.setattr(variants, "VARIANTS", (*VARIANTS, _Gusts()))
    assert variants.find_variant("gusts").title == "Gusts"
    game = pos("duel/2026 t9 gusts | d6 | >d4E3 a6E0 +0 | k7SW0 k10E0 +0")
    assert game.settings.rules.turbulence
    play(game, "d4F")
    assert at(game, "d6") == (0, "E", 2)  # the gusts cost a height, as turbulence does
    assert format_position(pos(game.start_position or "")).split()[2] == "gusts"
    again = serialize.loads(serialize.dumps(game))
    assert again.settings.variants == {"gusts"}
    assert again.state_key() == game.state_key()


def test_variants_rulesets_and_fire_modes_are_found_by_name() -> None:
    assert [v.name for v in VARIANTS] == ["turbulence", "concealed-fire", "aces", "no-level"]
    assert combined_rules("classic", "manual", {"no-level", "aces"}) == Rules(
        rings=True, level_flights=0, auto_fire=False, aces=True
    )
    assert combined_rules("2026", "auto", ()).level_flights == 1
    for bad, found in (("x", variants.find_variant), ("x", variants.find_ruleset)):
        with pytest.raises(RulesError, match="unknown"):
            found(bad)
    with pytest.raises(RulesError, match="fire modes are: auto, manual"):
        variants.find_fire_mode("sometimes")

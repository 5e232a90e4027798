"""Notation (§9), position text (§10), game JSON and the conformance vectors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_support import LAYOUT, legal, play, pos

from rules import notation, position, serialize
from rules.errors import GameFileError, NotationError, PositionError
from rules.game import Game
from rules.modes import Settings
from rules.steps import ALL_STEPS, Step

# A copy of the shared conformance vectors (see data/README.md for where they come from).
VECTORS = Path(__file__).resolve().parent / "data"


def _vectors(name: str) -> list[dict[str, object]]:
    path = VECTORS / name
    # Missing vectors must fail loudly: a skipped conformance run would pass silently.
    assert path.exists(), f"conformance vectors not found at {path}"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_conformance_first_steps() -> None:
    vectors = _vectors("first-steps.jsonl")
    assert len(vectors) >= 300
    for v in vectors:
        game = pos(str(v["position"]))
        steps = {s.token.lower() for s in game.legal_steps() if s.kind != "*"}
        assert steps == {str(t).lower() for t in v["first_steps"]}, v["position"]  # type: ignore[attr-defined]


def test_conformance_line_of_fire() -> None:
    vectors = _vectors("line-of-fire.jsonl")
    assert len(vectors) >= 1000
    with_shots = 0
    for v in vectors:
        game = pos(str(v["position"]))
        shots = {s.token.lower() for s in game.legal_steps() if s.kind == "*"}
        expected = {str(t).lower() for t in v["start_shots"]}  # type: ignore[attr-defined]
        assert shots == expected, v["position"]
        with_shots += bool(expected)
    assert with_shots > 100


# ---------------------------------------------------------------- notation


def test_every_single_step_token_parses_back_to_the_same_step() -> None:
    for step in ALL_STEPS:
        assert Step.parse(step.token) is step
        assert Step.parse(step.token.swapcase()) is step


@pytest.mark.parametrize(
    ("token", "why"),
    [
        ("", "empty"),
        ("q3C", "not a cell"),
        ("c3", "followed by a manoeuvre"),
        ("c3Z", "not a manoeuvre"),
        ("c3X<", "no turn suffix"),
        ("+c3", "facing"),
        ("c3C<<", "at most one turn suffix"),
        ("c3CS", "only a diving plane"),
    ],
)
def test_malformed_tokens_name_the_token_and_say_why(token: str, why: str) -> None:
    game = pos("duel/2026 t9 - | - | >c3E3 a1NE0 +0 | k7SW0 k10E0 +0")
    with pytest.raises(NotationError, match=why) as info:
        notation.play_token(game, token)
    assert info.value.token == token


def test_tokens_are_case_insensitive() -> None:
    one = pos("duel/2026 t9 - | - | >e6E5 a1NE0 +0 | k7SW0 k10E0 +0")
    two = pos("duel/2026 t9 - | - | >e6E5 a1NE0 +0 | k7SW0 k10E0 +0")
    play(one, "E6ss>p", "A1c")
    play(two, "e6SS>P", "a1C")
    assert one.state_key() == two.state_key()


def test_turn_text_writes_whole_plane_tokens_with_shots_in_place() -> None:
    game = pos("duel/classic t9 - | - | >c2E6 e3E0 +0 | e8W0 k10E0 k8SW0 +0")
    play(game, "c2S", "c3S", "c4S", "c5S<", "*e8", "-", "e3C")
    assert notation.turn_texts(game) == [(9, 0, "c2SSSS<*e8 - e3C")]


def test_automatic_shots_are_written_and_read_back() -> None:
    text = "duel/2026 t9 - | - | >e3E0 f6SW0 g9SW0 a1NE0 +0 | e5W0 e7W0 k10E0 k6W0 +0"
    game = pos(text, fire="auto")
    play(game, "a1C", "e3C", "f6C", "g9C")
    written = [line for _, _, line in notation.turn_texts(game)]
    assert written[0].startswith("*e5*e7")
    again = pos(text, fire="auto")
    play(again, *" ".join(written).split())
    assert again.state_key() == game.state_key()


# ---------------------------------------------------------------- position


def test_position_text_round_trips() -> None:
    text = "duel/2026 t9 - | c3 c4 f6 g6 | >d4NE3 e5E0 +0 | h8W2 k7SW3 +1"
    assert position.format_position(pos(text)) == text


def test_position_text_of_every_field() -> None:
    text = "ffa3/classic t12 aces,no-level | f6 | >a3NE2! +1 h2 r10 T1 | x | i11W0 j11W1 +0 T2"
    game = pos(text)
    assert position.format_position(game) == text
    assert game.seat(0).handicap == 2 and game.seat(0).rings == 10
    assert game.seat(1).out and game.seat(2).trophies == 2


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("duel/2026 t9 -", "header, the clouds and the seats"),
        ("chess/2026 t9 - | - | >a1E0 +1 | k7W0 +1", "unknown mode"),
        ("duel/2020 t9 - | - | >a1E0 +1 | k7W0 +1", "unknown ruleset"),
        ("duel/2026 9 - | - | >a1E0 +1 | k7W0 +1", "t<number>"),
        ("duel/2026 t9 - | - | a1E0 +1 | k7W0 +1", "exactly one seat"),
        ("duel/2026 t9 - | - | >a1E0 a1W0 +1 | k7W0 +1", "two planes at a1"),
        ("duel/2026 t9 - | - | >a1E7 +1 | k7W0 +1", "cannot read"),
        ("duel/2026 t9 - | - | >a1E0 +0 | k7W0 +1", "fewer than two planes"),
        ("duel/2026 t9 - | - | >a1E0! +1 | k7W0 +1", "aces variant"),
        ("duel/2026 t9 - | - | >a1E0 +1 r3 | k7W0 +1", "classic"),
        ("duel/2026 t9 - | - | >a1E0 +1 | x", "already over"),
        ("ffa3/2026 t9 - | - | >a1E0 +1 | k7W0 +1", "3 seats"),
    ],
)
def test_bad_position_text_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(PositionError, match=why):
        position.parse(text)


def test_position_text_is_only_for_the_start_of_a_player_turn() -> None:
    game = pos("duel/2026 t9 - | - | >e6E5 a1NE0 +0 | k7SW0 k10E0 +0")
    play(game, "e6S")
    with pytest.raises(ValueError, match="start of a player-turn"):
        position.format_position(game)


# ---------------------------------------------------------------- JSON


def test_game_json_round_trips_and_replays_to_the_same_state() -> None:
    game = Game(Settings(fire="manual", variants=frozenset({"aces"})), clouds=None)
    play(game, *[f"~{c}" for c in LAYOUT])
    play(game, "+a3NE", "+k7SW", "+k8SW", "a3C")
    again = serialize.loads(serialize.dumps(game))
    assert again.state_key() == game.state_key()
    assert [p.token for p in again.history] == [p.token for p in game.history]
    data = json.loads(serialize.dumps(game))
    assert data["format"] == "crosshairs/game" and data["version"] == 1
    assert data["start"] == {"clouds": None}


def test_game_json_keeps_resignations() -> None:
    game = Game(Settings())
    play(game, "+a3NE")
    game.concede(1)
    again = serialize.loads(serialize.dumps(game))
    assert again.result == game.result
    assert again.history[-1].token == "resign:2"


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("{", "not JSON"),
        ('{"format": "chess"}', "not a Crosshairs game"),
        ('{"format": "crosshairs/game", "version": 9}', "version 9"),
        ('{"format": "crosshairs/game", "version": 1, "settings": {"mode": "x"}}', "unknown mode"),
        (
            '{"format": "crosshairs/game", "version": 1, "start": {"clouds": []},'
            ' "steps": ["+a3NE", "+a4NE"]}',
            "step 2",
        ),
        ('{"format": "crosshairs/game", "version": 1, "steps": "a3C"}', "steps must be a list"),
    ],
)
def test_a_broken_game_file_is_refused_with_a_reason(text: str, why: str) -> None:
    with pytest.raises(GameFileError, match=why):
        serialize.loads(text)


def test_the_game_json_of_a_position_start_keeps_the_position() -> None:
    game = pos("duel/2026 t9 - | - | >e6E5 a1NE0 +0 | k7SW0 k10E0 +0")
    play(game, "e6SS>P")
    again = serialize.loads(serialize.dumps(game))
    assert again.state_key() == game.state_key()
    assert "a1C" in legal(again)

"""The game in plain words: turns told step by step, the position for screen readers
and cockpit labels, checked on hand-built positions."""

from __future__ import annotations

import re

from rules_support import play

from rules import board, position
from rules.steps import Step
from rules.words.choices import step_label
from rules.words.scene import ALT_TEXT_LIMIT, alt_text, position_text
from rules.words.telling import record_text, tell_turns, told_text

# P1's plane at a1 faces off the board at height 0 and must crash; the one at a4 dives
# to c4 and, with f3, catches P2's f7; P2 is then down to one plane and out.
DOGFIGHT = "duel/2026 t9 - | - | >a1SW0 a4NW4 f3E0 +0 | f7W2 k10W2 +0"


def test_a_turn_with_a_crash_a_dive_a_shot_and_an_elimination_word_for_word() -> None:
    game = position.parse(DOGFIGHT)
    play(game, "a1X", "a4SS>")
    told = tell_turns(game, ["alice", "bob"])
    assert len(told) == 1
    assert told_text(game, told[0], ["alice", "bob"]) == "\n".join(
        [
            "Turn 9, alice (P1) (a1X a4SS>*f7):",
            "- alice (P1)'s plane at a1 cannot fly on and crashes (a1X).",
            "- alice (P1)'s plane swoops from a4 to b4, still facing north-west,"
            " now height 3 (a4S).",
            "- alice (P1)'s plane swoops on from b4 to c4, turns right to face north-east,"
            " now height 2 (b4S>).",
            "- Automatic fire: alice (P1) shoots down bob (P2)'s plane at f7, caught by the"
            " planes at c4 and f3 (*f7).",
            "- bob (P2) is out with only one plane left: their last plane leaves the board"
            " from k10.",
            "- alice (P1) wins (last standing).",
        ]
    )


def test_the_record_tells_every_turn_with_placements_climbs_and_manual_shots() -> None:
    game = position.parse("duel/2026 t3 - | - | >d4NE3 +2 | f7W2 k10W2 +1", fire="manual")
    play(game, "+a3NE", "d4C>", "+a2E")
    assert record_text(game) == "\n".join(
        [
            "Turn 3, P1 (+a3NE d4C> +a2E):",
            "- P1 brings a plane on at a3, facing north-east, height 0 (+a3NE).",
            "- P1's plane climbs from d4 to e5, turns right to face east, now height 4 (d4C>).",
            "- P1 brings a plane on at a2, facing east, height 0 (+a2E).",
        ]
    )


def _six_player_position() -> str:
    """Free-for-all of six with six planes each: 36 planes, the most a board holds."""
    cells = [c for c in board.CELLS if not any(c in board.HOME[s] for s in board.SIDES)]
    seats = []
    for seat in range(6):
        own = cells[seat * 6 : seat * 6 + 6]
        planes = [f"{board.name(c)}{board.DIRECTIONS[(c + seat) % 6]}{c % 7}" for c in own]
        seats.append(("> " if seat == 0 else "") + " ".join(planes) + " +0")
    return "ffa6/2026 t20 - | b2 j10 | " + " | ".join(seats)


def test_the_alt_text_of_six_players_names_every_plane_with_cell_and_height() -> None:
    game = position.parse(_six_player_position(), fire="manual")
    assert len(game.planes()) == 36
    for names in ((), ["a pilot with a long name, 32 ch"] * 6):
        text = alt_text(game, names)
        assert len(text) <= ALT_TEXT_LIMIT
        for p in game.planes():
            assert re.search(rf"\b{board.name(p.cell)} (height |h){p.height}\b", text), p


def test_the_alt_text_keeps_facings_in_words_when_there_is_room() -> None:
    game = position.parse(DOGFIGHT)
    text = alt_text(game, ["alice", "bob"])
    assert "alice (P1), south: a1 height 0 facing south-west; a4 height 4 facing north-west" in text
    assert "Lines of fire: f3 aims at f7; f7 aims at f3." in text
    short = alt_text(game, ["alice", "bob"], limit=250)
    assert len(short) <= 250 and "a4 height 4" in short and "k10 height 2" in short


def test_the_words_only_board_tells_planes_lines_of_fire_clouds_and_the_last_turn() -> None:
    game = position.parse("duel/2026 t9 - | c3 e6 | >d4E3 a1NE0 +0 | d7W2 k10SW1 +1")
    play(game, "d4F", "a1C")
    text = position_text(game)
    assert "P2, home side north; 1 in reserve:" in text
    assert "- Plane at d6, height 3, facing east; aims at P2's plane at d7;" in text
    assert "P2's plane at d7" in text and "in the sights of P1's plane at d6" in text
    assert "2 clouds: c3, e6." in text
    assert "- P1's plane flies level from d4 to d6, still facing east, now height 3 (d4F)." in text


def test_cockpit_labels_are_sentences_saying_where_the_plane_ends_up() -> None:
    game = position.parse("duel/2026 t9 - | - | >d4NE3 a1SW0 +0 | k7W2 k10W2 +0")
    assert (
        step_label(game, Step.parse("d4S>"))
        == "Plane at d4, height 3, facing north-east: swoop to e5, face east, height 2"
    )
    assert (
        step_label(game, Step.parse("d4P"))
        == "Plane at d4, height 3, facing north-east: power dive on the spot, face north-east,"
        " height 1"
    )
    assert step_label(game, Step.parse("a1X")) == (
        "Plane at a1, height 0, facing south-west: crash, it can do nothing else"
    )
    assert step_label(game, Step.parse("*k7")).startswith("*k7: not possible now")

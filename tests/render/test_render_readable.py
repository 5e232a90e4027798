"""Pictures read on a phone: Discord shows them about 400 px wide, so their smallest
text must still be about 9 px there; and a seat card never cuts what is left of the
turn of the player to move, however long the words (German) and the names."""

from __future__ import annotations

import pytest
from support.drawing import sizes_drawn

from i18n import speaking
from render.board import board_png
from render.scoreboard import ScoreRow, scoreboard_png
from rules.game import Game
from rules.modes import Settings
from rules.words.common import turn_left

PHONE = 400
READABLE = 9.0  # px of font size once the picture is scaled to the phone's width


@pytest.mark.parametrize("language", ["en", "de"])
def test_the_series_scoreboard_reads_on_a_phone(
    monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    drawn = sizes_drawn(monkeypatch)
    rows = [
        ScoreRow("Mannock", 2, 5, ("first-blood", "power-diver"), leader=True),
        ScoreRow("Boelcke", 1, 2, ("double-kill",)),
        ScoreRow("Udet", 0, 0, ()),
    ]
    with speaking(language):
        scoreboard_png("Series: best of five", rows, subtitle="game 4 of 5", pool=("ace-of-aces",))
    assert drawn
    smallest = min(d.size * PHONE / d.width for d in drawn)
    assert smallest >= READABLE, [(d.text, d.size, d.width) for d in drawn]


@pytest.mark.parametrize("size", [400, 1024])
def test_a_seat_card_never_cuts_the_turn_left(monkeypatch: pytest.MonkeyPatch, size: int) -> None:
    game = Game(Settings(mode="ffa6"))
    for _ in range(4):  # some planes up, most to come: the longest card
        game.play(next(s for s in game.legal_steps() if s.kind == "+"))
    names = ["Amy", "Computer (medium)", "Cleopatra Longname", "Dev", "Eve", "Fred"]
    drawn = sizes_drawn(monkeypatch)
    with speaking("de"):
        left = turn_left(game)
        board_png(game, size=size, names=names)
    texts = [d.text for d in drawn]
    # the title says it, and the card of the seat to move says it whole on a row
    assert sum(left in t for t in texts) >= 2, (left, texts)
    assert any(t == left or t.startswith(left + " · ") for t in texts), (left, texts)
    # every word about 9 px at phone width (0.45 hex radii, rounded to whole pixels)
    assert min(d.size for d in drawn) * PHONE / size >= READABLE * 0.99

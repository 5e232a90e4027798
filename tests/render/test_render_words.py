"""The words drawn into the pictures that are not a board — an achievement card, a sheet
of cards, a series scoreboard — are in the language the worker is told
(:mod:`bot.services.jobs`): every text handed to Pillow's text drawing is caught, and a
German picture has German words and no English one (:mod:`e2e.english`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from e2e.english import english_in
from support.drawing import texts_drawn

from bot.services import jobs
from render.scoreboard import ScoreRow
from rules.achievements import CARDS

Drawn = Callable[[], list[str]]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    said = texts_drawn(monkeypatch)
    return lambda: list(said)


ROWS = [
    ScoreRow("anna", 2, 5, ("first-blood", "power-diver"), leader=True),
    ScoreRow("bernd", 1, 2, ("double-kill",)),
]


def test_a_german_card_sheet_and_claimed_card(drawn: Drawn) -> None:
    jobs.draw_cards(tuple(CARDS.values()), "Erfolgskarten", "de")
    jobs.draw_card(CARDS["first-blood"], "anna", "de")
    text = " ".join(drawn())
    for german in ("Erstes Blut", "Ass der Asse", "Letztes Gefecht", "Erhalten von anna"):
        assert german in text
    assert "1 Punkt" in text and "3 Punkte" in text
    assert english_in(text) == set()


def test_a_german_scoreboard(drawn: Drawn) -> None:
    jobs.draw_scoreboard(
        "Serie #1 · anna gegen bernd", ROWS, "Nach Partie 3 von 5", ("ace-of-aces",), "de"
    )
    said = drawn()
    assert {"Siege", "Punkte"} <= set(said)
    assert "Behaltene Karten: Erstes Blut (1), Steilsturz-Ass (2)" in said
    assert "Noch im Stapel: Ass der Asse." in said
    assert english_in(" ".join(said)) == set()


@pytest.mark.parametrize(
    ("language", "heading", "card"),
    [("fr", "Cartes gardées", "Doublé"), ("es", "Cartas guardadas", "Doble derribo")],
)
def test_the_scoreboard_in_french_and_spanish(
    drawn: Drawn, language: str, heading: str, card: str
) -> None:
    jobs.draw_scoreboard("#1", ROWS, "", (), language)
    said = drawn()
    assert any(t.startswith(heading) and t.endswith(f"{card} (2)") for t in said), said


def test_english_is_still_english(drawn: Drawn) -> None:
    jobs.draw_scoreboard("Series #1", ROWS, "", ("ace-of-aces",), "en")
    jobs.draw_card(CARDS["double-kill"], "bernd", "en")
    said = drawn()
    assert {"Games won", "Points", "Claimed by bernd", "2 points"} <= set(said)
    assert any(t.startswith("Cards kept: ") for t in said), said
    assert "Still in the pool: Ace of Aces." in said


def test_a_sheet_drawn_again_is_the_same_and_each_language_has_its_own() -> None:
    cards = (CARDS["first-blood"], CARDS["double-kill"])
    english = jobs.draw_cards(cards, "Cards in play", "en")
    assert jobs.draw_cards(cards, "Cards in play", "en") is english  # drawn once
    assert jobs.draw_cards(cards, "Cards in play", "de") != english

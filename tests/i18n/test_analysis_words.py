"""The post-game analysis in German and French (i18n): the report and every word drawn
into its pictures (the graph's title and key, a blunder's caption) — a blunder included,
so every kind of word is drawn — has no English word in it; in English it is English.
What counts as an English word: :mod:`e2e.english`."""

from __future__ import annotations

import pytest
from e2e.english import english_in
from support.drawing import texts_drawn

from i18n import speaking
from render.analysis import analysis_pictures
from rules import position, serialize
from rules.ai.analysis import report, review
from rules.game import Game
from rules.steps import Step

# P1's f5 climbs on into a second line of fire (tests/ai/test_analysis.py): a blunder
CAUGHT = "duel/2026 t9 - | - | >f5E3 a6NE0 b7NE0 +0 | f1E2 k10SW3 c6NW3 i10SW3 +0"
NAMES = ["anna", "bernd"]


def blundered() -> Game:
    game = position.parse(CAUGHT)
    for token in ("b7C", "a6C<", "f5C"):
        game.play(Step.parse(token))
    return serialize.loads(serialize.dumps(game))


def drawn(monkeypatch: pytest.MonkeyPatch, game: Game, lang: str) -> tuple[str, list[str]]:
    """The report and the words drawn into the pictures, in ``lang``."""
    words = texts_drawn(monkeypatch)
    reviews = list(review(game))
    assert [r.mark for r in reviews] == ["blunder"]
    with speaking(lang):
        told = report(reviews, NAMES)
        analysis_pictures(game, reviews, names=NAMES)
    return told, words


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_the_analysis_speaks_the_readers_language(
    monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    told, words = drawn(monkeypatch, blundered(), lang)
    assert len(words) > 5  # the title, the key, the caption and the boards' words
    assert {t: f for t in [told, *words] if (f := english_in(t, lang))} == {}


def test_in_english_it_is_english(monkeypatch: pytest.MonkeyPatch) -> None:
    told, words = drawn(monkeypatch, blundered(), "en")
    assert "BLUNDER" in told and "anna: 1 turn, 1 blunder," in told
    assert any("blunder: played" in w for w in words) and "inaccuracy" in words

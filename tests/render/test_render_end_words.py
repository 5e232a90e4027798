"""The final picture's title and the text name a game's end in the same words: who
resigned, not the engine's "last standing" in one and the resignation in the other."""

from __future__ import annotations

import pytest

from i18n import speaking
from render.panel import status
from rules import position
from rules.words.common import result_line

NAMES = ["amy", "ben"]


@pytest.mark.parametrize("language", ["en", "de", "fr", "es"])
def test_a_resignation_is_named_alike_on_the_picture_and_in_the_text(language: str) -> None:
    game = position.parse("duel/2026 t9 - | - | >d2E0 f8SW0 +0 | d6W0 k10E0 +0", fire="manual")
    game.concede(0)
    with speaking(language):
        title, text = status(game, NAMES), result_line(game, NAMES)
        resigned = {"en": "resigned", "de": "aufgegeben", "fr": "abandonn", "es": "rindi"}
    assert resigned[language] in title and resigned[language] in text, (title, text)
    assert "amy" in title and "ben" in title

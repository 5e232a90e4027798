"""One name per thing, in each language, where a machine can check it (docs/glossary.md):
a text reads the same as a message and as a command's text; the modes' names in titles
and in the commands' choices are the glossary's words; and no catalogue uses a word its
language's section of the glossary lists as not used."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from bot.catalogues import read
from bot.ui.translator import TEXT_CONTEXT
from i18n import LANGUAGES, catalogue_path, in_language, p_
from rules.modes import MODES

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
COLUMNS = {"de": 1, "fr": 2, "es": 3}
# the English words of the modes' names, as the glossary's first column has them
MODE_TERMS = ("duel", "free-for-all", "Circle of Death")
# one English word, two meanings: "none" is "no clouds" among the choices ("ohne") and
# "none yet" in a message ("keine")
TWO_MEANINGS = {"none"}
TRANSLATED = sorted(lang for lang in LANGUAGES if lang in COLUMNS)


@cache
def rows() -> dict[str, list[str]]:
    """The glossary's table: English term -> its cells, English first."""
    found = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if line.startswith("| ") and not line.startswith("| English"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            found[cells[0]] = cells
    return found


def not_used(lang: str) -> list[str]:
    """The words the glossary's section of ``lang`` lists as not used."""
    text = GLOSSARY.read_text(encoding="utf-8")
    heading = {"de": "Deutsch", "fr": "Français", "es": "Español"}[lang]
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    listed = section.split("Not used:", 1)[1]
    return re.findall(r"`([^`]+)`", listed)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_text_reads_the_same_as_a_message_and_as_a_command_text(lang: str) -> None:
    catalogue = read(catalogue_path(lang), lang)
    plain = {m.id: m.string for m in catalogue if m.id and m.context is None}
    differ = [
        (m.id, plain[m.id], m.string)
        for m in catalogue
        if m.context == TEXT_CONTEXT
        and m.id in plain
        and m.id not in TWO_MEANINGS
        and plain[m.id] != m.string
    ]
    assert not differ


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("term", MODE_TERMS)
def test_every_modes_name_is_the_glossarys_word(lang: str, term: str) -> None:
    word = rows()[term][COLUMNS[lang]].lower()
    titles = [m.title for m in MODES.values() if term.lower() in m.title.lower()]
    assert titles, term
    for title in titles:
        assert word in in_language(lang, title).lower(), (title, word)
        # the same title as a choice of /crosshairs lobby or /crosshairs-series start
        assert word in p_(TEXT_CONTEXT, title, lang).lower(), (title, word)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalogue_uses_a_word_its_glossary_does_not(lang: str) -> None:
    avoided = not_used(lang)
    assert avoided
    catalogue = read(catalogue_path(lang), lang)
    said = [
        str(form)
        for m in catalogue
        if m.id
        for form in (m.string if isinstance(m.string, tuple | list) else (m.string,))
    ]
    assert not [(word, s) for word in avoided for s in said if word in s]

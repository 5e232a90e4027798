"""Every text the bot can say is in every shipped catalogue, translated, with the same
placeholders, and no catalogue keeps a text the bot no longer says; no translation breaks
Discord's limits for what it is used as (i18n, bot/catalogues.py)."""

from __future__ import annotations

import gettext
import io
import string
from functools import cache
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message

import i18n
from bot.catalogues import TEMPLATE, read, template
from bot.ui.translator import NAME_CONTEXT, TEXT_CONTEXT
from i18n import LANGUAGES, catalogue_path
from localcord.documented import valid_name

TRANSLATED = LANGUAGES[1:]
# Discord's limits (developer documentation): option and command descriptions, choice names
DESCRIPTION = 100
MESSAGE = 2000


@cache
def wanted() -> Catalog:
    return template()


@cache
def shipped(lang: str) -> Catalog:
    return read(catalogue_path(lang), lang)


def forms(text: str | tuple[str, ...] | list[str] | None) -> list[str]:
    return [text] if isinstance(text, str) else list(text or ())


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def key(message: Message) -> tuple[object, str | None]:
    return (message.id, message.context)


def test_the_template_is_up_to_date_with_the_code() -> None:
    committed = {key(m) for m in read(TEMPLATE) if m.id}
    assert committed == {key(m) for m in wanted() if m.id}, "run python scripts/translations.py"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_text_is_translated_in_every_catalogue(lang: str) -> None:
    have = {key(m): m for m in shipped(lang) if m.id}
    missing, empty, placeholders = [], [], []
    for message in wanted():
        if not message.id:
            continue
        got = have.get(key(message))
        if got is None:
            missing.append(message.id)
            continue
        said = forms(got.string)
        if not all(said) or got.fuzzy:
            empty.append(message.id)
            continue
        english = fields(" ".join(forms(message.id)))
        # a plural's singular may say "one" instead of {n}; its other form says all
        placeholders += [(message.id, s) for s in said if not fields(s) <= english]
        if fields(said[-1]) != english:
            placeholders.append((message.id, said[-1]))
    assert not missing, f"{lang}: not in the catalogue (run scripts/translations.py): {missing}"
    assert not empty, f"{lang}: untranslated: {empty}"
    assert not placeholders, f"{lang}: placeholders differ: {placeholders}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalogue_keeps_a_text_the_bot_no_longer_says(lang: str) -> None:
    said = {key(m) for m in wanted() if m.id}
    stale = [m.id for m in shipped(lang) if m.id and key(m) not in said]
    assert not stale, f"{lang}: stale entries (run scripts/translations.py): {stale}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_translation_breaks_discords_limits(lang: str) -> None:
    too_long = []
    for message in shipped(lang):
        if not message.id:
            continue
        for text in forms(message.string):
            if message.context == NAME_CONTEXT:
                if not valid_name(text):
                    too_long.append((message.id, text, "not a valid command name"))
            elif message.context == TEXT_CONTEXT:
                if len(text) > DESCRIPTION:
                    too_long.append((message.id, text, "over 100 characters"))
            else:
                # a realistic worst case: every placeholder a name of Discord's longest (32)
                filled = text.format(**dict.fromkeys(fields(text), "W" * 32))
                if len(filled) > MESSAGE:
                    too_long.append((message.id, text, "over a message"))
    assert not too_long, too_long


def test_a_german_command_name_is_asked_for_by_its_context() -> None:
    from i18n import p_

    assert p_(NAME_CONTEXT, "resign", "de") == "aufgeben"
    assert p_(TEXT_CONTEXT, "Resign this match", "de") == "Partie aufgeben"
    assert p_(NAME_CONTEXT, "resign", "en-US") == "resign"


def test_a_catalogue_is_compiled_once_and_again_when_its_po_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po = tmp_path / "de.po"
    po.write_bytes(i18n.catalogue_path("de").read_bytes())
    monkeypatch.setattr(i18n, "catalogue_path", lambda lang: po)
    monkeypatch.setattr(i18n, "COMPILED", tmp_path / "compiled")
    first = i18n.compiled("de")
    assert gettext.GNUTranslations(io.BytesIO(first)).gettext("First Blood") == "Erstes Blut"
    (kept,) = (tmp_path / "compiled").glob("de-*.mo")

    def unread(*args: object, **kwargs: object) -> None:
        raise AssertionError("the .po was read again")

    with monkeypatch.context() as m:
        m.setattr(i18n, "read_po", unread)
        assert i18n.compiled("de") == first  # from what was kept

    po.write_bytes(po.read_bytes().replace(b'"Erstes Blut"', b'"Erstblut"'))
    again = i18n.compiled("de")
    assert gettext.GNUTranslations(io.BytesIO(again)).gettext("First Blood") == "Erstblut"
    assert not kept.exists() and len(list((tmp_path / "compiled").glob("de-*.mo"))) == 1

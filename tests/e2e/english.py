"""What a person reads on a message (:func:`shown`), and what counts as an English word
in what a German (or French, or Spanish) reader is shown (i18n): a word of the bot's
English texts (the catalogue template's msgids) that no translation into that language
uses either, once what is not words is left out — notation (tokens with a digit:
``c3C<``, ``P1``, ``#12``), mentions, timestamps, slash commands in backticks, a plane's
letter heading a menu's choice, and the compass letters of notation (``NE``)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from bot.catalogues import TEMPLATE, read
from i18n import catalogue_path
from localcord.records import Message

WORD = re.compile(r"[^\W\d_]+(?:'[a-z]+)?")  # letters of any script, ä, é and ñ too
# Not words: a token with a digit (notation, seat labels, numbers), a mention, a
# channel link or a timestamp (<@1>, <#2>, <t:3:R>), a slash command in backticks, a
# plane's letter heading a menu's choice ("A · a6 → h1 · …").
NOT_WORDS = re.compile(r"<[@#t][^>]*>|\S*\d\S*|`/[^`]*`|\b[A-Z]\b(?= · )")
# The compass letters of notation (rules spec §9: +a3NE), shown beside the arrows.
NOTATION = {"E", "NE", "NW", "W", "SW", "SE", "S", "N"}
# The game's and the players' names, the same in every language.
NAMES = {"Crosshairs", "Immelmann", "anna", "bernd", "lucia", "Amy", "Ben"}


def _words(texts: Iterable[str]) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", text))}


@cache
def english_only(lang: str = "de") -> frozenset[str]:
    """Words of the English texts that no translation into ``lang`` uses (the texts of
    messages: the slash commands' own are shown by Discord, in the reader's language)."""
    english = [t for m in read(TEMPLATE) if m.id and not m.context for t in _forms(m.id)]
    catalogue = read(catalogue_path(lang), lang)
    native = [t for m in catalogue if m.id and not m.context for t in _forms(m.string)]
    return frozenset(_words(english) - _words(native) - {n.lower() for n in NAMES | NOTATION})


def _forms(text: str | tuple[str, ...] | list[str] | None) -> list[str]:
    return [text] if isinstance(text, str) else list(text or ())


def english_in(text: str, lang: str = "de") -> set[str]:
    """The English words in ``text``, shown to a reader of ``lang``."""
    cleaned = NOT_WORDS.sub(" ", text)
    english = english_only(lang)
    return {w for w in WORD.findall(cleaned) if w.lower() in english and w not in NOTATION}


def shown(message: Message) -> list[str]:
    """Everything a person reads on a message: its text, its embeds, its pictures' alt
    text, and its buttons' and menus' words."""
    said = [message.content, *(a.description or "" for a in message.attachments)]
    for embed in message.embeds:
        said += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        said.append(str((embed.get("footer") or {}).get("text") or ""))
    for button in message.buttons():
        said.append(str(button.get("label") or ""))
    for menu in message.selects():
        said.append(str(menu.get("placeholder") or ""))
        for option in menu.get("options") or []:
            said += [str(option.get("label") or ""), str(option.get("description") or "")]
    return said

"""The bot's words in its reader's language.

Every sentence the bot shows is written in English in the code, marked for translation,
and looked up in a gettext catalogue (``i18n/locales/<lang>/LC_MESSAGES/crosshairs.po``),
read with Babel. English needs no catalogue: the code's own text is the English.

* ``_("Turn {n}", n=3)`` — in the language being spoken (:func:`speaking`), with its
  ``{placeholders}`` filled in after translation, so a translation may move them;
* ``n_("{n} plane", "{n} planes", n)`` — the same, with the plural form for ``n``;
* ``in_language(locale, "…")`` — in the language of ``locale`` (a Discord locale such as ``de``
  or ``es-ES``, or None), whatever is being spoken;
* ``N_("…")`` — marks a module-level text for extraction; translate it where it is used
  (``_(TEXT)``).

The language being spoken is a context variable, so that code deep below the Discord
layer (the game told in words, :mod:`rules.words`) speaks the reader's language without
every function carrying a locale: the Discord layer chooses it (the person's own locale
for an answer only they see, the server's for a public message) and speaks in it with
``with speaking(locale): …``. This package is the lowest layer: it imports none of ours.

``scripts/translations.py`` extracts the marked texts (and the slash commands' names,
descriptions and choices) into ``i18n/crosshairs.pot`` and updates the catalogues;
tests/i18n checks that every catalogue translates every one of them.
"""

from __future__ import annotations

import gettext
import hashlib
import io
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

SOURCE: Final = "en"  # the language the code is written in
LANGUAGES: Final = ("en", "de", "fr", "es")  # every language shipped, the source first
DOMAIN: Final = "crosshairs"
LOCALES: Final = Path(__file__).parent / "locales"
# compiled catalogues, each named for the digest of the .po it was compiled from
COMPILED: Final = Path(__file__).parent / ".compiled"

_speaking: ContextVar[str] = ContextVar("speaking", default=SOURCE)


def _code(locale: object) -> str:
    return str(getattr(locale, "value", locale)).replace("_", "-").split("-")[0].lower()


def language(locale: object) -> str:
    """The shipped language for ``locale`` (``de``, ``es-419``, ``en-GB``, a
    ``discord.Locale``, None…): its language part if shipped, else English."""
    if locale is None:
        return SOURCE
    code = _code(locale)
    return code if code in LANGUAGES else SOURCE


def ships(locale: object) -> bool:
    """Whether ``locale``'s language is shipped (English is)."""
    return locale is not None and _code(locale) in LANGUAGES


def catalogue_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (compiled from its .po in memory, once per process);
    English is the code's own text."""
    if lang == SOURCE:
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(compiled(lang)))


def compiled(lang: str) -> bytes:
    """``lang``'s catalogue in gettext's binary form. Babel reads a .po in about a tenth
    of a second, which every process that speaks the language would pay as it starts
    (each bot, each of its workers): the compiled form is kept in :data:`COMPILED` under
    the .po's digest, so an edited or checked-out .po is compiled anew."""
    source = catalogue_path(lang).read_bytes()
    kept = COMPILED / f"{lang}-{hashlib.sha256(source).hexdigest()[:20]}.mo"
    try:
        return kept.read_bytes()
    except OSError:
        pass
    buffer = io.BytesIO()
    write_mo(buffer, read_po(io.BytesIO(source), locale=lang, domain=DOMAIN))
    data = buffer.getvalue()
    try:
        COMPILED.mkdir(exist_ok=True)
        for old in COMPILED.glob(f"{lang}-*.mo"):
            old.unlink(missing_ok=True)
        # written whole, then renamed: a process starting meanwhile reads all or nothing
        part = COMPILED / f"{kept.name}.{os.getpid()}.part"
        part.write_bytes(data)
        os.replace(part, kept)
    except OSError:  # a read-only install compiles it in memory at each start
        pass
    return data


def digest() -> str:
    """A digest of every shipped catalogue: the slash commands are synced again when a
    translation of their names or descriptions changed."""
    sha = hashlib.sha256()
    for lang in LANGUAGES[1:]:
        sha.update(catalogue_path(lang).read_bytes())
    return sha.hexdigest()


def current() -> str:
    """The language being spoken."""
    return _speaking.get()


@contextmanager
def speaking(locale: object) -> Iterator[str]:
    """Speak ``locale``'s language within the block (nested blocks speak their own)."""
    token = _speaking.set(language(locale))
    try:
        yield _speaking.get()
    finally:
        _speaking.reset(token)


def speak(locale: object) -> None:
    """Speak ``locale``'s language from here on in the current context: an asyncio
    task's own copy, so this lasts as long as the task that handles one interaction."""
    _speaking.set(language(locale))


def _fill(text: str, values: dict[str, object]) -> str:
    return text.format(**values) if values else text


def in_language(locale: object, msgid: str, /, **values: object) -> str:
    """``msgid`` in ``locale``'s language, its placeholders filled with ``values``."""
    return _fill(translations(language(locale)).gettext(msgid), values)


def _(msgid: str, /, **values: object) -> str:
    """``msgid`` in the language being spoken, its placeholders filled with ``values``."""
    return _fill(translations(current()).gettext(msgid), values)


def n_(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form for ``n`` in the language being spoken; ``{n}`` is filled in too."""
    return _fill(translations(current()).ngettext(singular, plural, n), {"n": n, **values})


def p_(context: str, msgid: str, /, locale: object = None) -> str:
    """``msgid`` in its ``context`` (the slash commands' texts) in ``locale``'s language."""
    return translations(language(locale)).pgettext(context, msgid)


def N_(msgid: str, /) -> str:
    """Marks ``msgid`` for extraction; it is translated where it is shown."""
    return msgid

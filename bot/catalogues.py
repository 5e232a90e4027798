"""What must be translated, and the catalogues brought up to date with it.

Three sources make the template (``i18n/crosshairs.pot``): the texts the code marks
(``_``, ``n_``, ``N_``, ``in_language``: :mod:`i18n`), extracted by Babel as ``pybabel extract``
does with ``babel.cfg``; the words of the course's lessons, which are data
(``rules/training/data/lessons.toml``); and the slash commands' names, descriptions and
choice names, asked of the command tree exactly as discord.py asks its translator when it
syncs.
``python scripts/translations.py`` writes the template and merges it into each language's
catalogue (new texts untranslated, texts gone dropped); tests/i18n fails until every
catalogue translates every text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.config import Config
from bot.ui.translator import context_of
from i18n import DOMAIN, LANGUAGES, LOCALES, catalogue_path
from rules.training import shipped

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = LOCALES.parent / f"{DOMAIN}.pot"
# the packages whose texts reach people (storage and launcher speak only to operators
# and tests; of localcord, the playground page speaks to people)
SOURCES = ("rules", "render", "competition", "bot", "localcord")
COURSE = "rules/training/data/lessons.toml"  # the lessons' words are data
# (not "t": Babel's extractor takes a variable of that name inside a call for the call)
KEYWORDS = {"_": None, "n_": (1, 2), "N_": None, "in_language": (2,)}
CATALOGUE_DATE = datetime(2026, 11, 1, tzinfo=UTC)
Message = tuple[str | tuple[str, ...], str | None]  # (msgid or (singular, plural), msgctxt)


def code_messages() -> Iterator[tuple[Message, str]]:
    """Every marked text of the code, with where it stands."""
    for package in SOURCES:
        found = extract_from_dir(
            ROOT / package, method_map=[("**.py", "python")], keywords=KEYWORDS
        )
        for filename, line, message, _comments, context in found:
            yield (message, context), f"{package}/{filename}:{line}"


class _Recorder(app_commands.Translator):
    """Answers nothing; remembers what discord.py asked for."""

    def __init__(self) -> None:
        self.asked: dict[tuple[str, str], str] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        where = context.location.name
        self.asked.setdefault((string.message, context_of(context.location)), where)
        return None


class _Collector:
    """Stands in for the bot while each feature's ``setup`` runs, so that its commands
    join a command tree: keeps the tree, and ignores buttons, cogs and services (a cog
    is built, never loaded: its settings are the defaults)."""

    def __init__(self, tree: app_commands.CommandTree[Any]) -> None:
        self.tree = tree
        self.config = Config(token=None, database_path=Path("unused.db"))
        self.env = _Services(self.config)

    def add_dynamic_items(self, *items: object) -> None:
        pass

    async def add_cog(self, cog: object) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return _Nothing()


class _Nothing:
    """Whatever a feature's ``setup`` reads from the bot's services to build its cogs."""

    def __getattr__(self, name: str) -> _Nothing:
        return self


class _Services(_Nothing):
    def __init__(self, config: Config) -> None:
        self.config = config


def command_messages() -> dict[tuple[str, str], str]:
    """Every text of the slash commands, (text, msgctxt) -> what it is."""
    from bot.app import FEATURES

    async def ask() -> dict[tuple[str, str], str]:
        client = discord.Client(intents=discord.Intents.none())
        tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
        collector = _Collector(tree)
        for setup in FEATURES:
            await setup(collector)  # type: ignore[arg-type]
        recorder = _Recorder()
        for command in tree.get_commands():
            await command.get_translated_payload(tree, recorder)
        return recorder.asked

    return asyncio.run(ask())


def course_messages() -> Iterator[tuple[str, str]]:
    """Every text of the course's lessons (``rules/training/data/lessons.toml``: data,
    so no marker finds them), with which lesson says it; shown with ``_(lesson.title)``."""
    seen: set[str] = set()
    for lesson in shipped.course():
        said = [lesson.part, lesson.title, lesson.teach, lesson.goal, *lesson.hints, lesson.wrong]
        for text in said:
            if text and text not in seen:
                seen.add(text)
                yield text, f"lesson {lesson.id}"


def template() -> Catalog:
    """The template: every text to translate, none translated."""
    catalog = Catalog(
        domain=DOMAIN, project="crosshairs", fuzzy=False, creation_date=CATALOGUE_DATE
    )
    for (message, context), where in code_messages():
        filename, _, line = where.rpartition(":")
        catalog.add(message, locations=[(filename, int(line))], context=context)
    for text, lesson in course_messages():
        catalog.add(text, locations=[(COURSE, 0)], auto_comments=[lesson])
    for (text, context), what in command_messages().items():
        catalog.add(text, context=context, auto_comments=[what])
    return catalog


def read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def write(path: Path, catalog: Catalog) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        # no line numbers and fixed dates: a change elsewhere in a file, or a second branch
        # adding texts, leaves the catalogues' other lines alone, so they merge cleanly
        write_po(f, catalog, width=100, sort_output=False, omit_header=False, include_lineno=False)


def update() -> dict[str, int]:
    """Write the template and merge it into every shipped catalogue; how many texts each
    language has left untranslated."""
    pot = template()
    write(TEMPLATE, pot)
    missing = {}
    for lang in LANGUAGES[1:]:
        path = catalogue_path(lang)
        catalog = read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()  # a text the code no longer says needs no translation
        write(path, catalog)
        missing[lang] = sum(1 for m in catalog if m.id and not m.string)
    return missing

"""The slash commands in every shipped language: discord.py asks this translator for each
command, group and option name, description and choice name when it syncs, and sends
Discord whatever it answers as that text's localisation (:mod:`i18n`)."""

from __future__ import annotations

import discord
from discord import app_commands

from i18n import LANGUAGES, SOURCE, current, language, p_

# msgctxt of the catalogue entries: a name follows Discord's rules for names (lower
# case, no spaces), so it is kept apart from the same word as a description or in a
# message.
NAME_CONTEXT = "command name"
TEXT_CONTEXT = "command"
_NAMES = {
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
}


def context_of(location: app_commands.TranslationContextLocation) -> str:
    return NAME_CONTEXT if location in _NAMES else TEXT_CONTEXT


def localised(locale: discord.Locale) -> bool:
    """Whether the commands have a translation for Discord's ``locale``."""
    lang = language(locale)
    return lang != SOURCE and lang in LANGUAGES


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if not localised(locale):
            return None  # Discord shows the English itself
        said = p_(context_of(context.location), string.message, locale)
        return said if said != string.message else None


def shown(path: str) -> str:
    """A command as the reader's Discord shows it, in the language being spoken:
    ``shown("crosshairs learn")`` is ``/crosshairs lernen`` in German."""
    return "/" + " ".join(p_(NAME_CONTEXT, word, current()) for word in path.split())

"""Slash commands as a person's Discord shows them: each name, description and choice in
the person's language from the localisations the bot synced (``name_localizations``,
``description_localizations``), and a command typed in that language read back to the
names the bot declared, which is what Discord sends the bot whatever the person's locale.
"""

from __future__ import annotations

from collections.abc import Iterable

from localcord.state import Json

SUB_COMMAND, SUB_GROUP = 1, 2


def localised(item: Json, field: str, locale: str) -> str:
    """``item[field]`` as a person with ``locale`` sees it: its localisation for that
    locale if the bot gave one, else the default."""
    return str((item.get(f"{field}_localizations") or {}).get(locale) or item.get(field) or "")


def named(items: Iterable[Json], name: str, locale: str) -> Json | None:
    """The item a person with ``locale`` called ``name``: by the name they are shown,
    or by its default name (what a program typing the command sends)."""
    listed = list(items)
    for item in listed:
        if localised(item, "name", locale) == name:
            return item
    return next((item for item in listed if item.get("name") == name), None)


def command_list(commands: Iterable[Json], locale: str) -> list[Json]:
    """Every command a person can type, as ``{name, description, options}`` with the
    full name (e.g. "crosshairs zug") and everything in ``locale``'s words; each
    option keeps its type, whether it is required, autocomplete, and the choices'
    values, which Discord does not translate."""
    found: list[Json] = []

    def walk(prefix: str, spec: Json) -> None:
        options = spec.get("options", [])
        subs = [o for o in options if o["type"] in (SUB_COMMAND, SUB_GROUP)]
        if not subs:
            found.append(
                {
                    "name": prefix,
                    "description": localised(spec, "description", locale),
                    "options": [_option(o, locale) for o in options],
                }
            )
        for sub in subs:
            walk(f"{prefix} {localised(sub, 'name', locale)}", sub)

    for command in commands:
        if command.get("type", 1) == 1:
            walk(localised(command, "name", locale), command)
    return found


def _option(option: Json, locale: str) -> Json:
    shown = {
        "name": localised(option, "name", locale),
        "type": option["type"],
        "description": localised(option, "description", locale),
        "required": bool(option.get("required")),
        "autocomplete": bool(option.get("autocomplete")),
    }
    if option.get("choices"):
        shown["choices"] = [
            {"name": localised(c, "name", locale), "value": c["value"]} for c in option["choices"]
        ]
    return shown

"""What Discord's developer documentation says it refuses and its OpenAPI spec cannot say.

The spec checks one field at a time; these rules look at a whole payload: a message with
nothing in it, custom ids unique per message, a button that needs a custom id, a select
whose ``min_values`` passes its ``max_values``, component rows outside a Components V2
message, command names (lower case letters, digits, ``-`` and ``_``), a command tree over
8,000 characters, and which callback types may answer which kind of interaction.

Each returns problems in the spec checker's form, nested as Discord nests them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from localcord.records import Json
from localcord.spec import Problem

ACTION_ROW, BUTTON, STRING_SELECT = 1, 2, 3
LINK, PREMIUM = 5, 6  # the button styles that carry no custom id
COMPONENTS_V2 = 1 << 15
COMMAND_TREE = 8000  # characters of names, descriptions and values in one command
CHAT_INPUT, SUB_COMMAND, SUB_COMMAND_GROUP = 1, 1, 2

PRIMARY_ENTRY_POINT = 4  # the command type that opens an Activity from the App Launcher

# interaction type -> the callback types that may answer it (Discord's "interaction
# response" documentation: autocomplete only 8; a command cannot update a message)
CALLBACKS = {
    2: {4, 5, 9, 12},  # application command
    3: {4, 5, 6, 7, 9, 12},  # component
    4: {8},  # autocomplete
    5: {4, 5, 6, 7},  # modal submit
}


def empty_message(body: Json, files: int) -> bool:
    """Discord refuses (50006) a new message with nothing to show."""
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or body.get("sticker_ids")
        or body.get("poll")
        or files
    )


def message_problems(body: Json, where: tuple[str, ...] = ()) -> Iterator[Problem]:
    rows: list[Any] = body.get("components") or []
    v2 = int(body.get("flags") or 0) & COMPONENTS_V2
    seen: set[str] = set()
    for n, row in enumerate(rows):
        here = (*where, "components", str(n))
        if not isinstance(row, dict):
            continue
        if row.get("type") != ACTION_ROW and not v2:
            yield (
                (*here, "type"),
                "UNION_TYPE_CHOICES",
                'Value of field "type" must be one of (1,).',
            )
            continue
        for k, item in enumerate(row.get("components") or []):
            if isinstance(item, dict):
                yield from _component(item, (*here, "components", str(k)), seen)


def _component(item: Json, where: tuple[str, ...], seen: set[str]) -> Iterator[Problem]:
    custom_id = item.get("custom_id")
    if (
        item.get("type") == BUTTON
        and item.get("style") not in (LINK, PREMIUM)
        and custom_id is None
    ):
        yield (*where, "custom_id"), "BASE_TYPE_REQUIRED", "A custom id is required"
    if isinstance(custom_id, str) and custom_id:
        if custom_id in seen:
            yield (
                (*where, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        seen.add(custom_id)
    if item.get("type") == STRING_SELECT:
        low, high = item.get("min_values"), item.get("max_values")
        if isinstance(low, int) and isinstance(high, int) and low > high:
            yield (
                (*where, "min_values"),
                "SELECT_COMPONENT_MIN_VALUES_TOO_LARGE",
                "min_values must be less than or equal to max_values",
            )
        values: set[str] = set()
        for k, option in enumerate(item.get("options") or []):
            value = option.get("value") if isinstance(option, dict) else None
            if value in values:
                yield (
                    (*where, "options", str(k), "value"),
                    "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    "Component option value cannot be duplicated",
                )
            values.add(str(value))


def command_problems(commands: list[Any], guild: bool = False) -> Iterator[Problem]:
    """``guild``: a guild's commands, where Discord takes no entry point command."""
    entry_points = 0
    for n, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        here = (str(n),)
        # Discord's application-commands docs: one global PRIMARY_ENTRY_POINT command and
        # none in a guild; ``handler`` only on it (the error codes are our reading)
        if command.get("type") == PRIMARY_ENTRY_POINT:
            entry_points += 1
            if guild or entry_points > 1:
                yield (
                    (*here, "type"),
                    "APPLICATION_COMMANDS_PRIMARY_ENTRY_POINT_LIMIT",
                    "An app may have one global entry point command and none in a guild",
                )
        elif "handler" in command:
            yield (
                (*here, "handler"),
                "APPLICATION_COMMAND_HANDLER_INVALID",
                "Only an entry point command has a handler",
            )
        if command.get("type", CHAT_INPUT) == CHAT_INPUT:
            yield from _names(command, here)
            if tree_size(command) > COMMAND_TREE:
                yield (
                    here,
                    "APPLICATION_COMMAND_TOO_LARGE",
                    f"Command exceeds maximum size ({COMMAND_TREE})",
                )


def _names(command: Json, where: tuple[str, ...]) -> Iterator[Problem]:
    name = command.get("name")
    if isinstance(name, str) and not valid_name(name):
        yield (*where, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"
    for k, option in enumerate(command.get("options") or []):
        if isinstance(option, dict):
            yield from _names(option, (*where, "options", str(k)))


def valid_name(name: str) -> bool:
    """Discord's ``^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, lower case where
    the script has cases, for slash commands and their options."""
    return (
        1 <= len(name) <= 32
        and all(c.isalnum() or c in "-_" for c in name)
        and name == name.lower()
    )


def tree_size(command: Json) -> int:
    """Characters Discord counts against the 8,000 of one command: the names,
    descriptions and choice values of it and everything below it, each name and
    description counted in its longest localisation."""
    size = _longest(command, "name") + _longest(command, "description")
    for choice in command.get("choices") or []:
        size += _longest(choice, "name") + len(str(choice.get("value") or ""))
    return size + sum(tree_size(option) for option in command.get("options") or [])


def _longest(item: Json, field: str) -> int:
    """The length of ``item[field]`` in its longest localisation (or itself)."""
    said = [str(item.get(field) or "")]
    said += [str(v) for v in (item.get(f"{field}_localizations") or {}).values()]
    return max(map(len, said))


def callback_problems(interaction_type: int, callback_type: Any) -> Iterator[Problem]:
    allowed = CALLBACKS.get(interaction_type)
    if allowed is not None and isinstance(callback_type, int) and callback_type not in allowed:
        shown = ", ".join(map(str, sorted(allowed)))
        yield (
            ("type",),
            "INTERACTION_RESPONSE_TYPE_INVALID",
            f"Interaction response type must be one of ({shown}) for this interaction.",
        )

"""Discord's limits on a message, checked as Discord checks them: a payload over a limit
is refused with 400 "Invalid Form Body" (code 50035) and nothing is posted.

Without this the local Discord would accept a cockpit of six rows or a 30-option select
that the real one refuses, and a design that only works locally would pass its tests.
The numbers are Discord's documented limits (message, embed, component and attachment
objects of the API reference).
"""

from __future__ import annotations

from typing import Any

from localcord.spec import Problem
from localcord.state import Json

CONTENT = 2000
EMBEDS = 10
EMBED_TITLE, EMBED_DESCRIPTION, EMBED_FIELDS = 256, 4096, 25
FIELD_NAME, FIELD_VALUE, FOOTER_TEXT, AUTHOR_NAME = 256, 1024, 2048, 256
EMBEDS_TOTAL = 6000
ROWS, BUTTONS_PER_ROW = 5, 5
LABEL, CUSTOM_ID, PLACEHOLDER = 80, 100, 150
SELECT_OPTIONS, OPTION_LABEL, OPTION_VALUE, OPTION_DESCRIPTION = 25, 100, 100, 100
ATTACHMENT_DESCRIPTION = 1024
BUTTON, STRING_SELECT = 2, 3


Where = tuple[str, ...]


def problems(data: Json) -> list[Problem]:
    """Every limit the message payload ``data`` breaks (empty: Discord accepts it), each
    with where it is, Discord's error code and message."""
    found: list[Problem] = []
    _check(found, ("content",), data.get("content") or "", CONTENT)
    embeds: list[Json] = data.get("embeds") or []
    _count(found, ("embeds",), embeds, 0, EMBEDS)
    total = 0
    for n, embed in enumerate(embeds):
        total += _embed(found, ("embeds", str(n)), embed)
    if total > EMBEDS_TOTAL:
        found.append(
            (
                ("embeds",),
                "MAX_EMBED_SIZE_EXCEEDED",
                f"Embed size exceeds maximum size of {EMBEDS_TOTAL}",
            )
        )
    rows: list[Json] = data.get("components") or []
    _count(found, ("components",), rows, 0, ROWS)
    for n, row in enumerate(rows):
        _row(found, ("components", str(n), "components"), row.get("components") or [])
    for n, attachment in enumerate(data.get("attachments") or []):
        where = ("attachments", str(n), "description")
        _check(found, where, attachment.get("description") or "", ATTACHMENT_DESCRIPTION)
    return found


def _check(found: list[Problem], where: Where, text: Any, limit: int) -> int:
    size = len(str(text))
    if size > limit:
        found.append((where, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."))
    return size


def _count(found: list[Problem], where: Where, items: list[Any], least: int, most: int) -> None:
    if not least <= len(items) <= most:
        message = f"Must be between {least} and {most} in length."
        found.append((where, "BASE_TYPE_BAD_LENGTH", message))


def _embed(found: list[Problem], where: Where, embed: Json) -> int:
    size = _check(found, (*where, "title"), embed.get("title") or "", EMBED_TITLE)
    description = embed.get("description") or ""
    size += _check(found, (*where, "description"), description, EMBED_DESCRIPTION)
    fields: list[Json] = embed.get("fields") or []
    _count(found, (*where, "fields"), fields, 0, EMBED_FIELDS)
    for n, field in enumerate(fields):
        here = (*where, "fields", str(n))
        size += _check(found, (*here, "name"), field.get("name", ""), FIELD_NAME)
        size += _check(found, (*here, "value"), field.get("value", ""), FIELD_VALUE)
    footer = (embed.get("footer") or {}).get("text", "")
    size += _check(found, (*where, "footer", "text"), footer, FOOTER_TEXT)
    author = (embed.get("author") or {}).get("name", "")
    size += _check(found, (*where, "author", "name"), author, AUTHOR_NAME)
    return size


def _row(found: list[Problem], where: Where, items: list[Json]) -> None:
    selects = [c for c in items if c.get("type") == STRING_SELECT]
    if (selects and len(items) > 1) or len(items) > BUTTONS_PER_ROW:
        message = "The specified component exceeds the maximum width"
        found.append((where, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", message))
    for n, item in enumerate(items):
        here = (*where, str(n))
        _check(found, (*here, "custom_id"), item.get("custom_id") or "", CUSTOM_ID)
        if item.get("type") == BUTTON:
            _check(found, (*here, "label"), item.get("label") or "", LABEL)
        elif item.get("type") == STRING_SELECT:
            _check(found, (*here, "placeholder"), item.get("placeholder") or "", PLACEHOLDER)
            options: list[Json] = item.get("options") or []
            _count(found, (*here, "options"), options, 1, SELECT_OPTIONS)
            for k, option in enumerate(options):
                at = (*here, "options", str(k))
                _check(found, (*at, "label"), option.get("label", ""), OPTION_LABEL)
                _check(found, (*at, "value"), option.get("value", ""), OPTION_VALUE)
                description = option.get("description") or ""
                _check(found, (*at, "description"), description, OPTION_DESCRIPTION)

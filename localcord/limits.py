"""Discord's limits on a message, checked as Discord checks them: a payload over a limit
is refused with 400 "Invalid Form Body" (code 50035) and nothing is posted.

Without this the local Discord would accept a cockpit of six rows or a 30-option select
that the real one refuses, and a design that only works locally would pass its tests.
The numbers are Discord's documented limits (message, embed, component and attachment
objects of the API reference).
"""

from __future__ import annotations

from typing import Any

from localcord.records import Json

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


def problems(data: Json) -> list[str]:
    """Every limit the message payload ``data`` breaks (empty: Discord accepts it)."""
    found: list[str] = []
    _check(found, "content", data.get("content") or "", CONTENT)
    embeds: list[Json] = data.get("embeds") or []
    if len(embeds) > EMBEDS:
        found.append(f"embeds: {len(embeds)} > {EMBEDS}")
    total = 0
    for n, embed in enumerate(embeds):
        total += _embed(found, f"embeds[{n}]", embed)
    if total > EMBEDS_TOTAL:
        found.append(f"embeds: {total} characters in all > {EMBEDS_TOTAL}")
    rows: list[Json] = data.get("components") or []
    if len(rows) > ROWS:
        found.append(f"components: {len(rows)} rows > {ROWS}")
    for n, row in enumerate(rows):
        _row(found, f"components[{n}]", row.get("components") or [])
    for n, attachment in enumerate(data.get("attachments") or []):
        _check(
            found,
            f"attachments[{n}].description",
            attachment.get("description") or "",
            ATTACHMENT_DESCRIPTION,
        )
    return found


def _check(found: list[str], where: str, text: Any, limit: int) -> int:
    size = len(str(text))
    if size > limit:
        found.append(f"{where}: {size} characters > {limit}")
    return size


def _embed(found: list[str], where: str, embed: Json) -> int:
    size = _check(found, f"{where}.title", embed.get("title") or "", EMBED_TITLE)
    size += _check(found, f"{where}.description", embed.get("description") or "", EMBED_DESCRIPTION)
    fields: list[Json] = embed.get("fields") or []
    if len(fields) > EMBED_FIELDS:
        found.append(f"{where}.fields: {len(fields)} > {EMBED_FIELDS}")
    for n, field in enumerate(fields):
        size += _check(found, f"{where}.fields[{n}].name", field.get("name", ""), FIELD_NAME)
        size += _check(found, f"{where}.fields[{n}].value", field.get("value", ""), FIELD_VALUE)
    size += _check(
        found, f"{where}.footer.text", (embed.get("footer") or {}).get("text", ""), FOOTER_TEXT
    )
    size += _check(
        found, f"{where}.author.name", (embed.get("author") or {}).get("name", ""), AUTHOR_NAME
    )
    return size


def _row(found: list[str], where: str, items: list[Json]) -> None:
    selects = [c for c in items if c.get("type") == STRING_SELECT]
    if selects and len(items) > 1:
        found.append(f"{where}: a select menu must be alone in its row")
    if len(items) > BUTTONS_PER_ROW:
        found.append(f"{where}: {len(items)} components > {BUTTONS_PER_ROW}")
    for n, item in enumerate(items):
        here = f"{where}.components[{n}]"
        _check(found, f"{here}.custom_id", item.get("custom_id") or "", CUSTOM_ID)
        if item.get("type") == BUTTON:
            _check(found, f"{here}.label", item.get("label") or "", LABEL)
        elif item.get("type") == STRING_SELECT:
            _check(found, f"{here}.placeholder", item.get("placeholder") or "", PLACEHOLDER)
            options: list[Json] = item.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS:
                found.append(f"{here}.options: {len(options)} (1 to {SELECT_OPTIONS} allowed)")
            for k, option in enumerate(options):
                _check(found, f"{here}.options[{k}].label", option.get("label", ""), OPTION_LABEL)
                _check(found, f"{here}.options[{k}].value", option.get("value", ""), OPTION_VALUE)
                _check(
                    found,
                    f"{here}.options[{k}].description",
                    option.get("description") or "",
                    OPTION_DESCRIPTION,
                )

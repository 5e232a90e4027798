"""The shape of a game JSON document (:mod:`rules.serialize`), checked before any value
reaches the rules: types, ranges and lengths, so that a hostile or damaged file is
refused with a message naming the field instead of failing deep inside the engine.

Meaning (an unknown mode, planes 7 …) stays with :class:`rules.modes.Settings` and the
replay; the schema only guarantees each value is of a kind those checks can read.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from rules.errors import GameFileError

Check = Callable[[object, str], None]

MAX_DOCUMENT: Final = 4_000_000  # characters; a game of 100,000 steps takes about 1 MB
MAX_STEPS: Final = 100_000
MAX_TOKEN: Final = 64
MAX_NAME: Final = 32


def text(max_len: int) -> Check:
    def check(value: object, where: str) -> None:
        if not isinstance(value, str):
            raise GameFileError(f"{where} must be text, not {_kind(value)}")
        if len(value) > max_len:
            raise GameFileError(f"{where} is longer than {max_len} characters")

    return check


def integer(lo: int, hi: int) -> Check:
    def check(value: object, where: str) -> None:
        # bool is an int to Python, never to a reader of the file
        if not isinstance(value, int) or isinstance(value, bool):
            raise GameFileError(f"{where} must be a whole number, not {_kind(value)}")
        if not lo <= value <= hi:
            raise GameFileError(f"{where} must be {lo} to {hi}")

    return check


def boolean(value: object, where: str) -> None:
    if not isinstance(value, bool):
        raise GameFileError(f"{where} must be true or false, not {_kind(value)}")


def anything(value: object, where: str) -> None:
    """For blocks written for readers and ignored on loading (``status``)."""


def optional(inner: Check) -> Check:
    def check(value: object, where: str) -> None:
        if value is not None:
            inner(value, where)

    return check


def list_of(item: Check, max_items: int) -> Check:
    def check(value: object, where: str) -> None:
        if not isinstance(value, list):
            raise GameFileError(f"{where} must be a list, not {_kind(value)}")
        if len(value) > max_items:
            raise GameFileError(f"{where} has more than {max_items} entries")
        for i, entry in enumerate(value):
            item(entry, f"{where}[{i}]")

    return check


def obj(
    fields: Mapping[str, Check], required: tuple[str, ...] = (), open_ended: bool = False
) -> Check:
    """An object of known fields. Unknown keys are refused, so that a typo is never
    silently ignored, unless ``open_ended``: then they belong to whoever embeds it."""

    def check(value: object, where: str) -> None:
        name = where or "the game"
        if not isinstance(value, dict):
            raise GameFileError(f"{name} must be an object, not {_kind(value)}")
        for key in value:
            if key not in fields and not open_ended:
                raise GameFileError(f"{name}: unknown field {_short(key)}")
        for key in required:
            if key not in value:
                raise GameFileError(f"{name}: the field {key!r} is missing")
        for key, inner in fields.items():
            if key in value:
                inner(value[key], f"{where}.{key}" if where else key)

    return check


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", float: "a number"}
    if value is None:
        return "null"
    return names.get(type(value), "a whole number" if isinstance(value, int) else "that")


def _short(key: object) -> str:
    shown = repr(key)
    return shown if len(shown) <= 40 else shown[:37] + "..."


SETTINGS: Final = obj(
    {
        "mode": text(MAX_NAME),
        "ruleset": text(MAX_NAME),
        "planes": optional(integer(0, 99)),
        "fire": text(MAX_NAME),
        "variants": list_of(text(MAX_NAME), 16),
        "handicaps": list_of(integer(0, 99), 6),
        "cloud_groups": boolean,
        "turn_limit": optional(integer(1, 1_000_000)),
        "cards": list_of(text(MAX_NAME), 64),
    }
)
START: Final = obj({"clouds": optional(list_of(text(8), 121)), "position": text(1000)})
GAME: Final = obj(
    {
        "format": text(MAX_NAME),
        "version": integer(0, 1_000_000),
        "settings": SETTINGS,
        "start": START,
        "steps": list_of(text(MAX_TOKEN), MAX_STEPS),
        "status": anything,
    },
    required=("format", "version"),
    open_ended=True,  # the bot stores its players beside the game in one document
)

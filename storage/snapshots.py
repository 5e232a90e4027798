"""The one check storage makes of a game JSON document.

Storage treats the rules engine's game JSON as opaque text; it only makes sure a
document is a JSON object that says it is a Crosshairs game, so a damaged row is noticed
when it is read instead of when the rules engine chokes on it mid-game.
"""

from __future__ import annotations

import json
from typing import Final

GAME_FORMAT: Final = "crosshairs/game"


def snapshot_problem(text: object) -> str | None:
    """Why ``text`` is not a game JSON document, or None if it looks like one."""
    if not isinstance(text, str):
        return f"the game JSON is stored as {type(text).__name__}, not text"
    try:
        doc = json.loads(text)
    except ValueError as exc:
        return f"the game JSON is not valid JSON ({exc})"
    if not isinstance(doc, dict) or doc.get("format") != GAME_FORMAT:
        return f'the game JSON has no "format": "{GAME_FORMAT}"'
    return None

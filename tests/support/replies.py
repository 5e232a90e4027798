"""Reading the bot's answers in simcord's in-memory Discord."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.services.refusal import Refusal


def answer(result: Any) -> Any:
    """The message that answered an interaction: after a deferral Discord turns the
    first follow-up into the original response. Public follow-ups after it are the
    thread's own messages posted through the interaction (the match's new board, a turn
    told in words), no answer."""
    private = result.response is not None and result.response.ephemeral
    found = [
        m
        for m in (result.response, *result.followups)
        if m is not None
        and not any(a.filename == "board.png" for a in m.attachments)
        and not (private and m is not result.response and not m.ephemeral)
    ]
    assert found, "the interaction got no answer"
    return found[-1]


def refusals(env: Any) -> list[str]:
    """The friendly refusals the command tree answered (simcord records them); any other
    error, such as a crash behind "Something went wrong on our side", fails the test."""
    found = []
    for error in env.errors:
        original = getattr(error, "original", error)
        assert isinstance(original, Refusal | app_commands.CheckFailure), repr(error)
        found.append(str(original))
    return found


def menu_with(message: Any, value: str) -> str:
    """The custom id of the select menu on ``message`` that offers ``value``."""
    for row in message.components:
        for item in row["components"]:
            if any(o["value"] == value for o in item.get("options", ())):
                return str(item["custom_id"])
    raise AssertionError(f"no menu offers {value!r}")


def told(thread: Any, words: str) -> bool:
    """Whether a message of the thread says ``words``."""
    return any(words in m.content for m in thread.history())

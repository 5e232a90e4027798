"""Presses a modified client makes: any custom id, on any message it can see.

Discord's own client only presses buttons the bot put on a message; a modified one sends
whatever custom id it likes. simcord checks that a pressed button is on its message, so
the forged button is put there first, on the stored message, as that client shows it."""

from __future__ import annotations

from typing import Any

from simcord.builders import UserHandle

from support.replies import answer


async def forged_press(env: Any, person: Any, message: Any, custom_id: str) -> str:
    """``person`` presses ``custom_id`` on ``message``; returns the answer's text."""
    channel_id = message.channel_id if hasattr(message, "channel_id") else message.channel.id
    stored = env.backend.get_message(channel_id, message.id)
    shown = [c.get("custom_id") for row in stored.components for c in row["components"]]
    if custom_id not in shown:
        button = {"type": 2, "style": 2, "label": "forged", "custom_id": custom_id}
        stored.components = [*stored.components, {"type": 1, "components": [button]}]
    return str(answer(await person.click(message, custom_id=custom_id)).content)


async def elsewhere(env: Any, person: Any) -> tuple[Any, Any, Any]:
    """Another server that ``person`` is in too, with mallory: (the person there,
    mallory, a message of the bot's there, mallory's challenge to them)."""
    away = env.create_guild()
    channel = away.create_text_channel("elsewhere")
    there = away.add_member(UserHandle(env, env.backend.get_user(person.id)))
    mallory = away.add_member(env.create_user("mallory"))
    posted = answer(await mallory.slash(channel, "crosshairs challenge", opponent=there))
    return there, mallory, posted

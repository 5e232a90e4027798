"""Every picture the bot uploads goes through :func:`picture`, which will not make one
without alt text: the description a screen reader reads, and what a player with images
turned off sees instead (tests/bot/test_bot_pictures.py keeps ``discord.File`` out of
the rest of the bot)."""

from __future__ import annotations

import io

import discord

from rules.words.scene import ALT_TEXT_LIMIT


def fit(description: str, limit: int = ALT_TEXT_LIMIT) -> str:
    """``description`` cut to Discord's limit for alt text, marked with … when cut."""
    text = description.strip()
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def picture(data: bytes, filename: str, description: str) -> discord.File:
    """An upload of ``data`` with ``description`` as its alt text (cut to fit)."""
    text = fit(description)
    if not text:
        raise ValueError(f"{filename}: a picture needs a description for screen readers")
    return discord.File(io.BytesIO(data), filename=filename, description=text)

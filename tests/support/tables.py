"""A table for the simcord suites: a guild with a channel and three people, and the
match thread's board message."""

from __future__ import annotations

from typing import Any

import discord


class Table:
    """A guild with a channel and three people: alice challenges bob, eve watches."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("dogfights")
        self.alice = self.guild.add_member(env.create_user("alice"))
        self.bob = self.guild.add_member(env.create_user("bob"))
        self.eve = self.guild.add_member(env.create_user("eve"))

    def member(self, user_id: int | None) -> Any:
        return next(p for p in (self.alice, self.bob, self.eve) if p.id == user_id)

    async def challenge(self, **options: Any) -> Any:
        result = await self.alice.slash(
            self.channel, "crosshairs challenge", opponent=self.bob, **options
        )
        assert result.response is not None
        return result.response.message

    async def start(self, **options: Any) -> Any:
        invite = await self.challenge(**options)
        await self.bob.click(invite, label="Accept")
        return self.channel.threads[-1]


def board_message(thread: Any) -> discord.Message:
    boards = [m for m in thread.history() if m.content.startswith("**Crosshairs #")]
    assert boards, "no board message in the thread"
    return boards[-1]  # type: ignore[no-any-return]

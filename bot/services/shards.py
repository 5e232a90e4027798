"""Which guilds this process owns when the bot runs as several sharded processes.

Discord sends a guild's events to shard ``(guild_id >> 22) % shard_count``; a process
runs some of the shards, so it owns exactly the guilds of those shards, and with them
every match, series and tournament in them. Only the owner ticks their clocks and
carries on the computer's turns, so nothing happens twice when processes share one
database. Direct messages (no guild) belong to shard 0, as on Discord.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    count: int = 1
    ids: tuple[int, ...] = (0,)

    def shard_of(self, guild_id: int | None) -> int:
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.shard_of(guild_id) in self.ids

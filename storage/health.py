"""What ``crosshairs db check`` reports: SQLite's integrity check, dangling references,
the schema version and every match that cannot be read."""

from __future__ import annotations

from dataclasses import dataclass

from storage import migrations
from storage.db import Database
from storage.matches import MatchRepo, SetAside


@dataclass(frozen=True)
class HealthReport:
    schema_version: int
    integrity: list[str]  # empty: sound
    foreign_keys: list[str]
    set_aside: list[SetAside]

    @property
    def schema_problem(self) -> str | None:
        if self.schema_version > migrations.LATEST:
            return (
                f"schema version {self.schema_version} is newer than this bot "
                f"({migrations.LATEST}); upgrade the bot"
            )
        if self.schema_version < migrations.LATEST:
            return (
                f"schema version {self.schema_version}, this bot uses {migrations.LATEST}: "
                "run `crosshairs db migrate`"
            )
        return None

    @property
    def ok(self) -> bool:
        return not (self.schema_problem or self.integrity or self.foreign_keys or self.set_aside)

    def lines(self) -> list[str]:
        out = [f"schema version: {self.schema_version} (this bot: {migrations.LATEST})"]
        if self.schema_problem:
            out.append(f"problem: {self.schema_problem}")
        out.append("integrity: ok" if not self.integrity else "integrity: FAILED")
        out.extend(f"  {line}" for line in self.integrity)
        out.extend(f"reference: {line}" for line in self.foreign_keys)
        for aside in self.set_aside:
            name = f"match {aside.match_id}" if aside.match_id is not None else "a match"
            out.append(f"unreadable: {name}: {aside.why}")
        out.append("result: ok" if self.ok else "result: problems found")
        return out


async def check(db: Database) -> HealthReport:
    version = await db.schema_version()
    integrity = await db.integrity_check()
    foreign_keys = await db.foreign_key_problems()
    # Matches can only be read with the tables this bot knows.
    readable = 1 <= version <= migrations.LATEST
    set_aside = await MatchRepo(db).scan() if readable else []
    return HealthReport(version, integrity, foreign_keys, set_aside)

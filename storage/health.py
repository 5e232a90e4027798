"""Is the database fit to run on? What ``crosshairs db check`` reports, and the check
the bot makes before it starts (:func:`open_checked`).

Neither ever fails with a traceback because of damage: every problem becomes a line
that says what is wrong, and the report ends with what to do about it.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from storage import migrations
from storage.config import Target, parse_target
from storage.db import Database
from storage.errors import StorageError
from storage.matches import MatchRepo, SetAside
from storage.salvage import salvage

_log = logging.getLogger(__name__)

WHAT_TO_DO = (
    "what to do: stop the bot; restore the latest copy made by `crosshairs db backup`, "
    "or run `crosshairs db salvage {name} NEW_PATH` to copy every readable match, series, "
    "tournament and rating into a fresh database and use that"
)


class DatabaseRefused(StorageError):
    """The bot must not start on this database; the message (one line, for the log)
    says why and what to do."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


@dataclass(frozen=True)
class HealthReport:
    name: str
    schema_version: int | None  # None: it could not be read
    integrity: list[str] = field(default_factory=list)  # empty: sound
    foreign_keys: list[str] = field(default_factory=list)
    set_aside: list[SetAside] = field(default_factory=list)
    unusable: str | None = None  # why the database cannot be used at all

    @property
    def schema_problem(self) -> str | None:
        if self.schema_version is None:
            return None
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
    def damaged(self) -> bool:
        """Damage that a migration cannot mend: restore or salvage."""
        return bool(self.unusable or self.integrity or self.foreign_keys or self.set_aside)

    @property
    def ok(self) -> bool:
        return not (self.damaged or self.schema_problem)

    def lines(self) -> list[str]:
        if self.unusable is not None:
            return [f"problem: {self.unusable}", "result: problems found", self.advice()]
        out = [f"schema version: {self.schema_version} (this bot: {migrations.LATEST})"]
        if self.schema_problem:
            out.append(f"problem: {self.schema_problem}")
        out.append("integrity: ok" if not self.integrity else "integrity: FAILED")
        out.extend(f"  {line}" for line in self.integrity[:20])
        if len(self.integrity) > 20:
            out.append(f"  … and {len(self.integrity) - 20} more")
        out.extend(f"reference: {line}" for line in self.foreign_keys)
        for aside in self.set_aside:
            name = f"match {aside.match_id}" if aside.match_id is not None else "a match"
            out.append(f"unreadable: {name}: {aside.why}")
        out.append("result: ok" if self.ok else "result: problems found")
        if self.damaged:
            out.append(self.advice())
        return out

    def advice(self) -> str:
        return WHAT_TO_DO.format(name=self.name)


async def check(db: Database) -> HealthReport:
    """Every check, each of which reports instead of raising."""
    try:
        version = await db.schema_version()
    except StorageError as exc:
        return HealthReport(db.name, None, unusable=f"the schema cannot be read ({exc})")
    if version == 0:
        return HealthReport(db.name, 0, unusable=f"{db.name} holds no Crosshairs schema")
    try:
        integrity = await db.integrity_check()
    except StorageError as exc:
        integrity = [f"the check itself failed: {exc}"]
    try:
        foreign_keys = await db.foreign_key_problems()
    except StorageError as exc:
        foreign_keys = [f"the check itself failed: {exc}"]
    # Matches can only be read with the tables this bot knows.
    set_aside = await MatchRepo(db).scan() if version <= migrations.LATEST else []
    return HealthReport(db.name, version, integrity, foreign_keys, set_aside)


def _file_problem(target: Target) -> str | None:
    """Why an existing SQLite file cannot be a database, before SQLite opens it."""
    if target.path is None or not target.path.exists():
        return None
    if target.path.is_dir():
        return f"{target} is a directory, not a database file"
    if target.path.stat().st_size == 0:
        return (
            f"{target} exists but is empty (0 bytes): it is not the bot's database. Only a "
            "missing file is created fresh; restore a backup, or delete it to start over"
        )
    return None


async def check_target(target: str | os.PathLike[str] | Target) -> HealthReport:
    """``crosshairs db check``: open without changing anything, check, close."""
    found = target if isinstance(target, Target) else parse_target(target)
    if found.path is not None and not found.path.exists():
        return HealthReport(str(found), None, unusable=f"{found} does not exist")
    problem = _file_problem(found)
    if problem is not None:
        return HealthReport(str(found), None, unusable=problem)
    try:
        db = await Database.open(found, migrate=False)
    except StorageError as exc:
        if found.path is None:
            raise  # a server that cannot be reached is not a damaged database
        return HealthReport(str(found), None, unusable=str(exc))
    async with db:
        return await check(db)


async def open_checked(
    target: str | os.PathLike[str] | Target, *, salvage_damaged: bool = False
) -> Database:
    """What the bot opens at start-up: the database, migrated, if it passes its check.

    A missing SQLite file is created fresh. An empty file, a file without the schema or
    a database that fails its integrity check raises :class:`DatabaseRefused`, unless
    ``salvage_damaged``: then a damaged SQLite file is moved aside and replaced by a
    salvaged copy (what was lost is logged). Matches that cannot be read do not stop the
    start: the game manager reports them."""
    found = target if isinstance(target, Target) else parse_target(target)
    if found.path is not None and not found.path.exists():
        return await Database.open(found)
    problem = _file_problem(found)
    if problem is not None:
        raise DatabaseRefused(problem)
    try:
        db = await Database.open(found, migrate=False)
    except StorageError as exc:
        return await _refuse_or_salvage(found, str(exc), salvage_damaged)
    try:
        version = await db.schema_version()
        # One pass over every page; `db check` also checks each index against its table.
        integrity = await db.integrity_check(quick=True) if version else []
    except StorageError as exc:
        await db.close()
        return await _refuse_or_salvage(found, str(exc), salvage_damaged)
    if version == 0:
        await db.close()
        raise DatabaseRefused(
            f"{found} holds no Crosshairs schema: it is not the bot's database. Only a "
            "missing file is created fresh; point DATABASE_URL/DATABASE_PATH at the bot's "
            "database"
        )
    if integrity:
        await db.close()
        summary = "; ".join(line for line in integrity[:4] if not line.startswith("***"))
        return await _refuse_or_salvage(
            found, f"integrity check failed: {summary}", salvage_damaged
        )
    return await db.migrated()


async def _refuse_or_salvage(target: Target, why: str, salvage_damaged: bool) -> Database:
    advice = WHAT_TO_DO.format(name=target).removeprefix("what to do: stop the bot; ")
    if not salvage_damaged or target.path is None:
        raise DatabaseRefused(
            f"{target} is damaged ({why}); the bot will not start on it: {advice}, "
            "or start with DATABASE_SALVAGE=1"
        )
    stamp = time.strftime("%Y%m%d-%H%M%S")
    damaged = target.path.with_name(f"{target.path.name}.damaged-{stamp}")
    fresh = target.path.with_name(f"{target.path.name}.salvaged-{stamp}")
    report = await salvage(target, Target("sqlite", f"sqlite:///{fresh}", fresh))
    for suffix in ("", "-wal", "-shm"):
        old = Path(f"{target.path}{suffix}")
        if old.exists():
            old.rename(f"{damaged}{suffix}")
    fresh.rename(target.path)
    _log.error(
        "%s was damaged (%s): salvaged, the damaged file kept as %s; %s",
        target,
        why,
        damaged,
        "; ".join(report.lost) or "nothing was lost",
    )
    return await Database.open(target)

"""``crosshairs db``: look after the database file.

* ``migrate``: bring the schema up to date (the bot also does this when it starts);
* ``check``: SQLite's integrity check plus a scan for matches that cannot be read;
* ``backup PATH``: a consistent copy, taken safely while the bot is running;
* ``export-match ID``: print a match as the rules engine's game JSON;
* ``forget-user USER_ID``: anonymise a person on request (:mod:`bot.cli.forget`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bot.cli import forget
from storage import health
from storage.config import ENV_VAR, database_path
from storage.db import Database
from storage.errors import StorageError
from storage.matches import MatchRepo


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("db", help="look after the database file")
    parser.add_argument(
        "--db",
        type=Path,
        default=None,
        metavar="PATH",
        help=f"the database file (default: ${ENV_VAR}, else ./crosshairs.db)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("migrate", help="bring the schema up to date").set_defaults(handler=_migrate)
    actions.add_parser("check", help="check the file and every stored match").set_defaults(
        handler=_check
    )
    backup = actions.add_parser("backup", help="copy the database to a new file")
    backup.add_argument("path", type=Path, metavar="PATH")
    backup.set_defaults(handler=_backup)
    export = actions.add_parser("export-match", help="print a match's game JSON")
    export.add_argument("match_id", type=int, metavar="ID")
    export.set_defaults(handler=_export_match)
    forget.register(actions)


def _path(args: argparse.Namespace) -> Path:
    given: Path | None = args.db
    return given if given is not None else database_path()


def _existing(args: argparse.Namespace) -> Path:
    """The database path, which must exist: opening a missing one would create it."""
    path = _path(args)
    if not path.exists():
        raise StorageError(f"{path} does not exist")
    return path


def _fail(args: argparse.Namespace, exc: Exception) -> int:
    print(f"crosshairs db {args.action}: {exc}", file=sys.stderr)
    return 2


def _migrate(args: argparse.Namespace) -> int:
    async def run() -> tuple[int, int]:
        async with await Database.open(_path(args), migrate=False) as db:
            return await db.migrate()

    try:
        before, after = asyncio.run(run())
    except StorageError as exc:
        return _fail(args, exc)
    if before == after:
        print(f"{_path(args)}: schema version {after}, up to date")
    else:
        print(f"{_path(args)}: schema version {before} -> {after}")
    return 0


def _check(args: argparse.Namespace) -> int:
    async def run() -> health.HealthReport:
        async with await Database.open(_existing(args), migrate=False) as db:
            return await health.check(db)

    try:
        report = asyncio.run(run())
    except StorageError as exc:
        return _fail(args, exc)
    print(f"{_path(args)}:")
    for line in report.lines():
        print(f"  {line}")
    return 0 if report.ok else 1


def _backup(args: argparse.Namespace) -> int:
    async def run() -> None:
        # Not migrated: the copy taken before an upgrade must be of the old file.
        async with await Database.open(_existing(args), migrate=False) as db:
            await db.backup(args.path)

    try:
        asyncio.run(run())
    except StorageError as exc:
        return _fail(args, exc)
    print(f"{_path(args)}: backed up to {args.path}")
    return 0


def _export_match(args: argparse.Namespace) -> int:
    async def run() -> str:
        async with await Database.open(_existing(args), migrate=False) as db:
            return (await MatchRepo(db).get(args.match_id)).snapshot

    try:
        print(asyncio.run(run()))
    except StorageError as exc:
        return _fail(args, exc)
    return 0

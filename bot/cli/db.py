"""``crosshairs db``: look after the database (a SQLite file or a PostgreSQL database).

* ``migrate``: bring the schema up to date (the bot also does this when it starts);
* ``check``: the integrity check plus a scan for matches that cannot be read, with what
  to do about any problem; exit 1 on problems;
* ``backup PATH``: a consistent copy in a new SQLite file, taken safely while the bot runs;
* ``export-match ID``: print a match as the rules engine's game JSON;
* ``copy SRC_URL DST_URL``: move a whole database, e.g. from SQLite into PostgreSQL;
* ``salvage SRC DST``: copy what can be read of a damaged database into a new one;
* ``forget-user USER_ID``: anonymise a person on request (:mod:`storage.forget`).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol, TypeVar

from bot.env import stores_on
from bot.services.departure import Departure, leave_matches
from bot.services.manager import Games
from bot.services.refusal import Refusal
from storage import health
from storage.config import ENV_VAR, URL_VAR, Target, database_url, parse_target
from storage.copy import copy_urls
from storage.db import Database
from storage.errors import StorageError
from storage.forget import Forgotten, forget_user
from storage.matches import MatchRepo
from storage.salvage import salvage

T = TypeVar("T")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("db", help="look after the database")
    parser.add_argument(
        "--db",
        default=None,
        metavar="PATH_OR_URL",
        help=f"a SQLite file or postgresql:// URL (default: ${URL_VAR}, else ${ENV_VAR}, "
        "else ./crosshairs.db)",
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    actions.add_parser("migrate", help="bring the schema up to date").set_defaults(handler=_migrate)
    actions.add_parser("check", help="check the database and every stored match").set_defaults(
        handler=_check
    )
    backup = actions.add_parser("backup", help="copy the database to a new SQLite file")
    backup.add_argument("path", metavar="PATH")
    backup.set_defaults(handler=_backup)
    export = actions.add_parser("export-match", help="print a match's game JSON")
    export.add_argument("match_id", type=int, metavar="ID")
    export.set_defaults(handler=_export_match)
    copy = actions.add_parser("copy", help="copy a whole database into an empty one")
    copy.add_argument("source", metavar="SRC_URL")
    copy.add_argument("dest", metavar="DST_URL")
    copy.set_defaults(handler=_copy)
    rescue = actions.add_parser(
        "salvage", help="copy what can be read of a damaged database into a new one"
    )
    rescue.add_argument("source", metavar="SRC")
    rescue.add_argument("dest", metavar="DST")
    rescue.set_defaults(handler=_salvage)
    forget = actions.add_parser(
        "forget-user", help="anonymise one person's data (a deletion request)"
    )
    forget.add_argument("user_id", type=int, metavar="USER_ID", help="their Discord user id")
    forget.set_defaults(handler=_forget_user)


def _target(args: argparse.Namespace) -> Target:
    given: str | None = args.db
    return parse_target(given if given is not None else database_url())


def _existing(args: argparse.Namespace) -> Target:
    """The database, which must exist: opening a missing file would create it."""
    target = _target(args)
    if target.path is not None and not target.path.exists():
        raise StorageError(f"{target} does not exist")
    return target


def _run(args: argparse.Namespace, work: Callable[[], Awaitable[T]]) -> T | int:
    """Run the command's work; a storage problem is an error message and exit 2."""
    try:
        return asyncio.run(work())  # type: ignore[arg-type]
    except (StorageError, OSError) as exc:
        print(f"crosshairs db {args.action}: {exc}", file=sys.stderr)
        return 2


def _migrate(args: argparse.Namespace) -> int:
    async def run() -> tuple[int, int]:
        async with await Database.open(_target(args), migrate=False) as db:
            return await db.migrate()

    done = _run(args, run)
    if isinstance(done, int):
        return done
    before, after = done
    if before == after:
        print(f"{_target(args)}: schema version {after}, up to date")
    else:
        print(f"{_target(args)}: schema version {before} -> {after}")
    return 0


def _check(args: argparse.Namespace) -> int:
    async def run() -> health.HealthReport:
        return await health.check_target(_existing(args))

    report = _run(args, run)
    if isinstance(report, int):
        return report
    _print_report(f"{report.name}:", report.lines())
    return 0 if report.ok else 1


def _backup(args: argparse.Namespace) -> int:
    async def run() -> None:
        # Not migrated: the copy taken before an upgrade must be of the old database.
        async with await Database.open(_existing(args), migrate=False) as db:
            await db.backup(args.path)

    if _run(args, run) == 2:
        return 2
    print(f"{_target(args)}: backed up to {args.path}")
    return 0


def _export_match(args: argparse.Namespace) -> int:
    async def run() -> str:
        async with await Database.open(_existing(args), migrate=False) as db:
            return (await MatchRepo(db).get(args.match_id)).snapshot

    snapshot = _run(args, run)
    if isinstance(snapshot, int):
        return snapshot
    print(snapshot)
    return 0


class _Report(Protocol):
    def lines(self) -> list[str]: ...


R = TypeVar("R", bound=_Report)


def _into(args: argparse.Namespace, done: str, work: Callable[[], Awaitable[R]]) -> R | int:
    """Run ``work``, which brings the source into the destination, and print what it
    reports (``done``: what it did); a storage problem is exit code 2."""
    report = _run(args, work)
    if not isinstance(report, int):
        where = f"{parse_target(args.source)} into {parse_target(args.dest)}"
        _print_report(f"{done} {where}:", report.lines())
    return report


def _copy(args: argparse.Namespace) -> int:
    copied = _into(args, "copied", lambda: copy_urls(args.source, args.dest))
    return copied if isinstance(copied, int) else 0


def _salvage(args: argparse.Namespace) -> int:
    report = _into(args, "salvaged", lambda: salvage(args.source, args.dest))
    if isinstance(report, int):
        return report
    return 1 if report.lost else 0


def _print_report(head: str, lines: Iterable[str]) -> None:
    print(head)
    for line in lines:
        print(f"  {line}")


def _forget_user(args: argparse.Namespace) -> int:
    async def run() -> tuple[Departure, Forgotten, bool]:
        async with await Database.open(_existing(args)) as db:
            try:
                left = await leave_matches(Games(stores_on(db)), args.user_id)
            except Refusal as exc:
                raise StorageError(f"their matches could not be ended: {exc}") from None
            forgotten = await forget_user(db, args.user_id, frozenset(left.resigned))
            return left, forgotten, await db.scrub()

    done = _run(args, run)
    if isinstance(done, int):
        return done
    left, forgotten, scrubbed = done
    for line in [*left.lines(), *forgotten.lines()]:
        print(f"{_target(args)}: {line}")
    if not scrubbed:
        print(
            f"{_target(args)}: the write-ahead log is still in use by another process; "
            "run this again with the bot stopped to empty it",
            file=sys.stderr,
        )
    return 0

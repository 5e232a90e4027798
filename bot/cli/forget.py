"""``crosshairs db forget-user USER_ID``: anonymise a person on request (docs/admins.md)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from storage.config import database_path
from storage.db import Database
from storage.errors import StorageError
from storage.forget import Forgotten, forget_user


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    forget = actions.add_parser(
        "forget-user", help="anonymise one person's data (a deletion request)"
    )
    forget.add_argument("user_id", type=int, metavar="USER_ID", help="their Discord user id")
    forget.set_defaults(handler=_forget)


def _forget(args: argparse.Namespace) -> int:
    path: Path = args.db if args.db is not None else database_path()

    async def run() -> Forgotten:
        if not path.exists():
            raise StorageError(f"{path} does not exist")
        async with await Database.open(path) as db:
            return await forget_user(db, args.user_id)

    try:
        done = asyncio.run(run())
    except StorageError as exc:
        print(f"crosshairs db forget-user: {exc}", file=sys.stderr)
        return 2
    for line in done.lines():
        print(f"{path}: {line}")
    return 0

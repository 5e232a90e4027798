"""A real PostgreSQL server for the storage tests, from Debian's ``postgresql`` package,
in a temporary directory (initdb, pg_ctl), one per test session, a fresh database per
test. As root the server runs as the ``postgres`` user, since PostgreSQL refuses root."""

from __future__ import annotations

import asyncio
import concurrent.futures
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

T = TypeVar("T")
_names = itertools.count(1)


def run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end from sync code, even inside a running event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def _bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _memory() -> str | None:
    """A folder in memory when the machine has one: every test makes a database of its own
    (about 8 MB of files), and making and deleting them on a disk costs seconds."""
    shm = Path("/dev/shm")
    return str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PgServer:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="crosshairs-pg-", dir=_memory()))
        self.port = _free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.root, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self._as, *args], capture_output=True, text=True, timeout=120, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    def start(self) -> None:
        data = self.root / "data"
        self._run(
            str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--locale=C", "--no-sync",
        )  # fmt: skip
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c max_connections=200"
        )
        self._run(
            str(self.bindir / "pg_ctl"), "-D", str(data), "-o", options,
            "-l", str(self.root / "log"), "-w", "start",
        )  # fmt: skip

    def stop(self) -> None:
        # immediate: the server and its files are thrown away, so the shutdown checkpoint
        # of every test database (20 s and more after a whole run) would buy nothing
        try:
            self._run(
                str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m", "immediate",
                "stop",
            )  # fmt: skip
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        name = f"t{os.getpid()}_{next(_names)}"

        async def create() -> None:
            conn = await asyncpg.connect(self.url())
            try:
                await conn.execute(f"CREATE DATABASE {name}")
            finally:
                await conn.close()

        run_sync(create())
        return self.url(name)


def start_server() -> tuple[PgServer | None, str]:
    """A running server, or None and why not."""
    bindir = _bindir()
    if bindir is None:
        return None, "PostgreSQL is not installed (scripts/setup installs Debian's postgresql)"
    server = PgServer(bindir)
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.SubprocessError, KeyError) as exc:
        shutil.rmtree(server.root, ignore_errors=True)
        return None, f"PostgreSQL could not be started: {exc}"
    return server, ""

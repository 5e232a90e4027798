"""Every test that takes ``target`` or ``db`` runs against both backends: a SQLite file
and a real PostgreSQL server (skipped, with the reason printed, only when PostgreSQL
cannot be installed or started). Loaded as a plugin (pyproject's addopts)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pg_server import PgServer, start_server

from storage.db import Database

BACKENDS = ("sqlite", "postgresql")
_skipped: list[str] = []


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    server, why = start_server()
    if server is None:
        _skipped.append(why)
        pytest.skip(why)
    try:
        yield server
    finally:
        server.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for why in sorted(set(_skipped)):
        terminalreporter.write_line(f"storage tests on PostgreSQL SKIPPED: {why}", yellow=True)


@pytest.fixture(params=BACKENDS)
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The URL of a new, empty database of each backend."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 't.db'}"
    server: PgServer = request.getfixturevalue("pg_server")
    return server.new_database()


@pytest.fixture
async def db(target: str) -> AsyncIterator[Database]:
    async with await Database.open(target) as opened:
        yield opened

"""Kill a writing process at random moments: every step it reported as committed must
survive, and the database must stay sound (both backends)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from storage_testkit import raw

pytestmark = pytest.mark.slow  # seconds each: see tests/support/order.py

CHILD = Path(__file__).with_name("storage_crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS = 25
MATCHES = 12


def _run_and_kill(target: str, rng: random.Random) -> list[tuple[int, int]]:
    """Start the writer, SIGKILL it at a random moment, return the steps it printed."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), target, str(MATCHES)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None
    first = ""
    if rng.random() < 0.25:
        time.sleep(rng.uniform(0.0, 0.3))  # may land during start-up or migration
    else:
        first = proc.stdout.readline()  # it is committing steps now
        time.sleep(rng.uniform(0.0, 0.15))
    os.kill(proc.pid, signal.SIGKILL)
    # The rest is read through the same buffered pipe: communicate() reads the file
    # descriptor beneath it and would miss what readline() had already taken past its
    # line (under load, several lines wait in the pipe), starting mid-line.
    with proc:
        out, err = proc.stdout.read(), proc.stderr.read() if proc.stderr else ""
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err
    # A line cut short by the kill was not fully reported; only whole lines count.
    lines = (first + out).split("\n")[:-1]
    return [(int(a), int(b)) for a, b in (line.split() for line in lines)]


# One statement, so one snapshot: the match rows and their step logs as of one moment.
# Read in two statements, a COMMIT that the killed writer had sent just before its death
# could land on the server between them, and the rows would seem not to agree.
AGREEMENT = (
    "SELECT m.id, m.ply, m.snapshot, COALESCE(s.n, 0), COALESCE(s.top, 0) FROM matches m "
    "LEFT JOIN (SELECT match_id, COUNT(*) AS n, MAX(ply) AS top FROM steps GROUP BY match_id)"
    " s ON s.match_id = m.id"
)


def _settle(target: str) -> None:
    """Wait until the killed writer's server sessions are gone. A COMMIT it sent before
    dying still lands after its death, and the next writer must not start from plies
    read before it lands."""
    others = (
        "SELECT COUNT(*) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    deadline = time.monotonic() + 30
    while raw(target, others) != [(0,)]:
        assert time.monotonic() < deadline, "the killed writer's sessions never ended"
        time.sleep(0.02)


def _check(target: str, acknowledged: dict[int, int]) -> None:
    if target.startswith("sqlite:"):
        assert raw(target, "PRAGMA integrity_check") == [("ok",)]
    else:
        _settle(target)
    rows = {
        int(str(m)): (int(str(ply)), str(snapshot), int(str(logged)), int(str(top)))
        for m, ply, snapshot, logged, top in raw(target, AGREEMENT)
    }
    for match_id, acked in acknowledged.items():
        _, _, logged, top = rows[match_id]
        assert logged == top >= acked, (match_id, acked)
    # Each match row agrees with its step log: they were committed together.
    for ply, snapshot, logged, top in rows.values():
        assert ply == top == logged
        assert len(json.loads(snapshot)["steps"]) == ply


def test_steps_reported_committed_survive_sigkill(target: str) -> None:
    rng = random.Random(20260505)
    acknowledged: dict[int, int] = {}
    for _ in range(KILLS):
        for match_id, ply in _run_and_kill(target, rng):
            acknowledged[match_id] = max(ply, acknowledged.get(match_id, 0))
        _check(target, acknowledged)
    assert sum(acknowledged.values()) > KILLS  # the kills did land among commits

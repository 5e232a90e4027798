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

from storage_testkit import raw

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
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err
    # A line cut short by the kill was not fully reported; only whole lines count.
    lines = (first + out).split("\n")[:-1]
    return [(int(a), int(b)) for a, b in (line.split() for line in lines)]


def _check(target: str, acknowledged: dict[int, int]) -> None:
    if target.startswith("sqlite:"):
        assert raw(target, "PRAGMA integrity_check") == [("ok",)]
    counts = raw(target, "SELECT match_id, COUNT(*), MAX(ply) FROM steps GROUP BY match_id")
    logged = {int(str(m)): int(str(n)) for m, n, _ in counts}
    top = {int(str(m)): int(str(p)) for m, _, p in counts}
    for match_id, acked in acknowledged.items():
        assert logged[match_id] == top[match_id] >= acked, (match_id, acked)
    # Each match row agrees with its step log: they were committed together.
    for row_id, ply, snapshot in raw(target, "SELECT id, ply, snapshot FROM matches"):
        assert ply == top.get(int(str(row_id)), 0)
        assert len(json.loads(str(snapshot))["steps"]) == ply


def test_steps_reported_committed_survive_sigkill(target: str) -> None:
    rng = random.Random(20260505)
    acknowledged: dict[int, int] = {}
    for _ in range(KILLS):
        for match_id, ply in _run_and_kill(target, rng):
            acknowledged[match_id] = max(ply, acknowledged.get(match_id, 0))
        _check(target, acknowledged)
    assert sum(acknowledged.values()) > KILLS  # the kills did land among commits

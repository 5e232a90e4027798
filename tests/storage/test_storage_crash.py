"""Kill a writing process at random moments: every step it reported as committed must
survive, and the file must stay sound."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

CHILD = Path(__file__).with_name("storage_crash_child.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS = 25
MATCHES = 12


def _run_and_kill(path: Path, rng: random.Random) -> list[tuple[int, int]]:
    """Start the writer, SIGKILL it at a random moment, return the steps it printed."""
    proc = subprocess.Popen(
        [sys.executable, str(CHILD), str(path), str(MATCHES)],
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


def _check_file(path: Path, acknowledged: dict[int, int]) -> None:
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        for match_id, ply in acknowledged.items():
            stored = conn.execute(
                "SELECT COUNT(*), MAX(ply) FROM steps WHERE match_id = ?", (match_id,)
            ).fetchone()
            assert stored[0] == stored[1] and stored[1] >= ply, (match_id, ply, stored)
        # Each match row agrees with its step log: they were committed together.
        for match_id, ply, snapshot in conn.execute("SELECT id, ply, snapshot FROM matches"):
            logged = conn.execute(
                "SELECT COALESCE(MAX(ply), 0) FROM steps WHERE match_id = ?", (match_id,)
            ).fetchone()[0]
            assert ply == logged
            assert len(json.loads(snapshot)["steps"]) == ply
    finally:
        conn.close()


def test_steps_reported_committed_survive_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(20260505)
    acknowledged: dict[int, int] = {}
    for _ in range(KILLS):
        for match_id, ply in _run_and_kill(path, rng):
            acknowledged[match_id] = max(ply, acknowledged.get(match_id, 0))
        _check_file(path, acknowledged)
    assert sum(acknowledged.values()) > KILLS  # the kills did land among commits

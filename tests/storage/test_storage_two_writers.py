"""Two bot processes, each with its own connections, append the same ply to one match
at the same moment: exactly one step is stored and the other process is refused
cleanly, on both backends."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from storage_testkit import duel, raw

from storage.db import Database
from storage.matches import MatchRepo

CHILD = Path(__file__).with_name("storage_race_child.py")
ROOT = Path(__file__).resolve().parents[2]
ROUNDS = 12


def _create(target: str) -> int:
    async def run() -> int:
        async with await Database.open(target) as db:
            return await MatchRepo(db).create(duel())

    return asyncio.run(run())


def test_two_processes_cannot_both_append_the_same_ply(target: str) -> None:
    match_id = _create(target)
    writers = [
        subprocess.Popen(
            [sys.executable, str(CHILD), target, str(match_id), token],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for token in ("c3F", "e6S")
    ]
    try:
        for proc in writers:
            assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
        for ply in range(1, ROUNDS + 1):
            at = time.time() + 0.2  # both wake at the same instant
            for proc in writers:
                assert proc.stdin is not None
                proc.stdin.write(f"{ply} {at}\n")
                proc.stdin.flush()
            answers = sorted(proc.stdout.readline().strip() for proc in writers if proc.stdout)
            assert answers == [f"ok {ply}", f"refused {ply}"], answers
    finally:
        for proc in writers:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=30)
    assert all(proc.returncode == 0 for proc in writers)
    steps = raw(target, "SELECT ply FROM steps WHERE match_id = ? ORDER BY ply", (match_id,))
    assert [r[0] for r in steps] == list(range(1, ROUNDS + 1))
    assert raw(target, "SELECT ply FROM matches WHERE id = ?", (match_id,)) == [(ROUNDS,)]

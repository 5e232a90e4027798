"""Find, report and end the processes a test run left running.

``scripts/test`` marks its run in the environment (``CROSSHAIRS_TEST_RUN``), which every
process it starts inherits: bots, their worker pools, PostgreSQL servers, browsers. When
the run is over this waits a little for them to finish ending, then kills the rest and
names them: a test or benchmark that leaves a process behind is a bug to fix.

Usage: python scripts/leftovers.py MARK [GRACE_SECONDS]; exit 1 when any was left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

VARIABLE = "CROSSHAIRS_TEST_RUN"


def marked(mark: str) -> dict[int, str]:
    """The running processes started under ``mark``, with their command lines."""
    wanted = f"{VARIABLE}={mark}".encode()
    found: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if wanted not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue  # it has ended; only its parent's wait is missing
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # ended while we looked, or not ours to read
        found[int(entry.name)] = command.strip()[:200]
    return found


def main(argv: list[str]) -> int:
    mark = argv[1]
    grace = float(argv[2]) if len(argv) > 2 else 15.0
    deadline = time.monotonic() + grace
    while (left := marked(mark)) and time.monotonic() < deadline:
        time.sleep(0.5)
    if not left:
        return 0
    print(f"leftovers: {len(left)} processes the run started were still running:")
    for pid, command in sorted(left.items()):
        print(f"  {pid}: {command}")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    print("leftovers: killed them; the test or benchmark that started them must end them")
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

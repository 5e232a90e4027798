"""The real bot as a separate process (``python -m bot``) pointed at a local Discord.

The bot is configured only through its environment, as a deployment would be: a token,
``DISCORD_API_BASE`` naming the local server, its own database. Its log goes to a file
that tests print when something fails.

Several processes can share the work as sharded deployments do: give each
``shard_ids`` of the server's shard count (and one shared ``database_url``); each is
started when all of its own shards are connected.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from bot.pacing import PER_SECOND
from localcord import zygote
from localcord.server import LocalDiscord

REPO = Path(__file__).resolve().parent.parent


class BotProcess:
    # Set by the test suite: bots are forked from a zygote that imported the bot once
    # (localcord/zygote.py), unless ``fresh``.
    fork: ClassVar[bool] = False

    def __init__(
        self,
        server: LocalDiscord,
        workdir: Path,
        extra_env: dict[str, str] | None = None,
        *,
        shard_ids: Sequence[int] | None = None,
        database_url: str | None = None,
        name: str = "bot",
        fresh: bool = False,
    ) -> None:
        self.server = server
        self.database = workdir / "bot.db"
        self.database_url = database_url
        self.log_path = workdir / f"{name}.log"
        self.extra_env = extra_env or {}
        count = server.gateway.shard_count
        # sharded when the server is: by default this one process runs every shard
        self.shard_ids = list(range(count) if shard_ids is None else shard_ids)
        self.fresh = fresh
        self.process: asyncio.subprocess.Process | zygote.Forked | None = None
        self.starts = 0

    def env(self) -> dict[str, str]:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("DISCORD_", "DEV_GUILD", "SHARD_", "DATABASE_", "METRICS_"))
        }
        count = self.server.gateway.shard_count
        if count > 1 or self.shard_ids != [0]:
            env |= {
                "SHARD_COUNT": str(count),
                "SHARD_IDS": ",".join(str(s) for s in self.shard_ids),
            }
        if self.database_url is not None:
            env["DATABASE_URL"] = self.database_url
        return (
            env
            | {
                "DISCORD_TOKEN": "localcord-test-token",
                "DISCORD_API_BASE": self.server.api_base,
                "DATABASE_PATH": str(self.database),
                "COMPUTER_PACE": "0",
                # the identify spacing this local Discord enforces (its rate scale)
                "IDENTIFY_SPACING_SECONDS": str(self.server.gateway.identify_spacing),
                # and the global limit it counts in windows shortened by the same scale
                "REST_PER_SECOND": str(round(PER_SECOND / self.server.limits.scale)),
                # At the loop's own priority: below it, the workers of a test's bot lose
                # to whatever else keeps the machine's cores busy (nice 5 gets a quarter
                # of a core against one busy process) and the test waits on its boards.
                "WORKER_NICENESS": "0",
                "LOG_LEVEL": "INFO",
                "PYTHONUNBUFFERED": "1",
            }
            | self.extra_env
        )

    async def start(self, timeout: float = 30.0) -> None:
        """Start the bot and wait until each of its shards has identified on the
        gateway."""
        gateway = self.server.gateway
        for shard in self.shard_ids:
            # a shard's old session (a killed process's) must not count as connected
            old = gateway.current.pop(shard, None)
            if old is not None:
                old.detach()
        gateway.identified.clear()
        self.starts += 1
        with self.log_path.open("a") as log:
            log.write(f"\n===== start {self.starts} =====\n")
        # The working directory is the repository, so the bot finds its own .env there;
        # the environment above wins over it, as it does for any deployment.
        if self.fork and not self.fresh:
            self.process = await asyncio.to_thread(
                zygote.shared().spawn, self.env(), REPO, self.log_path
            )
        else:
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "bot",
                cwd=REPO,
                env=self.env(),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=self.log_path.open("ab"),
                stderr=asyncio.subprocess.STDOUT,
            )
        waiting = asyncio.ensure_future(gateway.wait_for_shards(self.shard_ids, timeout))
        exited = asyncio.ensure_future(self.process.wait())
        done, _ = await asyncio.wait(
            {waiting, exited}, timeout=timeout, return_when="FIRST_COMPLETED"
        )
        waiting.cancel()
        exited.cancel()
        if waiting not in done:
            raise RuntimeError(f"the bot did not connect; its log:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no clean-up, no goodbye, as when a machine dies."""
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGKILL)

    async def stop(self) -> None:
        """SIGTERM, as a deployment stops it; killed if it has not closed in 10 s."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), 10)
        except TimeoutError:
            process.kill()
            await process.wait()

    async def wait_killed(self) -> None:
        if self.process is not None:
            await self.process.wait()

    def tree(self) -> set[int]:
        """The processes the bot started (its worker pool, the pool's forkserver and
        resource tracker), found through /proc."""
        if self.process is None:
            return set()
        return descendants(self.process.pid)

    def cpu(self) -> tuple[float, float]:
        """CPU seconds so far of the bot's event loop (its main thread) and of the
        processes below it that are alive now (the worker pool): CPU time, unlike a
        wall-clock measure, does not grow when the machine is busy with other work."""
        if self.process is None:
            return 0.0, 0.0
        pid = self.process.pid
        return _cpu(Path(f"/proc/{pid}/task/{pid}/stat")), sum(
            _cpu(Path(f"/proc/{child}/stat")) for child in self.tree()
        )

    def log(self, tail: int | None = 12000) -> str:
        """The end of what the bot printed (``tail`` characters, ``None`` for all); the
        end may begin mid-line."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return text if tail is None else text[-tail:]


def descendants(pid: int) -> set[int]:
    """Every living process below ``pid``."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (state := _stat(int(entry.name))) is not None:
            children.setdefault(state[1], []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def living(pids: set[int]) -> set[int]:
    """Those of ``pids`` that still run (a zombie has ended: it only waits to be reaped)."""
    return {pid for pid in pids if (state := _stat(pid)) is not None and state[0] != "Z"}


def _cpu(stat_file: Path) -> float:
    """User plus system CPU seconds in a /proc stat file; 0 once the process is gone."""
    try:
        fields = stat_file.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # utime and stime are the 14th and 15th fields, the 12th and 13th after the name
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None once it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name in parentheses may itself hold spaces and parentheses
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[1])

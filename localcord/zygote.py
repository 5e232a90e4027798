"""Bot processes forked from one that has imported the bot already: for the test suite.

A bot process spends most of its start importing (discord.py and aiohttp among much
else: an exec'd start cost 1.3 CPU-seconds, a forked one 0.3), and the suite starts well
over a hundred on a 2-core machine.
The zygote, started once per test process, imports the bot's modules and then forks a
child for each start. The child sets the environment, working directory and log it was
given, and runs what ``python -m bot`` runs (:mod:`runpy`), or ``python -m launcher``
(the playground, for the browser tests): its own process, with its own pid, signals,
children (its worker pool's forkserver is a fresh interpreter, as always), exit status
and atexit. Only the imports were shared, and what every bot builds the same way as it
starts: its emojis' pictures, and the first board at each size it draws in its own
process (the grid under every board of a size; 0.1 CPU-s at the tests' 384 px, 0.9 at
1,024), drawn in the zygote before the first child that asks for that size, so that
each later one inherits it instead of drawing it again. Deployments, the playground run
by a person and the benchmarks start fresh interpreters
(:class:`localcord.botproc.BotProcess` forks only where the suite sets
``BotProcess.fork``); so do the test of a stop
(``tests/e2e/test_e2e_stop.py``) and the newcomer's first playground
(``tests/e2e/test_e2e_playground.py``).

The two speak JSON lines over a socket pair: ``{"env", "cwd", "log", "module", "args"}``
asks for a child, ``{"pid"}`` answers, and ``{"exit", "code"}`` tells of each child
reaped (only the zygote, its parent, can). The zygote ends when its socket closes.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import importlib
import json
import os
import queue
import runpy
import selectors
import signal
import socket
import subprocess
import sys
import threading
import traceback
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
# what `python -m bot` imports (bot/__main__.py) and `python -m launcher` beyond it (the
# playground), loaded before any fork
PRELOAD = ("bot.app", "launcher.main", "localcord.playground")


class Forked:
    """A child of the zygote, seen as :class:`asyncio.subprocess.Process` is."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._lock = threading.Lock()
        self._waiting: list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]] = []
        self._ended = threading.Event()

    def poll(self) -> int | None:
        return self.returncode

    def wait_blocking(self, timeout: float) -> int:
        """As :meth:`subprocess.Popen.wait`, for a caller without an event loop."""
        if not self._ended.wait(timeout):
            raise TimeoutError(f"process {self.pid} still runs after {timeout} s")
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        with self._lock:
            if self.returncode is not None:
                return self.returncode
            self._waiting.append((loop, future))
        return await future

    def ended(self, code: int) -> None:
        """Told by the zygote's reader thread."""
        with self._lock:
            self.returncode = code
            waiting, self._waiting = self._waiting, []
        self._ended.set()
        for loop, future in waiting:
            # the test whose loop waited may be over; nobody waits any more then
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, code)


def _settle(future: asyncio.Future[int], code: int) -> None:
    if not future.done():
        future.set_result(code)


class Zygote:
    """The test process's side: start it, ask it for bots, close it."""

    def __init__(self) -> None:
        mine, theirs = socket.socketpair()
        self._process = subprocess.Popen(
            [sys.executable, "-u", "-m", "localcord.zygote", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        theirs.close()
        self.pid = self._process.pid
        self._socket = mine
        self._reader = mine.makefile("rb")
        self._asking = threading.Lock()
        self._answers: queue.Queue[Forked | None] = queue.Queue()
        self._children: dict[int, Forked] = {}
        threading.Thread(target=self._read, name="zygote", daemon=True).start()

    def spawn(
        self, env: dict[str, str], cwd: Path, log: Path, module: str = "bot", *args: str
    ) -> Forked:
        """A process as ``python -m <module> <args>`` (the bot's, or the playground's
        ``launcher``) in ``cwd`` with exactly ``env``, its output appended to ``log``."""
        request = {"env": env, "cwd": str(cwd), "log": str(log), "module": module, "args": args}
        with self._asking:
            self._socket.sendall((json.dumps(request) + "\n").encode())
            forked = self._answers.get(timeout=60)
        if forked is None:
            raise RuntimeError("the zygote ended")
        return forked

    def _read(self) -> None:
        for line in self._reader:
            said = json.loads(line)
            if "pid" in said:
                # registered here, before the asker hears of it: its end may come next
                forked = self._children[said["pid"]] = Forked(said["pid"])
                self._answers.put(forked)
            elif (ended := self._children.pop(said["exit"], None)) is not None:
                ended.ended(said["code"])
        self._answers.put(None)

    def alive(self) -> bool:
        return self._process.poll() is None

    def close(self) -> None:
        """End the zygote (its children end with their tests)."""
        self._socket.shutdown(socket.SHUT_RDWR)  # the reader's file holds the socket open
        self._socket.close()
        self._process.wait(10)


class _Shared:
    """This process's zygote, once started."""

    zygote: Zygote | None = None
    lock = threading.Lock()


def shared() -> Zygote:
    """This process's zygote, started at the first bot that asks for it."""
    with _Shared.lock:
        if _Shared.zygote is None or not _Shared.zygote.alive():
            _Shared.zygote = Zygote()  # (again, if one ended: the next test's bot starts)
        return _Shared.zygote


def close_shared() -> None:
    with _Shared.lock:
        if _Shared.zygote is not None:
            _Shared.zygote.close()
            _Shared.zygote = None


# ---------------------------------------------------------------- the zygote itself


def main(fd: int) -> None:
    for module in PRELOAD:
        importlib.import_module(module)
    from render.glyphs import glyphs  # (the zygote's alone, as _warm's)

    glyphs()  # the application's emojis, which each bot's start checks against Discord's
    # a fork copies only the thread that forks: none may hold a lock meanwhile
    assert threading.active_count() == 1, threading.enumerate()
    channel = socket.socket(fileno=fd)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_write, False)
    signal.set_wakeup_fd(wake_write)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a reaped child wakes the loop
    watching = selectors.DefaultSelector()
    watching.register(channel, selectors.EVENT_READ)
    watching.register(wake_read, selectors.EVENT_READ)
    pending = b""
    while True:
        for key, _ in watching.select():
            if key.fileobj is wake_read:
                os.read(wake_read, 512)
                _reap(channel)
                continue
            data = channel.recv(65536)
            if not data:
                return
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                _warm(request["env"])
                assert threading.active_count() == 1, threading.enumerate()  # (as above)
                pid = os.fork()
                if pid == 0:
                    watching.close()
                    for fd_open in (wake_read, wake_write, channel.fileno()):
                        os.close(fd_open)
                    _child(request)
                _tell(channel, {"pid": pid})


def _warm(env: dict[str, str]) -> None:
    """Draw a first board at each size a bot with ``env`` draws at in its own process
    (``WORKERS=0``), once per size. A bot with worker processes draws nothing itself:
    its workers are fresh interpreters, and each draws its own first board."""
    # here, not at the top: a test process imports this module for Zygote alone
    from bot.config import Config, ConfigError
    from bot.services.jobs import start_worker

    try:
        config = Config.from_env(env)
    except ConfigError:
        return  # the child says what is wrong, as `python -m bot` would
    if config.workers:
        return
    sizes = [s for s in config.drawn_sizes if s not in _warmed]
    if sizes:
        try:
            start_worker(0, sizes)  # what a worker process does as it starts
        except Exception:  # the child meets it again, and reports it as the bot would
            traceback.print_exc()
            return
        _warmed.update(sizes)


_warmed: set[int] = set()


def _reap(channel: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _tell(channel, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})


def _tell(channel: socket.socket, message: dict[str, Any]) -> None:
    channel.sendall((json.dumps(message) + "\n").encode())


def _child(request: dict[str, Any]) -> None:
    """Become ``python -m <module>`` as the request describes; never returns."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(nothing)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["-m", *request["args"]]  # runpy puts the module's path first
    code = 0
    try:
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if isinstance(exc.code, int):
            code = exc.code
        elif exc.code is not None:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    atexit._run_exitfuncs()  # as the interpreter would at its exit
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main(int(sys.argv[1]))

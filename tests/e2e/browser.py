"""Driving the playground in Debian's Chromium: the browser's flags, the skip mark for a
machine without it, the playground process as a fixture, and acting as a pilot."""

from __future__ import annotations

import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from playwright.async_api import Page as AsyncPage
from playwright.async_api import async_playwright
from playwright.sync_api import Locator, Page

from localcord import zygote
from localcord.botproc import BotProcess

# Debian's Chromium as its headless shell: the same Blink, without the browser around it
# that no test looks at (a third less CPU for the same pages, measured in one run of
# three pages and sixty screenshots each: 3.1 CPU-seconds against 4.6)
CHROMIUM = shutil.which("chromium-headless-shell") or "/usr/bin/chromium-headless-shell"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Where no picture is looked at, none is loaded: a page that decodes every board after
# every press spends a loaded machine's CPU on nothing the test reads.
WITHOUT_PICTURES = [*FLAGS, "--blink-settings=imagesEnabled=false"]
# How long a page waits for what a press or command brings: a condition is waited for,
# and on a machine busy with other work the bot's answer may take a while (a lost press
# shows as an error on the page instead: :func:`press_once` presses again).
WAIT_MS = 120_000
# How often a page checks what a test waits for: Playwright's default is every animation
# frame (60 times a second), CPU the browser spends on nothing a test needs that soon
POLL_MS = 50
STARTUP_SECONDS = 180  # for the playground to start and print its address
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(),
    reason="needs Debian's chromium-headless-shell (scripts/setup installs it)",
)


def shots_dir(tmp_path: Path) -> Path:
    """Where a browser test saves its screenshots: the test's own directory, or
    ``$CROSSHAIRS_SCREENSHOTS`` (``CROSSHAIRS_SCREENSHOTS=docs/images`` renews the ones the
    docs show); a test run never writes into the checkout by itself."""
    chosen = os.environ.get("CROSSHAIRS_SCREENSHOTS")
    return Path(chosen) if chosen else tmp_path


def run_playground(tmp_path: Path, *args: str, fresh: bool = False) -> Iterator[str]:
    """Start ``python -m launcher`` with no token as a newcomer would (and ``args``);
    yield the page's address. Forked from the test process's zygote where the suite forks
    its bots (``localcord/zygote.py``: the same process but for its imports), unless
    ``fresh``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")}
    if not os.environ.get("CROSSHAIRS_SCREENSHOTS"):  # pictures for the docs: full size
        env["BOARD_PIXELS"] = "512"  # else the boards a page shows beside its words
    # the drawing at the loop's own priority, as for the tests' bots (see
    # localcord.botproc): below it, it starves when other work keeps the cores busy; in
    # one worker process, not one per core: each costs its start and its first boards
    env |= {"PYTHONUNBUFFERED": "1", "WORKER_NICENESS": "0", "WORKERS": "1"}
    # what the bot and the local Discord did, each press included, for a failing test's
    # report (the newcomer's own run keeps the playground's quiet default)
    if not fresh:
        env["LOG_LEVEL"] = "INFO"
    said = tmp_path / "playground.out"
    said.touch()
    process: subprocess.Popen[bytes] | zygote.Forked
    # in tmp_path: no .env there, this is the newcomer's first run
    if BotProcess.fork and not fresh:
        process = zygote.shared().spawn(env, tmp_path, said, "launcher", *args)
    else:
        with said.open("w") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "launcher", *args],
                cwd=tmp_path,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        # the page's address, not the live board's (which the bot logs at INFO before it)
        opened = r"Playground: open (http://127\.0\.0\.1:\d+/)"
        while not (found := re.search(opened, said.read_text())):
            if time.monotonic() > deadline or process.poll() is not None:
                pytest.fail("the playground printed no address:\n" + said.read_text())
            time.sleep(0.1)
        assert "DISCORD_TOKEN" in said.read_text()  # it says how to connect to Discord first
        yield found[1]
        process.send_signal(signal.SIGINT)
        assert _wait(process, 15) == 0, said.read_text()  # Ctrl-C stops it cleanly
    finally:
        process.kill()
        # pytest shows this only for a failing test: what the playground's bot said
        print(f"----- the playground's output -----\n{said.read_text()[-40_000:]}")


@asynccontextmanager
async def opened_page(address: str) -> AsyncIterator[AsyncPage]:
    """A page at ``address`` in headless Chromium, for an async test (the playground's
    page with no bot, say: what the page does by itself)."""
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=WITHOUT_PICTURES)
        page = await browser.new_page()
        page.set_default_timeout(WAIT_MS)
        await page.goto(address)
        yield page
        await browser.close()


def _wait(process: subprocess.Popen[bytes] | zygote.Forked, timeout: float) -> int:
    if isinstance(process, zygote.Forked):
        return process.wait_blocking(timeout)
    return process.wait(timeout)


def act_as(page: Page, pilot: str) -> None:
    """Switch person, and wait until the page shows the channel as they see it."""
    chosen = page.select_option("#viewer", label=pilot)[0]
    page.wait_for_selector(f"#messages[data-viewer='{chosen}']", state="attached")


# ------------------------------------------------------------ flying by clicking

COCKPIT = ".message.ephemeral"
LAST_COCKPIT_HTML = f"""() => {{
  const all = document.querySelectorAll("{COCKPIT}");
  return all.length ? all[all.length - 1].innerHTML : "";
}}"""
PLAY = "button[data-custom-id^='xh:play:']"
MENUS = "select.menu[data-custom-id^='xh:cm:']:not([disabled])"
BUTTONS = "button[data-custom-id*=':ck:']:not([disabled])"


BOARD_ID = f"""() => {{
  const plays = document.querySelectorAll("{PLAY}");
  const board = plays.length ? plays[plays.length - 1].closest(".message") : null;
  return board ? board.dataset.id : "";
}}"""


def board_id(page: Page) -> str:
    """The id of the newest board a pilot can press Play on ("" once the game is over)."""
    return str(page.evaluate(BOARD_ID))


def wait_for_next_board(page: Page, before: str) -> None:
    """Wait for the board that follows a finished turn: it comes after the pilot's own
    answer (through that interaction), so for a moment the old one is still the newest."""
    page.wait_for_function(f"(before) => ({BOARD_ID})() !== before", arg=before, polling=POLL_MS)


def pilot_to_move(page: Page) -> str:
    """The pilot the newest board names as the one to fly."""
    text = page.locator(PLAY).last.locator("xpath=ancestor::div[contains(@class,'message')]")
    found = re.search(r"(\w+) \(P\d\) to fly", text.inner_text())
    assert found, text.inner_text()
    return found[1]


def open_cockpit(page: Page) -> None:
    """Press the newest board's Play and wait for the private cockpit with something to
    press. A board that a finished turn has just replaced loses its buttons on Discord's
    side before the page redraws it: that press fails ("This interaction failed") and,
    as a person would, the Play of the board then newest is pressed again."""
    seen = page.eval_on_selector_all(COCKPIT, "all => all.map(m => m.dataset.id)")
    opened = f"""(seen) => [...document.querySelectorAll("{COCKPIT}")].some(m =>
      !seen.includes(m.dataset.id) && m.querySelector("select.menu, button"))"""
    _until_answered(page, "Play", page.locator(PLAY).last.click, opened, seen)


def press_once(page: Page, rng: random.Random) -> tuple[str, bool]:
    """Make one choice in the newest cockpit as a person would: a shot when offered,
    else where a plane ends up from a menu (keeping clear of the board's edge, mostly
    keeping height), else the button that leads on. Returns what was pressed and
    whether it played something. A press the page says failed (Discord refused its
    answer: "This interaction failed") is made again, as a person would."""
    before = page.evaluate(LAST_COCKPIT_HTML)
    pressed, plays, again = _choose(page, rng)
    changed = f"(old) => ({LAST_COCKPIT_HTML})() !== old"
    _until_answered(page, repr(pressed), again, changed, before)
    return pressed, plays


PRESSES = 3  # a person presses again when Discord says the press failed


def _until_answered(
    page: Page, what: str, press: Callable[[], None], answered: str, arg: object
) -> None:
    """``press``, and again while the page says it failed, until the page shows its
    answer (``answered``, a function of ``arg`` in the page), at most PRESSES times."""
    for _ in range(PRESSES):
        page.evaluate("() => { document.querySelector('#error').textContent = ''; }")
        press()
        page.wait_for_function(
            f"""(arg) => ({answered})(arg)
              || document.querySelector("#error").textContent !== ''""",
            arg=arg,
            polling=POLL_MS,
        )
        if page.evaluate(answered, arg):
            return
    pytest.fail(f"{what} failed {PRESSES} times: {page.inner_text('#error')}")


def _choose(page: Page, rng: random.Random) -> tuple[str, bool, Callable[[], None]]:
    """What :func:`press_once` presses: its label, whether it plays, and the press."""
    cockpit = page.locator(COCKPIT).last
    buttons = cockpit.locator(BUTTONS).all()
    labels = [b.inner_text() for b in buttons]
    shots = [b for b, label in zip(buttons, labels, strict=True) if label.startswith("🎯")]
    menus = cockpit.locator(MENUS).all()
    if shots:
        return labels[buttons.index(shots[0])], True, shots[0].click
    if menus:
        options = [
            (menu, o["value"], o["label"], o["title"])
            for menu in menus
            for o in menu.evaluate(
                "s => [...s.options].filter(o => o.value)"
                ".map(o => ({value: o.value, label: o.text, title: o.dataset.description || ''}))"
            )
        ]
        safe = [
            o for o in options if "edge" not in o[3] and "crash" not in o[3] and "💥" not in o[2]
        ]
        level = [o for o in safe if not o[3].startswith("−")]
        menu, value, pressed, _ = rng.choice(
            level if level and rng.random() < 0.7 else safe or options
        )

        def select() -> None:
            menu.select_option(value)

        return pressed, not value.startswith(">"), select
    forward = [
        (b, label)
        for b, label in zip(buttons, labels, strict=True)
        if label not in ("Back", "Step by step") and not label.startswith("Crash")
    ]
    playing = [
        (b, label) for b, label in forward if ":g:" in (b.get_attribute("data-custom-id") or "")
    ]
    button, pressed = (playing or forward or list(zip(buttons, labels, strict=True)))[0]
    return pressed, ":g:" in (button.get_attribute("data-custom-id") or ""), button.click


def cockpit_done(page: Page) -> bool:
    """Whether the newest cockpit has nothing left to press (the turn is done)."""
    cockpit = page.locator(COCKPIT).last
    return cockpit.locator("select.menu, button").count() == 0


def send(page: Page, command: str, **options: str) -> None:
    """Type a slash command, fill its options (a select by its label) and send it."""
    page.fill("#command", command)
    page.dispatch_event("#command", "input")
    for name, value in options.items():
        field = page.locator(f"#options [name={name}]")
        if field.evaluate("f => f.tagName") == "SELECT":
            field.select_option(label=value)
        else:
            field.fill(value)
    page.click("#send")


# ------------------------------------------------------------ lessons and puzzles

EXERCISE = "[data-custom-id^='xh:tm:'], button[data-custom-id^='xh:tk:']"


def newest(page: Page) -> str:
    return str(page.locator(COCKPIT).last.inner_text())


def wait_for_text(page: Page, words: str) -> None:
    page.wait_for_function(
        f"""(words) => {{
          const all = document.querySelectorAll("{COCKPIT}");
          return all.length && all[all.length - 1].innerText.includes(words);
        }}""",
        arg=words,
        polling=POLL_MS,
    )


def play_turn(page: Page, tokens: list[str]) -> None:
    """Fly ``tokens`` (a whole turn) through the cockpit: a plane's button, then the
    menu entry that plays its whole action (the longest one that fits the turn)."""
    left = list(tokens)
    while left:
        cockpit = page.locator(COCKPIT).last
        before = cockpit.inner_html()
        if not left[0].startswith("+"):
            cell = left[0].rstrip("CFSPIX<>-")
            button = cockpit.locator(f"button[data-custom-id$=':n:{cell}']")
            if button.count():
                button.first.click()
                page.wait_for_function(
                    f"""(old) => document.querySelectorAll("{COCKPIT}")
                      [document.querySelectorAll("{COCKPIT}").length - 1].innerHTML !== old""",
                    arg=before,
                    polling=POLL_MS,
                )
                cockpit = page.locator(COCKPIT).last
                before = cockpit.inner_html()
        best: tuple[int, Locator, str] | None = None
        for menu in cockpit.locator("select.menu").all():
            for value in menu.evaluate("s => [...s.options].map(o => o.value).filter(v => v)"):
                size = len(value.split())
                if value.split() == left[:size] and (best is None or size > best[0]):
                    best = (size, menu, value)
        assert best is not None, (left, newest(page))
        size, menu, value = best
        menu.select_option(value)
        page.wait_for_function(
            f"""(old) => document.querySelectorAll("{COCKPIT}")
              [document.querySelectorAll("{COCKPIT}").length - 1].innerHTML !== old""",
            arg=before,
            polling=POLL_MS,
        )
        left = left[size:]

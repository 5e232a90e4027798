"""A newcomer in the playground, in headless Chromium: ``/crosshairs learn``, the first
lesson passed by clicking in the cockpit, then a puzzle solved by clicking. Screenshots
go to the test's directory, or to ``$CROSSHAIRS_SCREENSHOTS`` (``docs/images`` holds the
ones the docs show: ``CROSSHAIRS_SCREENSHOTS=docs/images pytest tests/e2e/...``)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from e2e.browser import (
    CHROMIUM,
    COCKPIT,
    EXERCISE,
    FLAGS,
    WAIT_MS,
    act_as,
    needs_chromium,
    newest,
    play_turn,
    send,
    shots_dir,
    wait_for_text,
)
from rules import position
from rules.training import puzzles, shipped

pytestmark = needs_chromium


def clickable_puzzle() -> puzzles.Puzzle:
    """A puzzle whose planes fly low, so every plane action is one menu entry (a duel
    when there is one)."""
    low = [
        found
        for found in shipped.puzzle_set()
        if all(p.height <= 3 for p in position.parse(found.position).planes())
    ]
    assert low, "no low-flying puzzle in the set"
    return next((found for found in low if found.position.startswith("duel/")), low[0])


def test_a_newcomer_passes_the_first_lesson_and_solves_a_puzzle(
    playground: str, tmp_path: Path
) -> None:
    out = shots_dir(tmp_path)
    chosen = clickable_puzzle()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport={"width": 1100, "height": 1300})
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")
        act_as(page, "Amy")
        try:
            send(page, "/crosshairs learn")
            start = "button[data-custom-id='xh:tr:lesson:enter']"
            page.wait_for_selector(start)
            assert "0 of 23 lessons passed" in newest(page)
            page.screenshot(path=str(out / "learn-course.png"))
            page.click(start)
            page.wait_for_selector(f"{COCKPIT} select.menu[data-custom-id^='xh:tm:']")
            wait_for_text(page, "Goal:")
            page.screenshot(path=str(out / "learn-lesson.png"))
            page.locator(f"{COCKPIT} select.menu").first.select_option("+a3NE")
            wait_for_text(page, "passed!")
            page.screenshot(path=str(out / "learn-passed.png"))
            # the playground's channel column 400 px wide, as a phone shows Discord
            page.set_viewport_size({"width": 655, "height": 1000})
            page.screenshot(path=str(out / "learn-phone.png"))
            page.set_viewport_size({"width": 1100, "height": 1300})

            send(page, "/crosshairs puzzle", number=chosen.id)
            wait_for_text(page, f"Puzzle {chosen.id}")
            page.wait_for_selector(f"{COCKPIT} :is({EXERCISE})")
            page.screenshot(path=str(out / "puzzle.png"))
            play_turn(page, chosen.answer.split())
            wait_for_text(page, "Solved!")
            assert "Puzzle rating 1500 →" in newest(page)
            page.screenshot(path=str(out / "puzzle-solved.png"))
        except Exception:
            print(page.inner_text("body"))  # what the page showed, for the failure report
            raise
        browser.close()
    for name in ("learn-course", "learn-lesson", "learn-passed", "learn-phone", "puzzle"):
        assert (out / f"{name}.png").stat().st_size > 10_000

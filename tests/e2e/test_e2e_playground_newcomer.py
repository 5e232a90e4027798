"""A newcomer's first hour in the playground, on a 400 px phone, in headless Chromium:
lessons 1 to 5, each first answered wrong in a way that looks right (refused, with an
explanation of what that try did), then passed; then the first puzzle, a duel at the
level of those lessons, missed, tried again, and its solution shown on its board.

Screenshots (400 px wide) go to the test's directory, or to ``$CROSSHAIRS_SCREENSHOTS``
(``docs/images`` holds the ones docs/learn.md shows). Every wait is on what the page
shows, never on time."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, ViewportSize, sync_playwright

from bot.services.training import judge_puzzle
from e2e.browser import (
    CHROMIUM,
    COCKPIT,
    EXERCISE,
    FLAGS,
    WAIT_MS,
    needs_chromium,
    newest,
    play_turn,
    send,
    shots_dir,
    wait_for_text,
)
from rules.training import shipped

pytestmark = needs_chromium

PHONE = ViewportSize(width=400, height=900)
# each lesson: the plausible wrong try, what the explanation must say about it, the answer
LESSONS = [
    ("enter", "+a1E", "Your plane placed at a1 faces E, not NE or NW.", "+a3NE"),
    (
        "ramp",
        "a3C +a1NE +a5NW",
        "Flying the plane at a3 used an action of the turn.",
        "+a1NE +a5NW +a6NW",
    ),
    ("climb", "a2C", "the highest, at b3, is at height 1.", "d4C"),
    ("level", "d4C", "Your plane from d4 ended at d5 (height 2, facing E)", "d4F"),
    ("turn", "d4F>", "Your plane at d6 is at height 1 facing SE, not facing NE.", "d4F<"),
]


def press(page: Page, custom_id: str, then: str) -> None:
    page.locator(f"{COCKPIT} button[data-custom-id='{custom_id}']").last.click()
    wait_for_text(page, then)


def a_wrong_turn(puzzle_id: str) -> list[str]:
    """A turn of plain climbs and level flights that misses the puzzle: its answer with
    one plane's action swapped for another (judged here as the bot judges it)."""
    found = shipped.puzzle(puzzle_id)
    answer = found.answer.split()
    for k, token in enumerate(answer):
        cell = token.rstrip("CFSPIX<>-")
        for other in (cell + "C", cell + "F", cell + "C<", cell + "C>"):
            tried = [*answer[:k], other, *answer[k + 1 :]]
            if other != token and _misses(found.position, tried, found.best):
                return tried
    raise AssertionError(f"no simple wrong turn for {puzzle_id}")


def _misses(position_text: str, tokens: list[str], best: int) -> bool:
    try:
        return judge_puzzle(position_text, tokens) < best
    except Exception:  # not a legal turn: try the next
        return False


def test_a_newcomer_learns_from_wrong_tries_and_a_missed_puzzle(
    playground: str, tmp_path: Path
) -> None:
    out = shots_dir(tmp_path)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page(viewport=PHONE)
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.wait_for_selector("#viewer option", state="attached")
        page.click("#menu-toggle")
        chosen = page.select_option("#viewer", label="Amy")[0]
        page.wait_for_selector(f"#messages[data-viewer='{chosen}']", state="attached")
        try:
            send(page, "/crosshairs learn")
            page.wait_for_selector("button[data-custom-id='xh:tr:lesson:enter']")
            page.click("button[data-custom-id='xh:tr:lesson:enter']")
            for n, (lesson, wrong, why, right) in enumerate(LESSONS, start=1):
                wait_for_text(page, "Goal:")
                play_turn(page, wrong.split())
                wait_for_text(page, "Not yet")
                said = newest(page)
                assert why in said and shipped.lesson(lesson).wrong in said, said
                if n in (1, 3):
                    page.screenshot(path=str(out / f"newcomer-lesson-{n}-wrong.png"))
                press(page, f"xh:tr:again:{lesson}", "Goal:")
                play_turn(page, right.split())
                wait_for_text(page, "passed!")
                if n < len(LESSONS):
                    nxt = LESSONS[n][0]
                    press(page, f"xh:tr:lesson:{nxt}", "Goal:")

            send(page, "/crosshairs puzzle")
            wait_for_text(page, "Duel: you fly")  # a duel, the side named
            page.wait_for_selector(f"{COCKPIT} :is({EXERCISE})")
            said = newest(page)
            number = said.split("Puzzle ", 1)[1].split(" ", 1)[0]
            page.screenshot(path=str(out / "newcomer-puzzle.png"))
            play_turn(page, a_wrong_turn(number))
            wait_for_text(page, "Not the best turn")
            assert "counts only your first try" in newest(page)
            page.screenshot(path=str(out / "newcomer-puzzle-missed.png"))
            press(page, f"xh:tr:again:{number}", f"Puzzle {number}")
            assert "· try 2" in newest(page)
            page.wait_for_selector(f"{COCKPIT} button[data-custom-id^='xh:tr:solution:']")
            page.screenshot(path=str(out / "newcomer-puzzle-retry.png"))
            page.locator(f"{COCKPIT} button[data-custom-id^='xh:tr:solution:']").last.click()
            wait_for_text(page, "The solution:")
            said = newest(page)
            assert "Rated by your first try, a miss: puzzle rating 1500 →" in said
            assert "After it and the best replies" in said or "wins the game outright" in said
            page.wait_for_selector(f"{COCKPIT} img[src*='solution']")
            page.screenshot(path=str(out / "newcomer-puzzle-solution.png"), full_page=False)
        except Exception:
            print(page.inner_text("body"))  # what the page showed, for the failure report
            raise
        browser.close()
    for name in ("lesson-1-wrong", "lesson-3-wrong", "puzzle-missed", "puzzle-solution"):
        assert (out / f"newcomer-{name}.png").stat().st_size > 10_000

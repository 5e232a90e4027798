"""A whole duel against the computer in the playground with every picture hidden.

Amy challenges the computer, then plays to the end from the words alone: before
each move they ask for the words-only board (``/crosshairs board words:true``) and pick
their move from the legal moves the ``tokens`` box suggests (autocomplete, rendered as a
datalist). No image is ever visible on the page; only the alt text could stand in.
"""

from __future__ import annotations

from playwright.sync_api import Page, sync_playwright

from e2e.browser import CHROMIUM, POLL_MS, WAIT_MS, WITHOUT_PICTURES, act_as, needs_chromium, send

pytestmark = needs_chromium

HIDE_PICTURES = "img { display: none !important; }"
WORDS = ".message.ephemeral"
NEWEST_WORDS = f"""(seen) => {{
  const all = [...document.querySelectorAll("{WORDS}")].filter(m => !seen.includes(m.dataset.id));
  const words = all.filter(m => m.innerText.includes("in words."));
  return words.length ? words[words.length - 1].innerText : null;
}}"""
SEEN = f"() => [...document.querySelectorAll('{WORDS}')].map(m => m.dataset.id)"


def words_board(page: Page) -> str:
    """Ask for the words-only board and read it (all of it: it may come in parts)."""
    seen = page.evaluate(SEEN)
    send(page, "/crosshairs board", words="yes")
    page.wait_for_function(NEWEST_WORDS, arg=seen, polling=POLL_MS)
    page.wait_for_timeout(200)  # a long board comes in several messages
    fresh = page.eval_on_selector_all(
        WORDS,
        "(all, seen) => all.filter(m => !seen.includes(m.dataset.id)).map(m => m.innerText)",
        seen,
    )
    return "\n".join(fresh)


def suggested_moves(page: Page) -> list[str]:
    """The legal moves the tokens box offers for an empty box."""
    page.fill("#command", "/crosshairs move")
    page.dispatch_event("#command", "input")
    before = page.get_attribute("datalist#choices-tokens", "data-filled") or ""
    page.click("#options input[name=tokens]")
    page.wait_for_function(
        "(b) => { const d = document.querySelector('datalist#choices-tokens');"
        " return d && d.dataset.filled && d.dataset.filled !== b && d.options.length > 0; }",
        arg=before,
        polling=POLL_MS,
    )
    found = page.eval_on_selector_all(
        "datalist#choices-tokens option", "os => os.map(o => o.value)"
    )
    return [str(v) for v in found]


def choose(moves: list[str]) -> str:
    """A shot if there is one, else anything but crashing a plane."""
    shots = [m for m in moves if m.startswith("*")]
    safe = [m for m in moves if not m.endswith("X")]
    return (shots or safe or moves)[0]


def test_a_whole_duel_played_from_the_words_alone_with_pictures_hidden(playground: str) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=WITHOUT_PICTURES)
        page = browser.new_page()
        page.set_default_timeout(WAIT_MS)
        page.goto(playground)
        page.add_style_tag(content=HIDE_PICTURES)
        page.wait_for_selector("#viewer option", state="attached")
        act_as(page, "Amy")

        page.fill("#command", "/crosshairs challenge")
        page.dispatch_event("#command", "input")
        computer = page.eval_on_selector_all(
            "select[name=opponent] option",
            "os => os.map(o => o.textContent).find(t => t.includes('(the computer)'))",
        )
        assert computer, "the computer is not among the opponents"
        send(
            page,
            "/crosshairs challenge",
            opponent=computer,
            planes="3",
            clouds="none",
            strength="Hard",
        )
        page.wait_for_selector("a.channel-link")
        page.click("a.channel-link")
        page.wait_for_selector("button[data-custom-id^='xh:play:']")

        moves_played = 0
        said = ""
        try:
            for _ in range(200):
                said = words_board(page)
                # nothing pictured is visible, yet the words say where every plane is
                assert page.eval_on_selector_all(
                    "img", "all => all.every(i => i.offsetParent === null)"
                )
                if " wins (" in said or "drawn" in said:
                    break
                if "Amy (P1) to fly" not in said:
                    page.wait_for_timeout(500)  # the computer is flying
                    continue
                move = choose(suggested_moves(page))
                seen = page.evaluate(SEEN)
                page.fill("#options input[name=tokens]", move)
                page.click("#send")
                page.wait_for_function(
                    f"(seen) => [...document.querySelectorAll('{WORDS}')].some(m =>"
                    " !seen.includes(m.dataset.id) && !m.innerText.includes('thinking'))",
                    arg=seen,
                    polling=POLL_MS,
                )
                moves_played += 1
        except Exception:
            print(page.inner_text("body"))  # what the page showed, for the failure report
            raise
        assert " wins (" in said or "drawn" in said, said
        assert moves_played >= 3
        browser.close()

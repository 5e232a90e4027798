"""The live board's page in Chromium (Playwright's async API, beside an in-process bot):
Discord's SDK stood in for by a few lines that answer as Discord's client does, and
acting as a pilot by tapping."""

from __future__ import annotations

import random

from e2e.browser import POLL_MS, WAIT_MS
from playwright.async_api import Browser, BrowserContext, Page

# What the page uses of @discord/embedded-app-sdk: the handshake, AUTHORIZE (a code)
# and AUTHENTICATE. The code names the person's token in the test's Discord.
FAKE_SDK = """
export class DiscordSDK {
  constructor(clientId) { this.clientId = clientId; this.instanceId = window.__instance; }
  async ready() {}
  get commands() {
    return {
      authorize: async () => ({ code: "code-" + window.__token }),
      authenticate: async ({ access_token }) => ({ access_token }),
    };
  }
}
"""


async def open_page(
    browser: Browser,
    address: str,
    token: str,
    instance: str,
    size: tuple[int, int],
    ready: str = "#board polygon",
) -> tuple[BrowserContext, Page]:
    """``token``'s page of ``instance``, once it shows ``ready`` (a match's board)."""
    context = await browser.new_context(viewport={"width": size[0], "height": size[1]})
    await context.add_init_script(f"window.__token = {token!r}; window.__instance = {instance!r};")
    await context.route(
        "**/sdk/index.mjs",
        lambda route: route.fulfill(body=FAKE_SDK, content_type="text/javascript"),
    )
    page = await context.new_page()
    await page.goto(address)
    await page.wait_for_selector(ready, timeout=WAIT_MS)
    return context, page


# The choice a person makes: a pose that shoots, else one that keeps the plane (a
# plane's or a placement's), else a crash, a target, or ending the turn or the dive.
CHOICE = """(seed) => {
  const shoots = [...document.querySelectorAll("#board .pose.shoots")];
  const kept = [...document.querySelectorAll("#board .pose:not(.crash)")];
  const poses = kept.length ? kept : [...document.querySelectorAll("#board .pose")];
  const targets = [...document.querySelectorAll("#board .target")];
  const pool = shoots.length ? shoots : poses.length ? poses : targets;
  if (pool.length) {
    const chosen = pool[seed % pool.length];
    chosen.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    return chosen.getAttribute("aria-label");
  }
  const end = document.querySelector("#choices button.success");
  if (end) { end.click(); return end.textContent; }
  return "";
}"""


async def tap(page: Page, rng: random.Random) -> str:
    """One tap, as a person makes it; returns what was tapped."""
    return str(await page.evaluate(CHOICE, rng.randrange(1 << 20)))


async def shows(page: Page, ply: int) -> None:
    """Wait until the page shows the match at ``ply`` (or later)."""
    await page.wait_for_function(
        "(ply) => document.body.dataset.ply && Number(document.body.dataset.ply) >= ply",
        arg=ply,
        timeout=WAIT_MS,
        polling=POLL_MS,
    )

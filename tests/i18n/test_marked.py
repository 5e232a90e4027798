"""New English cannot slip into what the bot says unmarked: a static check of bot/ui and
bot/services (i18n).

What it checks, and what it cannot: the text handed straight to what shows it to people
— a message's content (``send``, ``send_message``, ``edit``, ``edit_original_response``,
``tell``), a button's or menu's words (``Button``, ``SelectOption``, ``Select``: label,
placeholder, description), and the message of an error raised with a text
(``raise SomeError("…")``, which the bot shows to whoever acted) — must be marked
(``_``, ``n_``, ``N_``, ``in_language``) wherever it is a literal or an f-string with
words in it. Text built elsewhere and handed over in a variable is not followed; the
end-to-end test in German (tests/e2e/test_e2e_german.py) catches what that misses on
the game's path.

Every file in scope is marked; a feature added in English fails here until it is.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCOPE = ("bot/ui", "bot/services")
MARKERS = {"_", "n_", "N_", "in_language"}
SENDS = {"send", "send_message", "edit", "edit_original_response", "tell"}
WIDGETS = {"Button", "SelectOption", "Select", "TextInput", "Modal"}
WIDGET_WORDS = {"label", "placeholder", "description", "title"}
WORD = re.compile(r"[A-Za-z]{2,}")
NAMES = re.compile(r"Crosshairs")  # the game's name, the same in every language
# a programming error, logged and never shown as it is (bot/ui/errors.py)
INTERNAL = {"ValueError", "TypeError", "RuntimeError", "AssertionError", "KeyError"}


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def unmarked(node: ast.expr | None) -> Iterator[ast.expr]:
    """The parts of ``node`` that put unmarked English words in front of people."""
    if node is None:
        return
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if WORD.search(NAMES.sub("", node.value)):
            yield node
    elif isinstance(node, ast.JoinedStr):
        words = "".join(
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        )
        if WORD.search(NAMES.sub("", words)):
            yield node
    elif isinstance(node, ast.BinOp):
        yield from unmarked(node.left)
        yield from unmarked(node.right)
    elif isinstance(node, ast.IfExp):
        yield from unmarked(node.body)
        yield from unmarked(node.orelse)


def shown_texts(call: ast.Call) -> Iterator[ast.expr | None]:
    """The arguments of ``call`` that people read."""
    name = _name(call.func)
    if name in SENDS:
        yield call.args[0] if call.args else None
        if name == "tell" and len(call.args) > 1:
            yield call.args[1]
        yield from (k.value for k in call.keywords if k.arg == "content")
    elif name in WIDGETS:
        yield from (k.value for k in call.keywords if k.arg in WIDGET_WORDS)


def findings(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        texts: list[ast.expr | None] = []
        if isinstance(node, ast.Call) and _name(node.func) not in MARKERS:
            texts += shown_texts(node)
        raised = node.exc if isinstance(node, ast.Raise) else None
        if isinstance(raised, ast.Call) and _name(raised.func) not in INTERNAL:
            texts += raised.args[:1]
        for text in texts:
            found += [f"{path.relative_to(ROOT)}:{bad.lineno}" for bad in unmarked(text)]
    return found


def all_findings() -> dict[str, list[str]]:
    out = {}
    for scope in SCOPE:
        for path in sorted((ROOT / scope).rglob("*.py")):
            if found := findings(path):
                out[str(path.relative_to(ROOT))] = found
    return out


def test_what_people_read_is_marked_for_translation() -> None:
    found = all_findings()
    assert not found, f"unmarked English (wrap it in _() and run scripts/translations.py): {found}"


def test_the_check_finds_unmarked_text_and_passes_marked_text(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "async def f(i, who):\n"
        "    await i.response.send_message(f'{who} wins!')\n"
        "    await i.followup.send(_('{who} wins!', who=who))\n"
        "    await tell(i, 'Done.')\n"
        "    await tell(i, '✅ ' + _('Done.'))\n"
        "    raise MatchError('no such seat')\n"
        "    raise MatchError(_('no such seat'))\n"
        "    discord.ui.Button(label='Play', custom_id='xh:play:1')\n"
        "    discord.ui.Button(label=_('Play'), custom_id='xh:play:1')\n"
        "    await channel.send(f'🃏 {who}')\n"
    )
    lines = sorted(int(f.rsplit(":", 1)[1]) for f in _findings_at(source))
    assert lines == [2, 4, 6, 8]


def _findings_at(path: Path) -> list[str]:
    global ROOT  # noqa: PLW0603 - the sample lives outside the repository
    kept, ROOT = ROOT, path.parent
    try:
        return findings(path)
    finally:
        ROOT = kept

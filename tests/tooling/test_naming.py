"""One naming rule for services and one for storage classes (docs/architecture.md, the
code's own words):

- a storage class, one built on a :class:`storage.db.Database`, is named ``<Thing>Repo``
  (``MatchRepo``, ``TurnEventRepo``), and only a storage class is;
- a service, a class of ``bot/services``, is named for what it looks after
  (``Takebacks``, ``Ratings``, ``MatchLife``), never for its kind: no ``Service``,
  ``Manager``, ``Handler`` or ``Helper`` at its end.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("Service", "Manager", "Handler", "Helper")


def classes(folder: Path) -> Iterator[tuple[Path, ast.ClassDef]]:
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                yield path, node


def built_on_a_database(node: ast.ClassDef) -> bool:
    """Whether the class's constructor takes a ``Database``."""
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            hints = [a.annotation for a in item.args.args if a.annotation is not None]
            return any(isinstance(h, ast.Name) and h.id == "Database" for h in hints)
    return False


def storage_misnamed(folder: Path) -> list[str]:
    return [
        f"{path.relative_to(folder.parent)}: {node.name}"
        for path, node in classes(folder)
        if built_on_a_database(node) != node.name.endswith("Repo")
    ]


def services_misnamed(folder: Path) -> list[str]:
    return [
        f"{path.relative_to(folder.parent.parent)}: {node.name}"
        for path, node in classes(folder)
        if (node.name.endswith(KINDS) or node.name.endswith("Repo"))
    ]


def test_storage_classes_are_named_repo() -> None:
    assert storage_misnamed(ROOT / "storage") == []


def test_services_are_named_for_what_they_look_after() -> None:
    assert services_misnamed(ROOT / "bot" / "services") == []


def test_the_rules_refuse_a_class_named_against_them(tmp_path: Path) -> None:
    storage = tmp_path / "storage"
    storage.mkdir()
    (storage / "marks.py").write_text(
        "class Marks:\n    def __init__(self, db: Database) -> None: ...\n"
        "class NoteRepo:\n    pass\n"
        "class MarkRepo:\n    def __init__(self, db: Database) -> None: ...\n"
    )
    assert storage_misnamed(storage) == ["storage/marks.py: Marks", "storage/marks.py: NoteRepo"]
    services = tmp_path / "bot" / "services"
    services.mkdir(parents=True)
    (services / "cards.py").write_text(
        "class CardService: ...\nclass CardManager: ...\nclass Cards: ...\n"
    )
    assert services_misnamed(services) == [
        "bot/services/cards.py: CardService",
        "bot/services/cards.py: CardManager",
    ]

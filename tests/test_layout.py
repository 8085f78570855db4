"""The layering rule of DESIGN.md: a module imports only modules listed below it in this order
(models at the bottom, cli at the top); sources/ and channels/ import only models and each other."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "digest"
ORDER = [
    "models",
    "checks",  # the config checker's vocabulary: types, URLs, addresses, [smtp]
    "config",
    "sources",
    "library",
    "tokens",  # the analyzer: words and phrase bigrams, word ids of many texts, author keys
    "features",  # the TF-IDF space ranking works in: fit, stored form
    "scoring",  # the sparse top-n product behind ranking
    "explanations",  # the words and liked paper behind each pick
    "ranking",
    "render",
    "channels",
    "catalog",  # the paper tables of the state database, under store.py's connection
    "journal",  # the alert, notice and source-outcome tables, under store.py's connection
    "ratings",  # subscribers' ratings and the stored ranking space, under store.py's connection
    "store",
    "outbox",
    "alerts",  # papers that cannot wait for the digest, and quiet-period notices
    "pipeline",
    "scheduler",
    "cli",
]
LEAVES = {"sources", "channels"}  # plugins: they see only the value types


def layer(module: str) -> str:
    """'digest.sources.seeds' -> 'sources'; 'digest' itself (the version) counts as models."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "models"


def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("digest"):
            found.add(node.module)
            found.update(f"{node.module}.{a.name}" for a in node.names if node.module == "digest")
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("digest"))
    return found


def test_every_module_imports_only_lower_layers() -> None:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        own = layer(".".join(rel.parts)) if rel.name != "__init__" or len(rel.parts) > 2 else None
        if own is None or rel.name == "__main__":
            continue
        assert own in ORDER, f"{rel} is in no layer of DESIGN.md"
        for target in imports_of(path):
            other = layer(target)
            if other == "__version__":
                continue
            if own in LEAVES:
                ok = other in {"models", own}
            else:
                ok = other == own or ORDER.index(other) < ORDER.index(own)
            if not ok:
                problems.append(f"{rel} imports {target}")
    assert problems == []


def test_modules_stay_small_and_say_what_they_own() -> None:
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "__main__.py":
            assert text.startswith('"""'), f"{path.name} opens without a docstring"
        assert text.count("\n") <= 400, f"{path.name} has grown past 400 lines"

"""The layout of docs/architecture.md: one folder or module per stage, in data-flow order. A
module imports only its own stage and the stages listed before it (models first, cli last); the
stages that are plugins or one concern (sources, channels, ranking, state) import only models and
their own folder. Every module says what it owns and stays small."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "digest"
ORDER = [
    "models",  # values, errors, a paper's identity
    "config",  # TOML + .env -> Settings; checks.py: the checker's vocabulary
    "periods",  # a subscriber's schedule: period start, next fire
    "sources",  # one module per source kind
    "library",  # a subscriber's own papers
    "ranking",  # tokens, features, background, latent, profiles, interests, scoring, product, ...
    "snippets",  # a paper's text as a digest shows it
    "render",  # Jinja2 -> Message
    "channels",  # one module per channel
    "state",  # the only code that touches the database
    "corpus",  # the stored corpus as ranking's background (the stored space)
    "intake",  # every source read, its papers deduplicated and stored in batches
    "marks",  # the outbox's claims, sent marks and lease renewals, written in groups
    "outbox",  # the delivery loop
    "web",  # the reader-facing HTTP face: rating links, Slack, archive, feed; Matrix replies
    "alerts",  # papers that cannot wait for the digest
    "quiet",  # the notices of quiet periods
    "preview",  # what a run now would make for one reader, and the rule deciding it
    "pipeline",  # the only module that wires the stages
    "scheduler",  # digest serve
    "cli",  # the command
]
# Stages that see only the value types and their own folder.
LEAVES = {"sources", "channels", "ranking", "state"}
# Folders of modules; every other stage is one module.
FOLDERS = {"models", "config", "sources", "ranking", "channels", "state", "web", "cli"}


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


def offences() -> list[str]:
    problems = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent).with_suffix("")
        if len(rel.parts) == 2 and rel.name in ("__init__", "__main__"):
            continue
        own = layer(".".join(rel.parts))
        if own not in ORDER:
            problems.append(f"{rel} is in no stage of docs/architecture.md")
            continue
        for target in sorted(imports_of(path)):
            other = layer(target)
            if other == "__version__":
                continue
            if own in LEAVES:
                ok = other in {"models", own}
            else:
                ok = other in ORDER and ORDER.index(other) <= ORDER.index(own)
            if not ok:
                problems.append(f"{rel} ({own}) imports {target} ({other})")
    return problems


def test_every_module_imports_only_its_own_stage_and_the_stages_before_it() -> None:
    assert offences() == []


def test_the_folder_listing_shows_the_stages() -> None:
    names = {p.stem for p in PACKAGE.iterdir() if p.suffix == ".py" or p.is_dir()}
    names -= {"__init__", "__main__", "__pycache__"}
    assert names == set(ORDER), f"not a stage: {names - set(ORDER)}; missing: {set(ORDER) - names}"
    for stage in FOLDERS:
        assert (PACKAGE / stage / "__init__.py").is_file(), f"{stage}/ is not a package"


def test_modules_stay_small_and_say_what_they_own() -> None:
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "__main__.py":
            assert text.startswith('"""'), f"{path.name} opens without a docstring"
        assert text.count("\n") <= 400, f"{path.name} has grown past 400 lines"

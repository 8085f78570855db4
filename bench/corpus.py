"""The shared arXiv corpus as Papers: where it is read from (`--data PATH`) and its split in time
and category into a tuning half and a reporting half that never meet (bench/splits.py)."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from digest.models import Paper
from digest.sources.files import read_papers

NAME = Path("shared") / "data" / "arxiv-2025.jsonl.gz"
# ../shared/data/ from the working directory (a checkout beside shared/), else beside the repo.
DEFAULTS = (Path("..") / NAME, Path(__file__).resolve().parent.parent.parent / NAME)
DATA: Path | None = next((p for p in DEFAULTS if p.is_file()), None)


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data",
        default=str(DATA) if DATA else None,
        help=f"the arXiv corpus, JSONL or .jsonl.gz (default {DEFAULTS[0]} if it exists)",
    )


def use(path: str | None) -> None:
    """Read the corpus from `path`; a missing one is one line on stderr and exit 2."""
    global DATA
    if not path or not Path(path).is_file():
        where = f"{path}: not found" if path else f"no corpus at {DEFAULTS[0]}"
        print(
            f"{where}: pass --data PATH to the arXiv corpus (arxiv-2025.jsonl.gz, "
            "see shared/data/README.md)",
            file=sys.stderr,
        )
        raise SystemExit(2)
    DATA = Path(path)
    papers.cache_clear()


@functools.cache
def papers() -> tuple[Paper, ...]:
    if DATA is None or not DATA.is_file():
        use(str(DATA) if DATA else None)
    assert DATA is not None
    found = read_papers(str(DATA), lambda problem: None)
    return tuple(sorted(found, key=lambda p: p.id))


def month(paper: Paper) -> str:
    return paper.published.isoformat()[:7] if paper.published else ""


def primary(paper: Paper) -> str:
    return paper.categories[0] if paper.categories else ""

"""The shared arXiv corpus as Papers, split in time: profiles come from the earlier months and
candidates from the later ones, so no benchmark ever ranks a paper its profile was built from."""

from __future__ import annotations

import functools
from datetime import date
from pathlib import Path

from digest.models import Paper
from digest.sources.files import read_papers

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "arxiv-2025.jsonl.gz"
SPLIT = date(2025, 8, 1)  # March-July: profiles; August-October: candidate pools


@functools.cache
def papers() -> tuple[Paper, ...]:
    if not DATA.is_file():
        raise SystemExit(f"{DATA}: not found (the shared corpus; see ../shared/data/README.md)")
    found = read_papers(str(DATA), lambda problem: None)
    return tuple(sorted(found, key=lambda p: p.id))


def split() -> tuple[list[Paper], list[Paper]]:
    """(earlier, later) papers by publication date."""
    earlier = [p for p in papers() if p.published and p.published < SPLIT]
    later = [p for p in papers() if p.published and p.published >= SPLIT]
    return earlier, later


def primary(paper: Paper) -> str:
    return paper.categories[0] if paper.categories else ""

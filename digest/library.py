"""A subscriber's own papers (the `library` key) read into Papers for the profile.

JSONL and CSV in the paper format of DESIGN.md; BibTeX and arXiv id lists come with the
sources work.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Sequence
from pathlib import Path

from digest.models import InputError, Paper, Subscriber
from digest.sources.files import read_papers

log = logging.getLogger("digest.library")

SUFFIXES = (".jsonl", ".jsonl.gz", ".csv")


def load(path: str) -> tuple[Paper, ...]:
    """Read one library file; a missing, unknown or unreadable one is an InputError (exit 2)."""
    file = Path(path)
    if not file.is_file():
        raise InputError(f"{path}: library file not found")
    if not file.name.endswith(SUFFIXES):
        raise InputError(f"{path}: unknown library format; use {', '.join(SUFFIXES)}")
    # One odd entry in a reference-manager export should not cost the subscriber a digest.
    papers = read_papers(path, lambda problem: log.warning("library %s", problem))
    if not papers:
        raise InputError(f"{path}: library holds no papers")
    return tuple(papers)


def with_libraries(subscribers: Sequence[Subscriber]) -> tuple[Subscriber, ...]:
    """Subscribers whose profile carries their library papers, each file read once."""
    cache: dict[str, tuple[Paper, ...]] = {}
    out = []
    for sub in subscribers:
        if sub.library_path:
            if sub.library_path not in cache:
                cache[sub.library_path] = load(sub.library_path)
            profile = dataclasses.replace(sub.profile, library=cache[sub.library_path])
            sub = dataclasses.replace(sub, profile=profile)
        out.append(sub)
    return tuple(out)

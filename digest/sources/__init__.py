"""Paper sources: each kind turns its SourceConfig into Papers, reporting skipped records through
`warn` and raising SourceError only when the whole source cannot be read. SOURCES is the registry.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from digest.models import Paper, SourceConfig, Warn
from digest.sources.files import FilesSource
from digest.sources.seeds import SeedsSource


class Source(Protocol):
    """What the pipeline needs of a source: its config `kind` and a way to fetch its papers."""

    kind: str

    def fetch(self, config: SourceConfig, warn: Warn) -> Iterable[Paper]: ...


_ALL: list[Source] = [SeedsSource(), FilesSource()]
SOURCES: dict[str, Source] = {s.kind: s for s in _ALL}

__all__ = ["SOURCES", "FilesSource", "SeedsSource", "Source"]

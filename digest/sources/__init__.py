"""Paper sources: each kind turns its SourceConfig into Papers, reporting skipped records through
`warn` and raising SourceError only when the whole source cannot be read. SOURCES is the registry.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Protocol

from digest.models import ConfigError, Paper, Settings, SourceConfig, Warn, identity
from digest.sources.arxiv import ArxivSource
from digest.sources.files import FilesSource
from digest.sources.openreview import OpenReviewSource
from digest.sources.progress import Progress
from digest.sources.rss import RssSource
from digest.sources.seeds import SeedsSource


class Source(Protocol):
    """What the pipeline needs of a source: its config `kind` and a way to fetch its papers.

    `now` is the run's clock (windows of days count back from it); `progress` hears how far the
    fetch has got. Papers may be yielded lazily: a SourceError while iterating fails the source
    but keeps the papers yielded before it.
    """

    kind: str

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = ...,
        progress: Progress = ...,
    ) -> Iterable[Paper]: ...


_ALL: list[Source] = [SeedsSource(), FilesSource(), ArxivSource(), RssSource(), OpenReviewSource()]
SOURCES: dict[str, Source] = {s.kind: s for s in _ALL}


def check(settings: Settings) -> None:
    """What each source kind knows about its values beyond their types (config/loader.py checks
    those): URLs, ranges, arXiv categories; and the arXiv ids of `like`. One ConfigError line."""
    for i, source in enumerate(settings.sources):
        rule = getattr(SOURCES[source.kind], "check", None)
        problem = rule(source.options) if rule else None
        if problem:
            key = f"sources[{i}]" + (f".{problem[0]}" if problem[0] else "")
            raise ConfigError(f"{settings.path}: {key}: {problem[1]}")
    for sub in settings.subscribers:
        for i, liked in enumerate(sub.likes):
            if not identity.arxiv_id(liked):
                where = f"subscribers.{sub.name}.like[{i}]"
                problem = f"{liked!r} is not an arXiv id (e.g. '2501.01234')"
                raise ConfigError(f"{settings.path}: {where}: {problem}")


__all__ = [
    "SOURCES",
    "ArxivSource",
    "FilesSource",
    "OpenReviewSource",
    "RssSource",
    "SeedsSource",
    "Source",
    "check",
]

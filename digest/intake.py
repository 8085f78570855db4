"""Intake: every source read in turn, its papers deduplicated against the store and kept
BATCH at a time as they are read, and what each source did (SourceReport)."""

from __future__ import annotations

import dataclasses
import functools
import logging
import re
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import unquote, unquote_plus, urlsplit

from digest.models import (
    Notice,
    Paper,
    Passed,
    Settings,
    SourceConfig,
    SourceError,
    Warn,
    identity,
    redact,
)
from digest.models.errors import BLOT, shortened
from digest.sources import SOURCES, progress
from digest.sources.common import clean
from digest.state import Store

log = logging.getLogger("digest.intake")


@dataclass
class SourceReport:
    name: str
    read: int = 0
    skipped: int = 0
    new: int = 0
    error: str = ""
    seconds: float = 0.0  # time the fetch took
    unchanged: bool = False  # a feed that answered 304 to a conditional GET: nothing new
    unseen_versions: int = 0  # new versions of papers never seen, left out (seen_replacements)


# Papers read, deduplicated against the store and kept per transaction: a source's answer or a
# file of a million lines is never held whole, and a crash keeps the batches stored before it.
BATCH = 5000
SHORT_LEAST = 4  # a feed's key shorter than this is looked for in no link (a word by chance)


def ingest(
    settings: Settings, store: Store | None, now: datetime
) -> tuple[list[SourceReport], list[Paper]]:
    """Read every source; keep the new papers in the store (when given), BATCH at a time as they
    are read, and return none of them. Without a store (a preview), return every paper read. A
    failing source is reported with what it read before failing, and the others go on."""
    reports: list[SourceReport] = []
    papers: list[Paper] = []
    with progress.display() as shown:
        for source in settings.sources:
            report = SourceReport(source.name)
            reports.append(report)

            def warn(problem: str, report: SourceReport = report) -> None:
                if isinstance(problem, Notice):
                    log.warning("%s", problem)
                    return
                report.skipped += 1
                if isinstance(problem, Passed):
                    log.info("%s", problem)
                    return
                # Most say so at their end ("entry 7 has neither title nor abstract, skipped").
                said = problem.endswith("skipped")
                log.warning("%s" if said else "skipped %s", problem)

            started = time.monotonic()
            # A feed is asked whether it changed since its last full read (ETag, Last-Modified);
            # the answer's validators are kept only once its papers are stored. Not for an
            # address holding a secret: it is never stored, and blotted two would share a key.
            address = str(source.options.get("url", ""))
            validators = None
            private = redact(address, settings.secrets) != address
            if store and not private and getattr(SOURCES[source.kind], "conditional", False):
                validators = store.journal.validators(source.name, address)
            asked: dict[str, object] = {} if validators is None else {"validators": validators}
            if store and getattr(SOURCES[source.kind], "catches_up", False):
                asked["last_read"] = store.journal.last_success(source.name)
            with shown.source(source.name) as bar:
                found = _batches(source, warn, now, bar, report, settings.secrets, asked)
                for batch in found:
                    report.read += len(batch)
                    if store is None:
                        papers.extend(batch)
                    else:
                        kept = seen_replacements(batch, store, source.name)
                        report.unseen_versions += len(batch) - len(kept)
                        report.new += store.add_papers(kept, now)
                if validators is not None and store is not None and not report.error:
                    report.unchanged = bool(validators.pop("unchanged", ""))
                    if not report.unchanged:
                        etag, modified = validators.get("etag", ""), validators.get("modified", "")
                        store.journal.remember_validators(source.name, address, etag, modified)
                # A feed URL from the environment is a secret; the summary is kept in the state.
                report.error = shortened(redact(report.error, settings.secrets))
                report.seconds = round(time.monotonic() - started, 3)
                bar.note("FAILED (see the summary)" if report.error else f"{report.new} new")
            log.info(
                "source %s: %d read, %d skipped, %d new in %.2f s",
                source.name,
                report.read,
                report.skipped,
                report.new,
                report.seconds,
            )
    return reports, papers


def unlinked(
    paper: Paper,
    secrets: frozenset[str],
    own: frozenset[str] = frozenset(),
    short: frozenset[str] = frozenset(),
) -> Paper:
    """The paper without a link or key that holds a secret, a `short` one as a whole part (a
    path segment, a query value), or lies under a secret address's folder, and with the secrets
    of its own source (`own`: its address's token, its password) and the addresses under its
    folder blotted from its text: a private feed may build its items' links, ids and
    descriptions ("see https://host/item/3?token=...") from the address it was asked on, and
    links and text reach readers, keys and text the state."""
    if not secrets and not short:
        return paper
    places, near = _secret_places(secrets), _secret_places(own)
    url, code = (
        link if _public(link, secrets, places, short) else ""
        for link in (paper.url, paper.code_url)
    )
    aliases = tuple(a for a in paper.aliases if _public(a, secrets, places, short))
    texts = (paper.title, paper.abstract, paper.venue)
    title, abstract, venue = (_blotted(t, own, near, short) for t in texts)
    authors = tuple(_blotted(a, own, near, short) for a in paper.authors)
    new = (url, code, aliases, title, abstract, venue, authors)
    if new == (paper.url, paper.code_url, paper.aliases, *texts, paper.authors):
        return paper
    return dataclasses.replace(
        paper, url=url, code_url=code, aliases=aliases, title=title, abstract=abstract,
        venue=venue, authors=authors,
    )  # fmt: skip


Places = tuple[tuple[str, str], ...]  # (host, folder) pairs: see _secret_places
_ADDRESS = re.compile(r"https?://[^\s<>\"'`]+", re.I)
_TRAILING = ".,;:!?)]}…"


def _public(
    link: str, secrets: frozenset[str], places: Places, short: frozenset[str] = frozenset()
) -> bool:
    """Whether a link (or a key holding one) may reach a reader: it holds no secret, no short
    one as a whole part of it, nor lies under a secret address's folder on its host."""
    if redact(link, secrets) != link or (short and _holds(link, short)):
        return False
    found = _ADDRESS.search(link) if places else None
    return not (found and _under(found[0], places))


def _holds(link: str, short: frozenset[str]) -> bool:
    """Whether a link, as written or decoded, holds a short key as a whole word: a path
    segment, a query value, a file's name (/files/KEY.pdf), a path parameter (;key=KEY)."""
    decoded = unquote_plus(link)
    return any(_whole(key).search(link) or _whole(key).search(decoded) for key in short)


@functools.lru_cache(maxsize=64)
def _whole(key: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![^\W_]){re.escape(key)}(?![^\W_])")


_QUERY_PARTS = re.compile(r"[&;=]")  # a query's names and values


def _blotted(
    text: str, own: frozenset[str], places: Places, short: frozenset[str] = frozenset()
) -> str:
    """The text with its source's secrets blotted, and every address under its folder or
    holding a `short` one as a whole part ("see https://host/item/1?key=qwertyuiop")."""
    text = redact(text, own)

    def blot(found: re.Match[str]) -> str:
        address = found[0].rstrip(_TRAILING)  # an address may end a sentence
        hidden = bool(places and _under(address, places)) or bool(short and _holds(address, short))
        return BLOT + found[0][len(address) :] if hidden else found[0]

    if places and "://" in text:
        text = _ADDRESS.sub(blot, text)
    # Any address holding a short key, written with a scheme or not (www.lab.org/x?key=...):
    # not the word alone, which a key that short may be.
    return _ADDRESS_LIKE.sub(blot, text) if short else text


_ADDRESS_LIKE = re.compile(r"[^\s<>\"'`]*[/=?#;@][^\s<>\"'`]*")


def _under(address: str, places: Places) -> bool:
    try:
        parts = urlsplit(address)
        host = parts.hostname or ""
    except ValueError:
        return True  # no address a reader could open either
    path = unquote(parts.path).lower() + "/"
    return any(h == host and path.startswith(folder) for h, folder in places)


@functools.lru_cache(maxsize=32)
def _secret_places(secrets: frozenset[str]) -> Places:
    """The host and folder (the path up to its last segment, "/f/ab12cd34ef/") of every secret
    web address whose path has one: a private feed at https://host/f/TOKEN/feed.rss builds its
    items' links under that folder. A token of 10 characters is no secret by itself to redact()
    (a segment that short may be a word, blotted from every log line), yet in the links it went
    to every reader's digest. A folder of no distinctive segment is no secret's place: a public
    feed given as ${VAR} (https://journals.aps.org/prl/recent.xml) keeps its links under /prl/."""
    places = []
    for secret in secrets:
        try:
            parts = urlsplit(secret)
            host = parts.hostname
        except ValueError:
            continue
        folder = unquote(parts.path).lower().rpartition("/")[0] + "/"
        tokened = any(map(_distinctive, folder.split("/")))
        if parts.scheme.lower() in ("http", "https") and host and tokened:
            places.append((host, folder))
    return tuple(places)


def _distinctive(secret: str) -> bool:
    """Could the secret (or a folder's segment) be told from the words of a paper? Not a short
    or word-like one: it mixes letters and digits in 6+ characters, or is long."""
    mixed = any(c.isdigit() for c in secret) and any(c.isalpha() for c in secret)
    return len(secret) >= 12 or (mixed and len(secret) >= 6)


def seen_replacements(papers: list[Paper], store: Store, name: str) -> list[Paper]:
    """The papers without the new versions of papers the store has never seen: those are not
    new (a source opts in with `replacements = true`, and its papers come unmarked)."""
    known = store.papers.known
    kept = [p for p in papers if not p.replacement or known(identity.keys(p)) is not None]
    if len(kept) < len(papers):
        left = len(papers) - len(kept)
        log.info("source %s: %d new versions of unseen papers left out", name, left)
    return kept


def _batches(
    source: SourceConfig,
    warn: Warn,
    now: datetime,
    bar: progress.Progress,
    report: SourceReport,
    secrets: frozenset[str] = frozenset(),
    asked: dict[str, object] | None = None,
) -> Iterator[list[Paper]]:
    """The papers of one source, BATCH at a time; a failure is recorded in the report, the papers
    read before it are kept (a page that failed does not undo the pages before it)."""
    batch: list[Paper] = []
    read = 0
    # Only a secret that can be told from a paper's words is looked for in it: "e" as an SMTP
    # password had been blotted from every stored title and abstract (Th[redacted]...), and
    # every link and key holding an "e" dropped, for good. Log lines still blot every secret.
    address = str(source.options.get("url", ""))
    # A short key of this source's own address (?key=qwertyuiop) is still looked for as a whole
    # part of its items' links, which a private feed builds from the address it was asked on.
    keys = {unquote_plus(v) for v in _QUERY_PARTS.split(urlsplit(address).query)}
    short = frozenset(s for s in secrets if s in keys and len(s) >= SHORT_LEAST)
    secrets = frozenset(secret for secret in secrets if _distinctive(secret))
    # The secrets this source's server knows (its address, what it holds): only these can be in
    # its papers' text, and only these are looked for there (a look per secret and paper). Not
    # any secret a path happens to hold: a password "digest" and a config under /srv/digest/.
    own = frozenset(secret for secret in secrets if secret in address)
    try:
        fetched = SOURCES[source.kind].fetch(source, warn, now=now, progress=bar, **(asked or {}))
        for paper in fetched:
            # A title that moves a reader's cursor or reverses its text is ended here, for
            # every kind of source alike.
            batch.append(unlinked(clean(paper), secrets, own, short))
            bar.advance()
            if len(batch) == BATCH:
                read += len(batch)
                yield batch
                batch = []
    except SourceError as exc:
        report.error = str(exc)
        log.error("source %s failed after %d papers: %s", source.name, read + len(batch), exc)
    except Exception as exc:  # a parser bug on odd data must not cost the other sources
        report.error = " ".join(f"unexpected {type(exc).__name__}: {exc}".split())
        # One line, as for any failed source; the traceback only with -vv, and in the message
        # rather than exc_info, so that the log's Redactor blots the secrets it may hold.
        log.error(
            "source %s failed after %d papers: %s", source.name, read + len(batch), report.error
        )
        log.debug("source %s: where it failed:\n%s", source.name, traceback.format_exc())
    if batch:
        yield batch

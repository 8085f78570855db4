"""The plain values every stage passes to the next: frozen dataclasses of papers, subscribers,
settings, scores, digests, messages and deliveries. Imports nothing from the package."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

# A source reports a skipped record (bad line, unreadable file) with one line naming file and line.
Warn = Callable[[str], None]


class Notice(str):
    """A warning that skips nothing (a file read in a fallback encoding, a feed kept as far as it
    could be read): it is logged like any other, but not counted as skipped."""

    __slots__ = ()


class Passed(str):
    """A skip that is no fault of the source (a withdrawn submission, a journal's notice):
    counted as skipped, logged only with -v, since a venue has thousands every run."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Paper:
    id: str
    title: str
    abstract: str
    authors: tuple[str, ...] = ()
    venue: str = ""
    url: str = ""
    code_url: str = ""
    published: date | None = None
    source: str = ""
    categories: tuple[str, ...] = ()
    # Other ids of the same paper (a DOI beside the arXiv id...): see models/identity.py.
    aliases: tuple[str, ...] = ()
    # A new version of an older paper (arXiv "replace"): new only to a store that has the paper.
    replacement: bool = False

    @property
    def text(self) -> str:
        """What the ranker reads: the title counts twice because it is the densest summary."""
        return f"{self.title}. {self.title}. {self.abstract}"


@dataclass(frozen=True, slots=True)
class SourceConfig:
    kind: str
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ChannelConfig:
    kind: str
    name: str  # unique within a subscriber: "file", "email", "slack-2", ...
    options: Mapping[str, Any] = field(default_factory=dict)
    # Where the config wrote it ("defaults.channels[0]"), for errors found after loading.
    where: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class Profile:
    interests: str = ""
    keywords: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    authors: tuple[str, ...] = ()
    library: tuple[Paper, ...] = ()
    # Papers rated down (`digest feedback ... down`): the profile moves away from them. Papers
    # rated up join `library`. Neither is ever picked again.
    disliked: tuple[Paper, ...] = ()


@dataclass(frozen=True, slots=True)
class Subscriber:
    name: str
    profile: Profile
    channels: tuple[ChannelConfig, ...]
    top_k: int = 10
    min_score: float = 0.05
    schedule: str = "0 8 * * *"
    timezone: str = "UTC"
    alert_threshold: float | None = None
    library_path: str = ""  # read into profile.library by the library module
    likes: tuple[str, ...] = ()  # arXiv ids the subscriber likes, looked up once into the library
    alert_keywords: tuple[str, ...] = ()  # a paper with one of these phrases is an alert
    max_alerts_per_day: int = 5  # in the subscriber's local day; the rest wait for the digest
    on_empty: str = "skip"  # skip | notify: a one-line message when a period has no digest items


_UNSAFE = re.compile(r"[^\w.-]")
NAME_BYTES = 200


def safe_name(name: str) -> str:
    """A subscriber's name as a file name (the file channel's digests): letters, digits, '-', '_',
    '.'; never hidden, never '..'. Two names may share one (the config refuses that)."""
    cleaned = _UNSAFE.sub("_", name).lstrip(".")[:120]
    # File systems count a name's bytes (255 at most), not its characters: 120 CJK characters
    # are 360. Room is left for the suffixes the file channel adds (".eml", "-alert-3.html").
    while len(cleaned.encode("utf-8", "surrogatepass")) > NAME_BYTES:
        cleaned = cleaned[:-1]
    return cleaned or "_"


@dataclass(frozen=True, slots=True)
class Settings:
    path: str  # the config file, for messages
    sources: tuple[SourceConfig, ...]
    subscribers: tuple[Subscriber, ...]
    state_path: str = "state/digest.db"
    templates: str = ""  # a user's template folder; "" for the built-in set
    smtp: Mapping[str, Any] = field(default_factory=dict)
    secrets: frozenset[str] = frozenset()  # values to redact from every log line and message
    delivery: Mapping[str, Any] = field(default_factory=dict)  # [delivery]: attempts, concurrency
    poll_every: float = 1800.0  # [serve]: seconds between `digest serve`'s ingest-and-alert polls
    misfire_grace_time: float = 3600.0  # [serve]: how late a missed scheduled job may still run
    web: Mapping[str, Any] = field(default_factory=dict)  # [web]: base_url, listen, secret; {} off


@dataclass(frozen=True, slots=True)
class Scored:
    paper: Paper
    score: float
    terms: tuple[str, ...] = ()  # the words that made it match, most important first
    because: str = ""  # e.g. "closest to: <liked paper title>"


@dataclass(frozen=True, slots=True)
class Held:
    """An alert match that was not sent on its own (over the daily cap, or it came with the
    digest): the next digest carries it, ahead of its ranked picks."""

    scored: Scored
    reasons: tuple[str, ...]  # why it is an alert, and why it waited


@dataclass(frozen=True, slots=True)
class Digest:
    subscriber: str
    period: str  # the schedule fire time that opened this period, ISO 8601 in the subscriber's zone
    day: date  # the local date of that fire time; names the out/<date>/ folder
    items: tuple[Scored, ...]  # the ranked picks: top_k above min_score
    made_at: datetime
    held: tuple[Held, ...] = ()  # held alerts, the best HELD_MOST, not counted against top_k
    held_left: int = 0  # held alerts past HELD_MOST, left out (said in the digest)


@dataclass(frozen=True, slots=True)
class Entry:
    """One paper as chat channels lay it out; plain unescaped text, each channel escapes its way."""

    rank: int
    title: str
    url: str = ""  # a safe http(s) link or ""
    code_url: str = ""
    authors: str = ""
    venue: str = ""
    score: str = ""
    terms: tuple[str, ...] = ()
    because: str = ""
    snippet: str = ""
    paper_id: str = ""  # the id `digest feedback` and Matrix replies name the paper by
    pdf_url: str = ""
    up_url: str = ""  # signed rating links of the web face ([web]), or ""
    down_url: str = ""
    section: str = ""  # a heading chat channels show before this paper (held alerts, picks)


@dataclass(frozen=True, slots=True)
class Message:
    subject: str
    text: str
    html: str
    # For chat channels (Slack blocks, Matrix events): a title line, one Entry per paper, a
    # closing context line. A message without entries is sent as its text.
    heading: str = ""
    entries: tuple[Entry, ...] = ()
    footer: str = ""
    # The web face's links ([web]): this message in the browser, and the one-click unsubscribe.
    view_url: str = ""
    unsubscribe_url: str = ""

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values, as the outbox stores a message."""
        entries = [{n: getattr(e, n) for n in Entry.__dataclass_fields__} for e in self.entries]
        return {
            "subject": self.subject,
            "text": self.text,
            "html": self.html,
            "heading": self.heading,
            "entries": [{**e, "terms": list(e["terms"])} for e in entries],
            "footer": self.footer,
            "view_url": self.view_url,
            "unsubscribe_url": self.unsubscribe_url,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        # Rows written before chat entries existed hold only subject, text and html.
        entries = tuple(
            Entry(**{**e, "terms": tuple(e.get("terms", ()))}) for e in data.get("entries", ())
        )
        return cls(**{**data, "entries": entries})


@dataclass(frozen=True, slots=True)
class Delivery:
    """One outbox row: a message for one channel of one subscriber in one period."""

    id: int
    subscriber: str
    period: str
    day: date
    channel: ChannelConfig
    message: Message
    attempts: int = 0
    status: str = "pending"  # pending | sent | dead
    last_error: str = ""
    # A message split into parts (Slack's 50 blocks, Matrix's 64 KiB) is one row: parts_sent is
    # how many the server has; the channel calls progress(n) to persist it before going on, and
    # pace() before each post to keep to the destination's rate.
    parts_sent: int = 0
    purpose: str = "digest"  # digest | alert | notice (a quiet period's one-line message)
    progress: Callable[[int], None] = field(default=lambda n: None, compare=False, repr=False)
    pace: Callable[[], None] = field(default=lambda: None, compare=False, repr=False)
    made: str = ""  # when the outbox row was made
    token: str = ""  # the outbox row's random token ("" in rows made before it existed)

    @property
    def key(self) -> str:
        """The idempotency key a channel hands to its server (Message-ID, Matrix txnId)."""
        # The row id alone repeats in a recreated state file, and so does the digest's identity
        # (subscriber, period, channel) when it is recreated within the period: Gmail dropped the
        # new digest as a copy of the old, a Matrix homeserver gave the old event back. The
        # instant the row was made, and its random token (two states replayed at one --now),
        # tell them apart, and stay the same for every resend.
        ident = f"{self.subscriber}\x1f{self.period}\x1f{self.channel.name}"
        if self.token != "-":  # "-": a row of a state older than these, under its first key
            ident += f"\x1f{self.made}" + (f"\x1f{self.token}" if self.token else "")
        return f"digest-{self.id}-{hashlib.sha256(ident.encode()).hexdigest()[:16]}"


@dataclass(frozen=True, slots=True)
class Receipt:
    channel: str
    detail: str = ""  # where it went: a file path, a message id, an event id

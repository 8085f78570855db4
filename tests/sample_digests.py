"""Digests for the channel tests, rendered by the real templates: plain ones, long ones, and ones
whose titles and abstracts try every trick (markup, mentions, header injection)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from digest import render
from digest.models import ChannelConfig, Delivery, Digest, Held, Message, Paper, Scored

DAY = date(2026, 11, 30)
PERIOD = "2026-11-30T08:00:00+00:00"
EVIL_TITLE = "Fast <b>bold</b> & robust: <script>alert(1)</script> for <!channel> and @here"
EVIL_ABSTRACT = (
    "We ping <!channel>, <!everyone>, @here and @room. <img src=x onerror=alert(1)> "
    "Results & more <a href='javascript:alert(1)'>here</a>. A third sentence follows."
)


# Each paper takes a few of these, so that a ranker (which drops words most papers share) still
# finds every one of them on topic for a subscriber who names them all.
TOPICS = [
    "heterogeneous clients",
    "partial participation",
    "secure aggregation",
    "personalized models",
    "communication compression",
    "differential privacy",
    "asynchronous updates",
    "byzantine robustness",
]
INTERESTS = "Federated learning: " + ", ".join(TOPICS)


def paper(number: int, evil: bool = False) -> Paper:
    return Paper(
        id=f"2611.{number:05d}",
        title=EVIL_TITLE if evil else f"Federated learning under heterogeneity, part {number}",
        abstract=EVIL_ABSTRACT
        if evil
        else (
            f"Paper {number} studies federated learning with {TOPICS[number % 8]} and "
            f"{TOPICS[(3 * number + 1) % 8]}. We bound the drift of local updates under "
            f"{TOPICS[(5 * number + 2) % 8]} and show faster convergence. "
            "Experiments on standard benchmarks confirm the analysis."
        ),
        authors=("Ana Author", "Ben Builder"),
        venue="arXiv cs.LG",
        url=f"https://arxiv.org/abs/2611.{number:05d}?a=1&b=2",
        code_url="javascript:alert(1)" if evil else f"https://github.com/example/p{number}",
    )


def message(count: int = 3, subscriber: str = "ana", evil: bool = False, held: int = 0) -> Message:
    """A digest of `count` ranked picks, after `held` held alerts (papers count+1 on)."""
    items = tuple(
        Scored(paper(n, evil and n == 1), round(0.9 - n / 1000, 3), ("federated", "drift"))
        for n in range(1, count + 1)
    )
    # A reason quotes the paper's own text (its authors): with evil, the tricks are in it too.
    why = ("by " + EVIL_TITLE if evil else "mentions “secure aggregation”", HELD_CAP)
    kept = tuple(
        Held(Scored(paper(n), 0.01, ("aggregation",)), why)
        for n in range(count + 1, count + held + 1)
    )
    digest = Digest(subscriber, PERIOD, DAY, items, datetime(2026, 11, 30, 8, tzinfo=UTC), kept)
    return render.render_digest(digest, render.make_environment())


HELD_CAP = "held: the daily cap of 5 alerts was reached"


def delivery(
    msg: Message, kind: str, options: dict[str, Any], row: int = 1, **extra: Any
) -> Delivery:
    return Delivery(
        id=row,
        subscriber=extra.pop("subscriber", "ana"),
        period=PERIOD,
        day=DAY,
        channel=ChannelConfig(kind, kind, options),
        message=msg,
        **extra,
    )


def papers_jsonl(count: int) -> str:
    """A paper file (the `files` source's JSONL) of `count` on-topic papers."""
    import json

    lines = []
    for n in range(1, count + 1):
        p = paper(n)
        record = {
            "id": p.id,
            "title": p.title,
            "abstract": p.abstract,
            "authors": list(p.authors),
            "categories": ["cs.LG"],
            "published": "2026-11-29",
            "url": p.url,
        }
        lines.append(json.dumps(record))
    return "\n".join(lines) + "\n"

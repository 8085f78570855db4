"""Storing (and, for a preview, merging in memory) one paper that arrives N times under ids of no
known kind (a feed that repeats itself), beside N distinct papers as the baseline, in the same
process: the time should grow with N alike.

    .venv/bin/python -m bench.duplicates [N ...]
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime

from digest.models import Paper
from digest.models.evidence import dedupe
from digest.state import Store

TITLE = "Private federated learning with secure aggregation"  # long enough to key the merge


def stored_in(papers: list[Paper]) -> float:
    """Seconds to add the papers to a new SQLite store."""
    with tempfile.TemporaryDirectory() as folder, Store(f"{folder}/state.db") as store:
        started = time.perf_counter()
        store.add_papers(papers, datetime.now(UTC))
        return time.perf_counter() - started


def merged(papers: list[Paper]) -> float:
    """Seconds to merge the papers in memory (evidence.dedupe, what a preview does)."""
    started = time.perf_counter()
    dedupe(papers)
    return time.perf_counter() - started


def main(argv: Sequence[str] | None = None) -> int:
    sizes = [int(a) for a in (sys.argv[1:] if argv is None else argv)] or [2000, 8000, 20000]
    print(
        "| copies | stored: one paper N times, s | N distinct, s | ratio | merged: N times, s ",
        end="",
    )
    print("| N distinct, s |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        copies = [Paper(f"copy{i:06d}", TITLE, "We study differential privacy.") for i in range(n)]
        distinct = [Paper(f"p{i:06d}", f"Paper {i}", f"We study topic {i}.") for i in range(n)]
        same, apart = stored_in(copies), stored_in(distinct)
        cells = f"{merged(copies):.2f} | {merged(distinct):.2f}"
        print(f"| {n} | {same:.2f} | {apart:.2f} | {same / apart:.1f} | {cells} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

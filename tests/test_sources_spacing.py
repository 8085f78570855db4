"""The spacing between calls to one host, for the whole process: callers in several threads
take turns `interval` apart; other hosts, and callers that ask no spacing, do not wait."""

from __future__ import annotations

import threading
import time
from itertools import pairwise

from digest.sources.spacing import space_out


def calls(host: str, interval: float, threads: int) -> list[float]:
    """When each of `threads` callers, started at once, was let through."""
    starts: list[float] = []

    def call() -> None:
        space_out(host, interval, time.sleep)
        starts.append(time.monotonic())

    workers = [threading.Thread(target=call) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sorted(starts)


def test_callers_in_several_threads_take_turns_an_interval_apart() -> None:
    starts = calls("http://127.0.0.1:18801", 0.15, threads=4)
    assert all(later - earlier >= 0.14 for earlier, later in pairwise(starts))


def test_another_host_does_not_wait_for_the_first() -> None:
    space_out("http://127.0.0.1:18802", 5.0, time.sleep)
    waits: list[float] = []
    space_out("http://127.0.0.1:18803", 5.0, waits.append)
    assert waits == []


def test_the_next_call_waits_what_is_left_of_the_interval() -> None:
    space_out("http://127.0.0.1:18804", 30.0, time.sleep)
    waits: list[float] = []
    space_out("http://127.0.0.1:18804", 30.0, waits.append)
    assert len(waits) == 1 and 29.0 < waits[0] <= 30.0


def test_a_caller_without_an_interval_neither_waits_nor_is_counted() -> None:
    waits: list[float] = []
    space_out("http://127.0.0.1:18805", 0.0, waits.append)
    space_out("http://127.0.0.1:18805", 30.0, waits.append)
    space_out("http://127.0.0.1:18805", 0.0, waits.append)
    assert waits == []

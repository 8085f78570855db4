"""A large fit's tokenizing on two cores: the second half of the texts in a helper process (not a
fork), its word ids mapped onto this process's."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from digest.ranking import tokens

# Tokenizing is most of a large fit: from this many texts on, two processes share it.
PARALLEL_MIN = 8_000


def tokenize_all(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """tokenize(texts), the second half in a helper process on a second core."""
    if len(texts) < PARALLEL_MIN or (os.cpu_count() or 1) < 2:
        return tokens.tokenize(texts)
    half = len(texts) // 2
    with ThreadPoolExecutor(1) as waiter:  # the helper starts while this process tokenizes
        theirs = waiter.submit(_in_helper, texts[half:])
        words, ids, ends = tokens.tokenize(texts[:half])
        their_words, their_ids, their_ends = theirs.result()
    # Their word ids -> ours: words first seen over there get the next ids.
    mine = {w: i for i, w in enumerate(words)}
    remap = np.array([mine.setdefault(w, len(mine)) for w in their_words] + [-1], np.int32)
    words = list(mine)
    return (
        words,
        np.concatenate([ids, remap[their_ids]]),  # -1 indexes the appended -1
        np.concatenate([ends, their_ends + len(ids)]),
    )


def _in_helper(texts: Sequence[str]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """tokenize(texts) in a new Python process. Not a fork: a fork would carry (and a container
    would count) this process's whole heap, hundreds of megabytes by the time a large fit runs.
    Where the helper cannot run, this process tokenizes them itself."""
    try:
        helper = subprocess.Popen(
            [sys.executable, "-c", "from digest.ranking.parallel import serve; serve()"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # its failure is this process's to handle, not to show
            env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
        )
    except OSError:
        return tokens.tokenize(texts)
    assert helper.stdin is not None and helper.stdout is not None
    got = None
    try:
        # Pickled whole and written in one call: pickling onto the pipe would take the GIL back
        # for every frame, each time waiting out the tokenizing thread's switch interval.
        payload = pickle.dumps((tokens.STOP_WORDS, list(texts)), pickle.HIGHEST_PROTOCOL)
        with helper.stdin:
            helper.stdin.write(payload)
        del payload
        with helper.stdout:
            got = pickle.loads(helper.stdout.read())
    except (OSError, EOFError, pickle.UnpicklingError):
        pass
    finally:  # whatever went wrong here, the helper does not outlive its use
        if helper.poll() is None and got is None:
            helper.kill()
        code = helper.wait()
    return tokens.tokenize(texts) if code != 0 or got is None else got


def serve() -> None:
    """The helper's side: the stop words (a benchmark may change them) and the texts pickled on
    stdin, their tokens.tokenize() pickled on stdout."""
    tokens.STOP_WORDS, texts = pickle.load(sys.stdin.buffer)
    sys.stdout.buffer.write(pickle.dumps(tokens.tokenize(texts), pickle.HIGHEST_PROTOCOL))

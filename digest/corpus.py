"""The stored corpus as ranking's background: the TF-IDF space fitted on every stored paper,
kept in the state database and refitted only when the store has grown enough to move it."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from digest.models import Subscriber
from digest.ranking import Space
from digest.ranking.features import fit, paper_text
from digest.state import Store

log = logging.getLogger("digest.corpus")

# A run refits the space only when the store has grown by this share since the fit (new words
# enter, and document frequencies move, only slowly). A smaller store fits on each run's papers.
REFIT_GROWTH = 0.25
SPACE_MIN_PAPERS = 1000


def ranking_space(store: Store, subscribers: Sequence[Subscriber], now: datetime) -> Space | None:
    """The stored space, refitted on every stored paper when missing, stale or of another
    version; None: too few papers for a space (ranking then fits on the papers it ranks)."""
    count, latest = store.ratings.extent()
    if count < SPACE_MIN_PAPERS:
        return None
    saved = store.ratings.space()
    if saved is not None and latest - saved.through_seq <= REFIT_GROWTH * saved.docs:
        space = Space.from_bytes(saved.data)
        if space is not None:
            return space
    texts = [paper_text(p) for p in store.ratings.papers_through(latest)]
    wishes = [s.profile.interests for s in subscribers]
    wishes += [k for s in subscribers for k in s.profile.keywords]
    space, _ = fit(texts, wishes)
    store.ratings.save_space(space.to_bytes(), latest, len(texts), now)
    log.info("ranking space fitted on %d papers (%d terms)", len(texts), space.size)
    return space

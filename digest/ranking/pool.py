"""A pool too large to hold at once (a day of a million papers), ranked in passes over its blocks:
each pass keeps, per interest, only the papers rank() could still pick, and rank() then ranks
that selection with the whole pool's document frequencies, as one rank() over all of it would."""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

import numpy as np
import scipy.sparse as sp

from digest.models import Paper, Scored, Subscriber
from digest.ranking import interests, latent
from digest.ranking.features import Space, paper_text, shortened
from digest.ranking.interests import CLUSTER_MIN, NEIGHBOURS
from digest.ranking.product import Prepared, candidates, order_of, prepare
from digest.ranking.ranker import CHUNK_CELLS, rank
from digest.ranking.scoring import best_per_row

log = logging.getLogger("digest.ranking")

# Above this many papers a run ranks in passes (pipeline, alerts): a pass holds one block of
# papers with its rows, and what is kept between passes is a few hundred papers per interest.
LARGE_POOL = 50_000

TIES = 16  # candidates fetched beyond those kept, for ties at the cut
Blocks = Callable[[], Iterable[Sequence[Paper]]]  # each call: the pool again, block by block
Allowed = Callable[[Sequence[Paper]], Mapping[str, Collection[str]]]
Extra = Callable[[Subscriber], Callable[[Paper], bool] | None]


class Best:
    """Per product row, the best `n` papers seen so far over the blocks: (score desc, id)."""

    def __init__(self, rows: int, n: int) -> None:
        self.n = n
        self.lists: list[list[tuple[float, str, Paper]]] = [[] for _ in range(rows)]

    def add(
        self, left: sp.csr_matrix, right: sp.csr_matrix, block: Sequence[Paper], rows: range
    ) -> None:
        """Merge the block's best papers for the product rows `left` (rows[k] is left's row k)."""
        if not self.n or not len(block) or not left.shape[0]:
            return
        order, n = order_of(block), self.n
        # TIES more than kept: unless the last of them ties with the last one kept, every paper
        # tied with that one is among them, and their order by id is exact. Otherwise (copies of
        # one paper, say) this row, on this block, exactly.
        take = min(n + TIES, len(block))
        found, _ = best_per_row(left, right, take, order, CHUNK_CELLS)
        for k, (r, (columns, values)) in enumerate(zip(rows, found, strict=True)):
            if take > n and len(values) == take and values[-1] == values[n - 1]:
                exact = (right @ left[k].T).toarray().ravel()
                within = np.flatnonzero(exact > 0)
                columns = within[np.lexsort((order[within], -exact[within]))]
                values = exact[columns]
            pairs = zip(columns[:n].tolist(), values[:n].tolist(), strict=True)
            self.merge(r, [(v, block[j]) for j, v in pairs])

    def merge(self, r: int, scored: Sequence[tuple[float, Paper]]) -> None:
        if scored:
            merged = self.lists[r] + [(float(v), p.id, p) for v, p in scored]
            merged.sort(key=lambda t: (-t[0], t[1]))
            self.lists[r] = merged[: self.n]

    def papers(self) -> dict[str, Paper]:
        return {i: p for row in self.lists for _, i, p in row}


def rank_pool(
    blocks: Blocks,
    subscribers: Sequence[Subscriber],
    *,
    space: Space,
    top_k: int | None = None,
    thresholds: bool = True,
    allowed_in: Allowed | None = None,
    keep: int | None = None,
    extra: Extra | None = None,
    frequencies: tuple[np.ndarray, int] | None = None,
) -> dict[str, list[Scored]]:
    """rank() over the pool `blocks` gives, read twice. allowed_in(selection): the
    allowed ids per subscriber among the selected papers; keep: papers per interest the passes
    look for (default: the digest's size); extra(subscriber): a test a paper passing is also
    selected for, the best `keep` of them (alerts: a followed author, an alert keyword);
    frequencies: (document frequencies, size) of a larger pool the scores are to be taken on."""
    if not subscribers:
        return {}
    df, count, selected = _first_pass(blocks, subscribers, space)
    if not count:
        return {s.name: [] for s in subscribers}
    if frequencies is not None:
        df = frequencies[0]
    prep = prepare(list(selected.values()), subscribers, space, df)
    if prep is None:
        return {s.name: [] for s in subscribers}
    most = keep or max(top_k if top_k is not None else s.top_k for s in subscribers)
    # What rank() reorders by the latent basis must be among the selected papers too.
    deep = latent.reach(most)
    selected |= _second_pass(blocks, prep, subscribers, count, deep, extra, keep or most)
    papers = list(selected.values())
    log.info("ranking %d of %d papers, selected in passes", len(papers), count)
    allowed = allowed_in(papers) if allowed_in is not None else None
    return rank(
        papers,
        subscribers,
        top_k=top_k,
        thresholds=thresholds,
        allowed=allowed,
        space=space,
        pool_df=df,
    )


def frequencies(blocks: Iterable[Iterable[Paper]], space: Space) -> tuple[np.ndarray, int]:
    """(document frequency of every column of the space, papers) over a pool's blocks."""
    df, count = np.zeros(space.size, np.int64), 0
    for block in blocks:
        x = space.transform([paper_text(p) for p in block])
        df += np.bincount(x.indices, minlength=space.size)
        count += x.shape[0]
    return df, count


def _right(
    prep: Prepared, block: Sequence[Paper], subscribers: Sequence[Subscriber]
) -> sp.csr_matrix:
    """A block of the pool as product columns against the selection's profile rows."""
    x = shortened(prep.space.transform([paper_text(p) for p in block]))
    return prep.right_of(block, x, subscribers)


def _first_pass(
    blocks: Blocks, subscribers: Sequence[Subscriber], space: Space
) -> tuple[np.ndarray, int, dict[str, Paper]]:
    """(the pool's document frequencies, its size, every liked paper's nearest papers): the
    neighbours are what interests.split() groups a library by when the space has no basis."""
    # Only a library large enough to be split into interests looks for its papers' neighbours,
    # and only where there is no latent basis to group it by (interests.placed).
    libraries = [{p.id: p for p in s.profile.library} for s in subscribers]
    grouped = interests.LATENT and space.basis is not None
    liked = list(
        {i: p for lib in libraries if len(lib) >= CLUSTER_MIN for i, p in lib.items()}.values()
    )
    liked = [] if grouped else liked
    library = space.transform([paper_text(p) for p in liked]) if liked else None
    near = Best(len(liked), NEIGHBOURS)
    df = np.zeros(space.size, np.int64)
    count, first = 0, {}
    for block in blocks():
        x = space.transform([paper_text(p) for p in block])
        df += np.bincount(x.indices, minlength=space.size)
        if library is not None:
            near.add(library, x, block, range(len(liked)))
        if not count and block:  # never an empty selection: prepare() needs a pool
            first = {block[0].id: block[0]}
        count += len(block)
    return df, count, first | near.papers()


def _second_pass(
    blocks: Blocks,
    prep: Prepared,
    subscribers: Sequence[Subscriber],
    count: int,
    most: int,
    extra: Extra | None,
    keep: int,
) -> dict[str, Paper]:
    """Every interest's candidates over the whole pool, one more than rank() keeps (the best
    paper left out is its bound), and the best `keep` papers passing extra()."""
    profile = prep.interest.vectors
    exact = prep.left(profile)
    found = Best(profile.shape[0], candidates(count, most) + 1)
    tests = [extra(s) if extra is not None else None for s in subscribers]
    owner = prep.interest.owner
    extras = Best(len(subscribers), keep)
    for block in blocks():
        right = _right(prep, block, subscribers)
        found.add(exact, right, block, range(profile.shape[0]))
        for si, test in enumerate(tests):
            if test is None:
                continue
            hits = [j for j, p in enumerate(block) if test(p)]
            if hits:
                # The subscriber's best interest row decides, as in rank().
                scores = (exact[owner == si] @ right[hits].T).toarray().max(axis=0)
                extras.merge(
                    si, [(v, block[j]) for j, v in zip(hits, scores.tolist(), strict=True)]
                )
    return found.papers() | extras.papers()

"""The stored corpus as ranking's input and background: the new stored papers ranked (in memory,
or in passes over blocks when there are very many), and the TF-IDF space fitted on the stored
papers (an even sample of a large store), kept in the state database and refitted when stale;
and `digest rank`'s contract over paper files, ranked as a run would rank them."""

from __future__ import annotations

import functools
import itertools
import logging
import math
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np

from digest import library, ranking
from digest.channels.email import recipients
from digest.models import InputError, Notice, Paper, Scored, Settings, Subscriber
from digest.ranking import Space
from digest.ranking.background import blended, extended, fitted, stored
from digest.ranking.cases import is_cased
from digest.ranking.features import paper_text
from digest.ranking.profiles import frequent, name_counts
from digest.ranking.tokens import analyze, compound
from digest.ranking.wishes import interests as read_interests
from digest.sources.files import read_papers
from digest.state import Store, reuses
from digest.state.pauses import mailing

log = logging.getLogger("digest.corpus")

# A run refits the space only when the store has grown by this share since the fit (new words
# enter, and document frequencies move, only slowly). A smaller store fits on each run's papers.
REFIT_GROWTH = 0.25
SPACE_MIN_PAPERS = 1000
# A larger store fits its vocabulary on an even sample of this many papers (a fit holds every
# text's counts at once: about 13 kB a paper), then counts every paper's document frequencies
# in blocks; words only a few of a million papers hold are left out, the subscribers' own kept.
SPACE_SAMPLE = 40_000


Gone = Callable[[Subscriber, set[str]], set[str]]  # of these paper ids, those it must not get


@dataclass
class Ranked:
    picks: dict[str, list[Scored]]
    through: int  # the last paper seq looked at
    fresh: dict[str, bool]  # subscriber -> it had papers it could get


def rank_stored(
    store: Store,
    subscribers: Sequence[Subscriber],
    after: Mapping[str, int],
    space: Space | None,
    gone: Gone,
    *,
    top_k: int | None = None,
    thresholds: bool = True,
    keep: int | None = None,
    extra: ranking.Extra | None = None,
    pools: Mapping[str, int] | None = None,
    everyone: Sequence[Subscriber] = (),
) -> Ranked:
    """Rank, for every subscriber, the stored papers after its seq `after[name]` that gone()
    leaves it, scored against its own pool: the papers after `pools[name]` (default: `after`).
    A reader's scale is of its own period, whoever else is ranked: one pool for all had counted
    a weekly reader's week in a daily reader's pool (0.41 -> 0.40). top_k, thresholds: as
    rank(); keep, extra: as rank_pool(), for a pool of over LARGE_POOL papers, which is ranked
    in passes over blocks; everyone: every reader, whose words a space fitted here holds."""
    through = store.latest_seq()  # papers other workers store meanwhile wait for the next run
    pools = pools or after
    picks: dict[str, list[Scored]] = {}
    fresh: dict[str, bool] = {}  # as at once: some paper it can still get (not alerted, held)
    groups: dict[int, list[Subscriber]] = {}
    for sub in subscribers:
        groups.setdefault(pools[sub.name], []).append(sub)
    beyond = store.count_after(through)
    for base, subs in sorted(groups.items()):
        if space is None or store.count_after(base) - beyond <= ranking.LARGE_POOL:
            rows = [row for block in store.paper_blocks(base, through) for row in block]
            got, news = _rank_held(rows, subs, after, space, gone, (top_k, thresholds), everyone)
            picks, fresh = picks | got, fresh | news
            continue
        floors: dict[int, list[Subscriber]] = {}
        for sub in subs:
            floors.setdefault(after[sub.name], []).append(sub)
        for floor, some in floors.items():
            how = (top_k, thresholds, keep, extra)
            got, news = _rank_passes(store, (base, floor, through), some, space, gone, how)
            picks, fresh = picks | got, fresh | news
    return Ranked(picks, through, fresh)


def _rank_passes(
    store: Store,
    seqs: tuple[int, int, int],
    subs: list[Subscriber],
    space: Space,
    gone: Gone,
    how: tuple[int | None, bool, int | None, ranking.Extra | None],
) -> tuple[dict[str, list[Scored]], dict[str, bool]]:
    """rank_stored() of a pool too large to hold, in passes over its blocks: candidates after
    `floor`, every score against the pool after `base`; how: (top_k, thresholds, keep, extra)."""
    (base, floor, through), (top_k, thresholds, keep, extra) = seqs, how
    fresh = {s.name: False for s in subs}

    def blocks(start: int) -> Iterator[list[Paper]]:
        return ([p for _, p in block] for block in store.paper_blocks(start, through))

    def allowed_in(papers: Sequence[Paper]) -> dict[str, set[str]]:
        ids = {p.id for p in papers}
        left = {s.name: _left_for(s, ids, gone) for s in subs}
        fresh.update({name: True for name, mine in left.items() if mine})
        return left

    whole = ranking.frequencies(blocks(base), space) if base != floor else None
    picks = ranking.rank_pool(
        lambda: blocks(floor),
        subs,
        space=space,
        top_k=top_k,
        thresholds=thresholds,
        allowed_in=allowed_in,
        keep=keep,
        extra=extra,
        frequencies=whole,
    )
    log.info(
        "ranked %d stored papers in passes", store.count_after(base) - store.count_after(through)
    )
    return picks, fresh


def _left_for(sub: Subscriber, ids: set[str], gone: Gone) -> set[str]:
    """The ids the subscriber can still get: the shared set itself when nothing is taken out of
    it (10k subscribers must not make 10k copies of a 200k-id set)."""
    taken = gone(sub, ids)
    return ids - taken if taken else ids


def _rank_held(
    rows: list[tuple[int, Paper]],
    subscribers: Sequence[Subscriber],
    after: Mapping[str, int],
    space: Space | None,
    gone: Gone,
    how: tuple[int | None, bool],
    everyone: Sequence[Subscriber],
) -> tuple[dict[str, list[Scored]], dict[str, bool]]:
    """rank_stored() of one pool with every paper in memory at once; how: (top_k, thresholds)."""
    allowed: dict[str, Collection[str]] = {}
    # One id set per floor, shared by the subscribers at that floor (_left_for).
    by_floor: dict[int, set[str]] = {}
    for sub in subscribers:
        floor = after[sub.name]
        if floor not in by_floor:
            by_floor[floor] = {paper.id for seq, paper in rows if seq > floor}
        ids = by_floor[floor]
        allowed[sub.name] = _left_for(sub, ids, gone)
    papers = [paper for _, paper in rows]
    picks: dict[str, list[Scored]] = {}
    if papers and subscribers:
        top_k, thresholds = how
        picks = ranking.rank(
            papers,
            subscribers,
            top_k=top_k,
            thresholds=thresholds,
            allowed=allowed,
            space=space,
            everyone=everyone or subscribers,
        )
    return picks, {name: bool(ids) for name, ids in allowed.items()}


def ranking_space(store: Store, subscribers: Sequence[Subscriber], now: datetime) -> Space | None:
    """The stored space, refitted when missing, stale or of another version; None: too few
    papers for a space (ranking then fits on the papers it ranks). `subscribers`: every reader
    of the config, ranked now or not: its words are theirs, so a paper's score does not depend
    on who else is ranked beside its reader (rank29 F2), nor does a fit for some readers' words
    make the next pass, of other readers, fit it again."""
    count, latest = store.ratings.extent()
    if count < SPACE_MIN_PAPERS:
        return None
    space, why = _saved(store, subscribers)
    if space is None:
        # After an upgrade that reads words otherwise, every stored paper is read again: a
        # minute and some hundred MB at 50,000, which the operator had not been told of.
        say = log.warning if why == OTHER_VERSION and count >= LOUD_REFIT else log.info
        say("ranking space: fitting it on %d stored papers once (%s)", count, why)
        space = _fit(store, latest, count, _wishes(subscribers))
        store.ratings.save_space(space.to_bytes(), latest, count, now)
        log.info("ranking space fitted on %d papers (%d terms)", count, space.size)
    return with_library(space, subscribers, store)


OTHER_VERSION = "this digest reads words otherwise than the one that fitted it"
LOUD_REFIT = 5_000  # stored papers from which a refit takes long enough to say so


def foreseen_space(
    store: Store, subscribers: Sequence[Subscriber], new: Sequence[Paper]
) -> Space | None:
    """For `preview`: the space a run that stores the `new` papers would rank in, fitted as the
    run would fit it (on the stored papers and these) when it would refit, and never saved;
    `subscribers`: every reader, as for ranking_space."""
    count, latest = store.ratings.extent()
    if count + len(new) < SPACE_MIN_PAPERS:
        return None
    space = saved_space(store, subscribers, growth=len(new))
    space = space or _fit(store, latest, count + len(new), _wishes(subscribers), new)
    return with_library(space, subscribers, store)


def saved_space(store: Store, subscribers: Sequence[Subscriber], growth: int = 0) -> Space | None:
    """The stored space as it is, when it is still the one a run would rank in: of this version,
    not stale, holding every subscriber's words (a new subscriber's words: a run refits once);
    else None. Read-only, for `digest rank` as well as for runs; `growth`: papers a run would
    store first."""
    return _saved(store, subscribers, growth)[0]


def _saved(
    store: Store, subscribers: Sequence[Subscriber], growth: int = 0
) -> tuple[Space | None, str]:
    """saved_space(), or None and why a run fits it anew."""
    count, latest = store.ratings.extent()
    saved = store.ratings.space()
    if count < SPACE_MIN_PAPERS or saved is None:
        return None, "none is stored yet"
    if latest + growth - saved.through_seq > REFIT_GROWTH * saved.docs:
        return None, "the store has grown by a quarter since"
    space = Space.from_bytes(saved.data)
    # A space saved before it counted author names (profiles.frequent) is refitted once.
    if space is None or space.named is None:
        return None, OTHER_VERSION
    if not space.knows(_wishes(subscribers)):
        return None, "a subscriber's words are new to it"
    return space, ""


def _wishes(subscribers: Sequence[Subscriber]) -> list[str]:
    """The subscribers' own words, which the space holds whether or not a stored paper does."""
    wishes = read_interests(subscribers)
    return wishes + [k for s in subscribers for k in s.profile.keywords]


def with_library(space: Space, subscribers: Sequence[Subscriber], store: Store) -> Space:
    """The stored space with the words of the subscribers' libraries that it lacks
    (_library_terms) as columns too, in memory: a refit for them had made a library that grows
    by a paper a day refit a store of 20,000 papers every run."""
    return extended(blended(space), _library_terms(subscribers, store))


def _library_terms(subscribers: Sequence[Subscriber], store: Store) -> list[str]:
    """The words and phrases two or more of a subscriber's liked papers hold, of those the store
    does not hold. A store that never held a paper of the library's field had no column for them:
    a nickelate reader's five liked papers said "nickelate", and no new nickelate paper could
    match or explain it. A word of one liked paper alone stays out, as without a store (it would
    only dilute the profile); a stored liked paper (a paper rated up) brings its words at the next
    refit (_fit), for every reader alike: added here, they were columns only where its reader
    was among those ranked, and an alert pass scored a paper above a digest's scale (rank29 F1)."""
    libraries = [list({p.id: p for p in s.profile.library}.values()) for s in subscribers]
    every = list({p.id: p for papers in libraries for p in papers}.values())
    held = store.papers.held(every) if every else set()  # one query for every reader's
    unheld = (tuple(paper_text(p) for p in papers if p.id not in held) for papers in libraries)
    return list(_shared_words(tuple(texts for texts in unheld if len(texts) >= 2)))


@functools.lru_cache(maxsize=2)
def _shared_words(libraries: tuple[tuple[str, ...], ...]) -> tuple[str, ...]:
    """_library_terms() of these libraries' texts; kept, as a run asks it of every reader's
    library in each of its passes and `digest serve` at every poll (2,000 readers' libraries of
    5 papers: 7 s a time, rank30 F5)."""
    terms: set[str] = set()
    for texts in libraries:
        counts = Counter(t for text in texts for t in set(analyze(text)))
        # A liked paper's word in mixed case, or a compound joined by a function word
        # ("end-to-end"), is a column only where a reader wrote it, as in features.fit (rank29
        # F3: "end-to-end" had become a library's pick and its "why").
        terms.update(t for t, n in counts.items() if n >= 2 and not _unasked(t))
    return tuple(sorted(terms))


def _unasked(term: str) -> bool:
    """Whether a term is a column only where a reader wrote it (features.fit)."""
    return is_cased(term) or any("-" in w and compound(w) for w in term.split(" "))


def _texts(store: Store, through: int, every: int = 1) -> Iterator[str]:
    for block in store.paper_blocks(0, through, every=every):
        yield from (paper_text(p) for _, p in block)


def _fit(
    store: Store, latest: int, count: int, wishes: list[str], extra: Sequence[Paper] = ()
) -> Space:
    """The space of every stored paper, or of an even sample above SPACE_SAMPLE, and of the wishes
    (as texts of their own, so that a word no stored paper holds is in it too; its columns:
    background.fitted), with
    document frequencies, idf and author names counted on every paper, the wishes not among
    them."""
    every = math.ceil(count / SPACE_SAMPLE)
    names: Counter[str] = Counter()

    def counting() -> Iterator[list[Paper]]:  # one read of the store, names counted
        blocks = ([p for _, p in block] for block in store.paper_blocks(0, latest))
        for papers in itertools.chain(blocks, [list(extra)] if extra else []):
            name_counts(papers, names)
            yield papers

    # Papers rated up, by any reader: their words that one more stored paper holds are columns,
    # however rare (as a reader's own are); a store takes its other words only once common.
    up, liked, rated = store.ratings.rated_up(), list[int](), list[str]()
    if every == 1:
        sample: list[str] = []
        for p in (p for papers in counting() for p in papers):
            liked += [len(sample)] if p.id in up else []
            sample.append(paper_text(p))
    else:
        sample = list(_texts(store, latest, every=every))
        sample += [paper_text(p) for p in extra[::every]]
        rated = [paper_text(p) for p in up.values()]  # beside the sample, not in its rows
        liked = list(range(len(sample), len(sample) + len(rated)))
    space, rows = fitted(sample + rated + wishes, wishes, count, liked)
    rows = rows[: len(sample)]
    if every == 1:  # the sample is every paper: its rows hold the counts
        df, docs = np.bincount(rows.indices, minlength=space.size), len(sample)
    else:
        del sample
        (df, _), docs = ranking.frequencies(counting(), space), count
    return stored(space, df, docs, rows, frequent(names, docs))


def rank_files(
    settings: Settings, paths: Sequence[str], top: int, store: Store | None = None
) -> dict[str, list[dict[str, Any]]]:
    """The `digest rank` contract: every paper for every subscriber, no thresholds, no sent
    state; only the subscribers' ratings and the stored space (if a run would rank in it now)
    are read from the store, when there is one."""
    papers: dict[str, Paper] = {}
    for path in paths:
        skipped: list[str] = []

        def warn(problem: str, skipped: list[str] = skipped) -> None:
            if not isinstance(problem, Notice):
                skipped.append(problem)
            log.warning("%s" if isinstance(problem, Notice) else "skipped %s", problem)

        found = read_papers(path, warn, links=False)
        if skipped and not found:  # not one paper: the wrong file, not a few bad lines
            raise InputError(
                f"{path}: not a paper file (JSONL or CSV): no paper read, {len(skipped)} "
                f"skipped; the first: {skipped[0]}"
            )
        for paper in found:  # the contract has no code links: none are looked for
            papers.setdefault(paper.id, paper)
    subscribers = library.with_libraries(settings.subscribers)
    space, everyone = None, subscribers
    if store is not None:
        subscribers = rated(settings, store, subscribers)
        # The space a run would rank in, with its latent basis: `digest rank` ranks as it would,
        # its columns of every library as the run read them (liked ids it looked up), though
        # the profiles are the contract's: of the library files alone.
        cache = library.Unwritten(store.papers)
        read = library.with_libraries(settings.subscribers, cache=cache, lookup=False)
        everyone = rated(settings, store, read)
        space = saved_space(store, everyone) if papers else None
        space = space and with_library(space, everyone, store)
    listed = list(papers.values())
    picks = ranking.rank(
        listed, subscribers, top_k=top, thresholds=False, space=space, everyone=everyone
    )
    picks = picks if listed and subscribers else {}
    return {
        sub.name: [
            {"id": s.paper.id, "score": round(s.score, 6), "terms": list(s.terms)}
            for s in picks.get(sub.name, [])
        ]
        for sub in subscribers
    }


def rated(
    settings: Settings, store: Store, subscribers: Sequence[Subscriber]
) -> tuple[Subscriber, ...]:
    """The subscribers with their ratings, but a reused name's earlier reader's (reuses.py)."""
    earlier = reuses.earlier_given(store.web, mailing(settings.subscribers, recipients))
    return store.ratings.apply(subscribers, earlier)

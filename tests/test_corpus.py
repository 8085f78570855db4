"""The stored ranking space: fitted once on the stored papers, reused while the store grows
little, refitted when it grows a lot; a small store has none."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from digest import corpus, ranking
from digest.models import Paper, Profile, Subscriber
from digest.ranking import background
from digest.ranking.tokens import author_key
from digest.state import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def paper(i: int, topic: str = "graph neural networks for molecules") -> Paper:
    return Paper(id=f"p{i}", title=f"{topic} {i}", abstract=f"We study {topic}, case {i}.")


@pytest.fixture
def store(tmp_path: Path):
    with Store(tmp_path / "state.db") as s:
        s.add_papers([paper(i) for i in range(6)], NOW)
        yield s


def test_a_small_store_has_no_space_of_its_own(store: Store) -> None:
    assert corpus.ranking_space(store, [], NOW) is None
    assert store.ratings.space() is None


def test_the_space_is_fitted_once_then_reused_until_the_store_grows_a_quarter(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    first = corpus.ranking_space(store, [], NOW)
    assert first is not None and first.docs == 6
    saved = store.ratings.space()
    assert saved is not None and (saved.through_seq, saved.docs) == (6, 6)
    # A word the built-in background lacks: a column once the store holds it in 3 papers.
    store.add_papers([paper(6, "quorlith models for images")], NOW)  # +1 of 6: reuse
    again = corpus.ranking_space(store, [], NOW)
    assert again is not None and again.docs == 6 and "quorlith" not in set(again.names)
    store.add_papers([paper(i, "quorlith models for images") for i in (7, 8)], NOW)  # +3 of 6
    refit = corpus.ranking_space(store, [], NOW)
    assert refit is not None and refit.docs == 9 and "quorlith" in set(refit.names)
    assert store.ratings.space().through_seq == 9  # type: ignore[union-attr]


def test_a_subscribers_words_no_stored_paper_holds_are_in_the_space(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    first = corpus.ranking_space(store, [], NOW)
    assert first is not None and "chromodynamics" not in set(first.names)
    zed = Subscriber("zed", Profile(interests="lattice quantum chromodynamics"), ())
    space = corpus.ranking_space(store, [zed], NOW)  # a new subscriber: refitted once for them
    assert space is not None and {"chromodynamics", "lattice quantum"} <= set(space.names)
    assert space.docs == 6  # their text is no paper: the counts are the papers'
    assert np.allclose(
        space.idf[space.vocabulary["molecules"]], first.idf[first.vocabulary["molecules"]]
    )
    assert corpus.ranking_space(store, [zed], NOW) is not None
    assert store.ratings.space().docs == 6  # type: ignore[union-attr]
    q1 = Paper("q1", "Lattice quantum chromodynamics at finite density", "We simulate it.")
    (pick,) = ranking.rank([q1], [zed], top_k=1, space=space)[zed.name]
    assert pick.score > 0.3 and "lattice quantum" in pick.terms


def test_the_words_two_liked_papers_share_are_in_the_space_though_no_stored_paper_holds_them(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A store that never held a nickelate paper had no "nickelate" column: the reader's five
    # liked papers said it, and no new nickelate paper could match or explain it. They join the
    # space in memory: a refit for them made a library growing by a paper a day refit each run.
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    first = corpus.ranking_space(store, [], NOW)
    assert first is not None
    saved = store.ratings.space().data  # type: ignore[union-attr]
    liked = (
        Paper("l1", "Superconductivity in nickelate thin films", "End-to-end nickelates."),
        Paper("l2", "Pairing in bilayer nickelate superconductors", "End-to-end nickelates."),
        Paper("l3", "A one-off paper", "Its own word zyxwvut appears here alone."),
    )
    sam = Subscriber("sam", Profile(library=liked), ())
    space = corpus.ranking_space(store, [sam], NOW)
    assert space is not None and {"nickelate", "nickelates"} <= set(space.names)
    assert "zyxwvut" not in set(space.names)  # one liked paper's word alone, as without a store
    assert "end-to-end" not in set(space.names)  # a reader's word only (rank29 F3)
    assert list(space.names) == sorted(space.names) and space.docs == 6
    assert np.allclose(  # the stored words as they were
        space.idf[space.vocabulary["molecules"]], first.idf[first.vocabulary["molecules"]]
    )
    assert store.ratings.space().data == saved  # type: ignore[union-attr]  # no refit
    new = Paper("n1", "Charge order in a nickelate", "We measure the nickelate's charge order.")
    (pick,) = ranking.rank([new], [sam], top_k=1, space=space)[sam.name]
    assert "nickelate" in pick.terms
    # Liked papers the store holds are not read here: with them, a column was there only where
    # their reader was among those ranked, and an alert pass scored a paper above the digest's
    # scale (rank29 F1). Papers rated up bring their words at the next refit, for every reader:
    # a store takes a stored paper's word only once it is common, a rated one's as a reader's
    # own once one more paper holds it (rank28 F1).
    rated = [Paper(f"r{i}", f"Quxword dynamics {i}", "On quxword effects.") for i in (1, 2)]
    store.add_papers(rated, NOW)
    sam = Subscriber("sam", Profile(library=(*liked, *rated)), ())
    monkeypatch.setattr(corpus, "REFIT_GROWTH", 1.0)  # +2 of 6 is not a refit for growth
    kept = corpus.ranking_space(store, [sam], NOW)
    assert kept is not None and "quxword" not in set(kept.names)
    for paper in rated:
        store.ratings.rate("sam", paper.id, "up", NOW)
    store.db.execute("DELETE FROM spaces")  # the next refit
    refit = corpus.ranking_space(store, [], NOW)  # whoever is ranked
    assert refit is not None and "quxword" in set(refit.names)
    later = Paper("n2", "Quxword at high pressure", "We compress quxword crystals.")
    (pick,) = ranking.rank([later], [sam], top_k=1, space=refit)[sam.name]
    assert "quxword" in pick.terms


def test_a_runs_passes_read_every_readers_library_once(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The space holds every reader's library words, and a run asks for it in each pass (held
    # alerts, digests, alerts), `digest serve` at every poll: 2,000 readers' libraries had been
    # read three times a run, 7 s each (rank30 F5).
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    read: list[str] = []
    analyze = corpus.analyze
    monkeypatch.setattr(corpus, "analyze", lambda text: read.append(text) or analyze(text))
    readers = [
        Subscriber(f"r{i}", Profile(library=(paper(100 + 2 * i), paper(101 + 2 * i))), ())
        for i in range(50)
    ]
    first = corpus.ranking_space(store, readers, NOW)
    assert len(read) == 100
    again = corpus.ranking_space(store, readers, NOW)
    assert len(read) == 100 and first is not None and again is not None
    assert list(first.names) == list(again.names)


def test_a_large_store_fits_a_sample_and_counts_every_paper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    monkeypatch.setattr(corpus, "SPACE_SAMPLE", 10)  # 40 papers: every 4th seq is the sample
    with Store(tmp_path / "big.db") as store:
        papers = [paper(i) for i in range(40)]
        papers[6] = paper(6, "zymurgy of sourdough")  # seq 7: not in the sample
        papers[10] = paper(10, "quasicrystal tilings")  # seq 11: not in the sample either
        store.add_papers(papers, NOW)
        wants = [Subscriber("ana", Profile(keywords=("zymurgy",)), ())]
        space = corpus.ranking_space(store, wants, NOW)
    assert space is not None and space.docs == 40
    names = set(space.names)
    assert "zymurgy" in names  # a subscriber's own word, however rare
    assert "quasicrystal" not in names  # a rare word of nobody's: the sample never saw it
    # Counted on all 40 papers, beside the built-in background's (a word it lacks as one of 1)
    found = background.load(background.FILE)
    assert found is not None
    held, n = dict(zip(found.terms, found.df.tolist(), strict=True)), 40 + found.docs
    column = space.vocabulary["zymurgy"]
    assert space.idf[column] == pytest.approx(np.log((1 + n + 50) / (1 + 1 + 1)) + 1)
    common = space.vocabulary["molecules"]  # in 38 of 40 papers
    assert space.idf[common] == pytest.approx(
        np.log((1 + n + 50) / (1 + 38 + held["molecules"])) + 1
    )


GALAXIES = (
    "galaxy galaxies star formation stellar mass redshift halo dark matter gas interstellar medium"
    " dust emission spectroscopic survey quenching feedback metallicity disk bulge merger"
    " luminosity photometric cluster cosmic evolution supernova accretion black hole"
).split()


def galaxy_papers(count: int, seed: int = 0) -> list[Paper]:
    pick = np.random.default_rng(seed)
    return [
        Paper(
            id=f"2602.{seed}{i:04d}",
            title=" ".join(pick.choice(GALAXIES, 6)),
            abstract="We study " + " ".join(pick.choice(GALAXIES, 60)) + ".",
        )
        for i in range(count)
    ]


def test_a_store_all_on_the_readers_topic_keeps_its_scores(tmp_path: Path) -> None:
    """A store fed by one arXiv category made its topic's words common and its centroid the
    topic: once it held 1,000 papers, the galaxy reader's best score halved (0.46 to 0.25) and
    most on-topic papers fell to the floor. The built-in background counts in beside it."""
    reader = Subscriber(
        "gal", Profile(interests="star formation histories of high redshift galaxies"), ()
    )
    today = galaxy_papers(200, seed=1)
    alone = ranking.rank(today, [reader], top_k=200, thresholds=False)["gal"]
    with Store(tmp_path / "galaxies.db") as store:
        store.add_papers(galaxy_papers(1010), NOW)
        space = corpus.ranking_space(store, [reader], NOW)
    stored = ranking.rank(today, [reader], top_k=200, thresholds=False, space=space)["gal"]
    # The store alone: 0.46 times, and 22 of the 200 under the default min_score (0.05). With
    # the background's df and centroid, 0.68 times, the lowest at 0.050; with its basis beside
    # the store's too, 0.89 times, the lowest at 0.157.
    assert stored[0].score > 0.8 * alone[0].score
    assert all(s.score > 0.1 for s in stored)


def many(count: int) -> list[Paper]:
    topics = [
        "graph neural networks for molecules",
        "federated learning with privacy",
        "diffusion models for images",
        "dark matter halo surveys",
    ]
    return [
        Paper(
            id=f"2601.{i:05d}",
            title=f"{topics[i % 4]} {i}",
            abstract=f"We study {topics[i % 4]} and {topics[(i * 7) % 4]}, case {i % 13}.",
        )
        for i in range(count)
    ]


def test_ranking_stored_papers_in_passes_picks_what_ranking_them_at_once_picks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    subs = [
        Subscriber("ana", Profile(interests="federated learning and privacy"), (), top_k=5),
        Subscriber("bo", Profile(interests="dark matter surveys"), (), top_k=3),
    ]
    with Store(tmp_path / "pool.db") as store:
        store.add_papers(many(300), NOW)
        space = corpus.ranking_space(store, subs, NOW)
        after = {"ana": 0, "bo": 120}  # bo's last digest looked at the first 120 papers
        taken = {"2601.00005"}

        def gone(sub: Subscriber, ids: set[str]) -> set[str]:
            return ids & taken if sub.name == "ana" else set()

        held = corpus.rank_stored(store, subs, after, space, gone)
        monkeypatch.setattr(ranking, "LARGE_POOL", 50)
        passes = corpus.rank_stored(store, subs, after, space, gone)

    def ids(picks: dict) -> dict:
        return {n: [(s.paper.id, round(s.score, 6)) for s in v] for n, v in picks.items()}

    assert ids(passes.picks) == ids(held.picks) and all(held.picks.values())
    assert "2601.00005" not in {s.paper.id for s in passes.picks["ana"]}
    assert all(int(s.paper.id[-5:]) >= 120 for s in passes.picks["bo"])
    assert passes.through == held.through == 300 and passes.fresh == held.fresh


def test_the_space_keeps_its_papers_frequent_author_names_and_refits_a_space_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    with Store(tmp_path / "state.db") as store:
        many = [
            Paper(
                f"q{i}", f"graph networks {i}", "We study graphs.", authors=("Jun Wang", f"A{i} B")
            )
            for i in range(6)
        ]
        store.add_papers(many, NOW)
        space = corpus.ranking_space(store, [], NOW)
        assert space is not None and space.named is not None
        # In a store this small a name counts as is: one on 2+ papers is kept, with its count.
        assert space.named == {author_key("Jun Wang"): 6}
        saved = corpus.saved_space(store, [])
        assert saved is not None and saved.named == space.named
        # A space saved before names were counted is refitted on the next run.
        old = ranking.Space(list(space.names), space.idf, space.docs, space.centroid, space.basis)
        stored = store.ratings.space()
        assert stored is not None
        store.ratings.save_space(old.to_bytes(), stored.through_seq, stored.docs, NOW)
        assert corpus.saved_space(store, []) is None
        again = corpus.ranking_space(store, [], NOW)
        assert again is not None and again.named == space.named


def test_a_space_saved_before_the_background_counted_in_is_fitted_again(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    space = corpus.ranking_space(store, [], NOW)
    assert space is not None and corpus.saved_space(store, []) is not None
    with np.load(io.BytesIO(space.to_bytes())) as saved:
        older = {k: saved[k] for k in saved.files if k != "form"}
    out = io.BytesIO()
    np.savez_compressed(out, **older)
    store.ratings.save_space(out.getvalue(), 6, 6, NOW)
    assert corpus.saved_space(store, []) is None  # so a run fits it again, once


def test_a_refit_after_an_upgrade_says_so_once(
    store: Store, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The first run after an upgrade that reads words otherwise refits every stored paper (a
    minute and some hundred MB at 50,000): it had said nothing an operator sees."""
    import io
    import logging

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)
    monkeypatch.setattr(corpus, "LOUD_REFIT", 5)
    space = corpus.ranking_space(store, [], NOW)
    assert space is not None
    with np.load(io.BytesIO(space.to_bytes())) as saved:
        older = {k: saved[k] for k in saved.files if k != "form"}
    out = io.BytesIO()
    np.savez_compressed(out, **older)
    store.ratings.save_space(out.getvalue(), 6, 6, NOW)
    caplog.set_level(logging.INFO, logger="digest")
    corpus.ranking_space(store, [], NOW)
    loud = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(loud) == 1 and "reads words otherwise" in loud[0].getMessage()
    caplog.clear()
    corpus.ranking_space(store, [], NOW)
    assert not [
        r for r in caplog.records if r.levelno >= logging.INFO and "fitting" in r.getMessage()
    ]


def everyday_papers(count: int, seed: int, topic: str = "") -> list[Paper]:
    """Papers of forty words drawn from the built-in background's words as often as its papers
    hold them (a long tail of rare words, as real abstracts have), and `topic`."""
    found = background.load(background.FILE)
    assert found is not None
    single = np.array([" " not in t and t.isalpha() for t in found.terms])
    words = np.array(found.terms, dtype=object)[single]
    chance = found.df[single] / found.df[single].sum()
    tails = np.random.default_rng(seed).choice(len(words), (count, 40), p=chance)
    return [
        Paper(
            id=f"2603.{seed}{i:04d}",
            title=" ".join(words[tail[:6]]),
            abstract=f"{topic} " + " ".join(words[tail]),
        )
        for i, tail in enumerate(tails)
    ]


def test_a_papers_score_does_not_move_as_the_store_grows(tmp_path: Path) -> None:
    """With every word of two stored papers a column, a paper's row took more of its words as
    the store grew and every score fell with it (a probe's exoplanet paper: 0.39 at 1,000 stored
    papers, 0.29 at 20,000), and a store of 1,000 lacked many of the words the background knows,
    which a paper ranked without a store holds. A store's columns are every background term and
    the store's own words as common among its papers as the background's rarest among its own;
    its latent basis counts the background's beside its own by their papers (here its own is of
    random words: alone, it took a fifth off every score at 1,000 stored papers)."""
    reader = Subscriber("gal", Profile(interests="stellar mass of galaxies"), ())
    today = everyday_papers(10, seed=9, topic="We study galaxies and their stellar mass.")
    alone = ranking.rank(today, [reader], top_k=10, thresholds=False)["gal"]
    for size in (1000, 5000):
        with Store(tmp_path / f"{size}.db") as store:
            store.add_papers(everyday_papers(size, seed=1), NOW)
            space = corpus.ranking_space(store, [reader], NOW)
        stored = ranking.rank(today, [reader], top_k=10, thresholds=False, space=space)["gal"]
        mean = np.mean([s.score for s in stored])
        assert mean == pytest.approx(np.mean([s.score for s in alone]), rel=0.05), size

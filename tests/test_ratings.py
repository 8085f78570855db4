"""Ratings in the state database, how they move a profile, and the stored ranking space: fitted
once on the stored papers, reused while the store grows little, refitted when it grows a lot."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest import ratings
from digest.models import Paper, Profile, Subscriber
from digest.store import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def paper(i: int, topic: str = "graph neural networks for molecules") -> Paper:
    return Paper(id=f"p{i}", title=f"{topic} {i}", abstract=f"We study {topic}, case {i}.")


@pytest.fixture
def store(tmp_path: Path):
    with Store(tmp_path / "state.db") as s:
        s.add_papers([paper(i) for i in range(6)], NOW)
        yield s


def test_up_joins_the_library_and_down_the_disliked_papers(store: Store) -> None:
    mine = paper(0)
    ana = Subscriber("ana", Profile(interests="graphs", library=(mine,)), ())
    store.ratings.rate("ana", "p1", "up", NOW)
    store.ratings.rate("ana", "p2", "down", NOW)
    store.ratings.rate("ana", "p0", "down", NOW)  # a library paper rated down leaves the library
    store.ratings.rate("bo", "p3", "up", NOW)
    (rated,) = store.ratings.apply([ana])
    assert [p.id for p in rated.profile.library] == ["p1"]
    assert sorted(p.id for p in rated.profile.disliked) == ["p0", "p2"]
    assert rated.profile.interests == "graphs"
    (untouched,) = store.ratings.apply([Subscriber("cy", Profile(interests="x"), ())])
    assert untouched.profile == Profile(interests="x")


def test_a_new_rating_of_the_same_paper_replaces_the_old_one(store: Store) -> None:
    store.ratings.rate("ana", "p1", "up", NOW)
    store.ratings.rate("ana", "p1", "down", NOW)
    up, down = store.ratings.of("ana")
    assert up == [] and [p.id for p in down] == ["p1"]


def test_a_small_store_has_no_space_of_its_own(store: Store) -> None:
    assert store.ratings.ranking_space([], NOW) is None
    assert store.ratings.space() is None


def test_the_space_is_fitted_once_then_reused_until_the_store_grows_a_quarter(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ratings, "SPACE_MIN_PAPERS", 5)
    first = store.ratings.ranking_space([], NOW)
    assert first is not None and first.docs == 6
    saved = store.ratings.space()
    assert saved is not None and (saved.through_seq, saved.docs) == (6, 6)
    store.add_papers([paper(6, "diffusion models for images")], NOW)  # +1 of 6: reuse
    again = store.ratings.ranking_space([], NOW)
    assert again is not None and again.docs == 6 and "diffusion" not in set(again.names)
    store.add_papers([paper(i, "diffusion models for images") for i in (7, 8)], NOW)  # +3 of 6
    refit = store.ratings.ranking_space([], NOW)
    assert refit is not None and refit.docs == 9 and "diffusion" in set(refit.names)
    assert store.ratings.space().through_seq == 9  # type: ignore[union-attr]

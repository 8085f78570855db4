"""The stored ranking space: fitted once on the stored papers, reused while the store grows
little, refitted when it grows a lot; a small store has none."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest import corpus
from digest.models import Paper
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
    store.add_papers([paper(6, "diffusion models for images")], NOW)  # +1 of 6: reuse
    again = corpus.ranking_space(store, [], NOW)
    assert again is not None and again.docs == 6 and "diffusion" not in set(again.names)
    store.add_papers([paper(i, "diffusion models for images") for i in (7, 8)], NOW)  # +3 of 6
    refit = corpus.ranking_space(store, [], NOW)
    assert refit is not None and refit.docs == 9 and "diffusion" in set(refit.names)
    assert store.ratings.space().through_seq == 9  # type: ignore[union-attr]

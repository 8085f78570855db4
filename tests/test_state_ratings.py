"""Ratings in the state database and how they move a profile."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.state import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def paper(i: int, topic: str = "graph neural networks for molecules") -> Paper:
    return Paper(id=f"p{i}", title=f"{topic} {i}", abstract=f"We study {topic}, case {i}.")


@pytest.fixture
def store(state: str):
    with Store(state) as s:
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


def test_a_rating_says_which_one_it_replaced(store: Store) -> None:
    assert store.ratings.rate("ana", "p1", "up", NOW) == "none"
    assert store.ratings.rate("ana", "p1", "down", NOW, via="web") == "up"
    assert store.ratings.rate("ana", "p1", "none", NOW, via="web") == "down"
    assert store.ratings.current("ana", "p1") == "none"


def rated_at(store: Store) -> str:
    row = store.db.execute("SELECT rated_at FROM ratings WHERE paper_id = 'p1'").fetchone()
    return str(row[0])


def test_one_link_clicked_again_at_once_is_one_vote_at_its_first_time(store: Store) -> None:
    """Each click had stamped the vote a second later: 300 put it five minutes ahead."""
    first = store.ratings.rate_undoably("ana", "p1", "up", NOW)
    assert first[0] is None and first[1].startswith("web:")
    for _ in range(300):
        assert store.ratings.rate_undoably("ana", "p1", "up", NOW) == first
    assert rated_at(store) == "2026-11-30T09:00:00Z"
    assert store.ratings.undo("ana", "p1", first[1])
    assert store.ratings.current("ana", "p1") == "none"


def test_the_same_link_clicked_days_later_undoes_back_to_the_first_click(store: Store) -> None:
    """Its undo had deleted the first 👍, while the page said "back to what it was"."""
    _, first = store.ratings.rate_undoably("ana", "p1", "up", NOW)
    previous, key = store.ratings.rate_undoably("ana", "p1", "up", NOW + timedelta(days=2))
    assert previous == [1, "2026-11-30T09:00:00Z", "web", first] and key != first
    assert rated_at(store) == "2026-12-02T09:00:00Z"
    assert store.ratings.undo("ana", "p1", key)
    assert (store.ratings.current("ana", "p1"), rated_at(store)) == ("up", "2026-11-30T09:00:00Z")
    assert store.ratings.undo("ana", "p1", first)  # the first click's undo works again
    assert store.ratings.current("ana", "p1") == "none"


def test_a_double_click_on_two_replicas_undoes_back_to_the_rating_before_it(state: str) -> None:
    """The second replica took the second click for the first's and knew nothing of the 👎 the
    first replaced (kept in the other process's memory): its undo deleted the rating."""
    with Store(state) as one, Store(state) as two:
        one.add_papers([paper(1)], NOW)
        one.ratings.rate("ana", "p1", "down", NOW - timedelta(days=1))  # `digest feedback`
        first = one.ratings.rate_undoably("ana", "p1", "up", NOW)
        again = two.ratings.rate_undoably("ana", "p1", "up", NOW + timedelta(seconds=1))
        assert again == first == ([-1, "2026-11-29T09:00:00Z", "cli", ""], first[1])
        assert one.ratings.undo("ana", "p1", again[1])
        (row,) = two.ratings.listing("ana")
        assert (row["vote"], row["via"], row["at"]) == ("down", "cli", "2026-11-29T09:00:00Z")


def test_votes_changed_back_and_forth_stay_at_the_clock_and_undo_only_their_own(
    store: Store,
) -> None:
    """Each vote over a web vote of the same second was stamped a second past it: 120 clicks
    put the rating two minutes ahead, and a Slack click written late meanwhile was dropped."""
    keys = [
        store.ratings.rate_undoably("ana", "p1", ("up", "down")[n % 2], NOW)[1] for n in range(120)
    ]
    assert rated_at(store) == "2026-11-30T09:00:00Z" and len(set(keys)) == 120
    assert not store.ratings.undo("ana", "p1", keys[-2])  # a newer vote stands
    assert store.ratings.undo("ana", "p1", keys[-1])  # back to the one before it, in that second
    assert (store.ratings.current("ana", "p1"), rated_at(store)) == ("up", "2026-11-30T09:00:00Z")
    later = NOW + timedelta(seconds=1)
    taken = store.votes.click(
        "k", later + timedelta(minutes=5), [("ana", "p1", "down")], later, late=True
    )
    assert taken == [("ana", "p1", "graph neural networks for molecules 1", "down")]
    assert store.ratings.current("ana", "p1") == "down"


def test_an_undo_link_made_before_votes_had_keys_still_works(store: Store) -> None:
    """Named its vote by its time and carried the row it replaced; a day's such links were out
    when the upgrade came."""
    store.ratings.rate("ana", "p1", "down", NOW - timedelta(days=1))
    was = [-1, "2026-11-29T09:00:00Z", "cli", ""]
    store.db.execute(
        "UPDATE ratings SET rating = 1, rated_at = '2026-11-30T09:00:00Z', via = 'web'"
        " WHERE paper_id = 'p1'"
    )
    assert not store.ratings.undo("ana", "p1", "2026-11-30T09:00:01Z", was)  # not its time
    assert store.ratings.undo("ana", "p1", "2026-11-30T09:00:00Z", was)
    assert store.ratings.current("ana", "p1") == "down"

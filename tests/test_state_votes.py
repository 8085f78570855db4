"""Where votes came from, on SQLite and PostgreSQL: a redacted Matrix event undoes the votes it
carried while they are still current (restoring what they replaced), and a Slack request is
taken once, its votes with it, however many web replicas see it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from digest.models import Paper
from digest.state import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)
LATER = NOW + timedelta(hours=1)
ROOM = "!room:digest.test"


@pytest.fixture
def store(state: str):
    with Store(state) as s:
        s.add_papers([Paper(f"p{i}", f"Paper {i}", "An abstract.") for i in range(3)], NOW)
        yield s


def rating(store: Store, paper: str = "p1") -> tuple[str, str] | None:
    found = [(r["vote"], r["via"]) for r in store.ratings.listing("ana") if r["paper"] == paper]
    return found[0] if found else None


def test_a_redacted_event_undoes_its_votes_back_to_no_rating(store: Store) -> None:
    store.votes.matrix("$reply", ROOM, [("ana", "p1", "up"), ("ana", "p2", "down")], NOW)
    assert rating(store, "p1") == ("up", "matrix") and rating(store, "p2") == ("down", "matrix")
    assert store.votes.carried("$reply", ROOM) and not store.votes.carried("$reply", "!other")
    assert store.votes.undo("$reply", ROOM, LATER) == [("ana", "p1", "none"), ("ana", "p2", "none")]
    assert store.ratings.listing() == []
    assert not store.votes.carried("$reply", ROOM)
    assert store.votes.undo("$reply", ROOM, LATER) == []  # a second redaction: nothing more


def test_undoing_restores_the_rating_the_vote_replaced(store: Store) -> None:
    store.ratings.rate("ana", "p1", "down", NOW, via="web")
    store.votes.matrix("$reply", ROOM, [("ana", "p1", "up")], NOW)
    assert store.votes.undo("$reply", ROOM, LATER) == [("ana", "p1", "down")]
    assert rating(store) == ("down", "web")


def test_a_later_vote_is_not_undone_by_redacting_an_older_one(store: Store) -> None:
    store.votes.matrix("$first", ROOM, [("ana", "p1", "up")], NOW)
    store.votes.matrix("$second", ROOM, [("ana", "p1", "down")], LATER)
    assert store.votes.undo("$first", ROOM, LATER) == []
    assert rating(store) == ("down", "matrix")
    # The second goes too: what it replaced was the first, redacted meanwhile, so nothing stands.
    assert store.votes.undo("$second", ROOM, LATER) == [("ana", "p1", "none")]
    assert rating(store) is None


def test_a_vote_from_elsewhere_after_the_event_stands(store: Store) -> None:
    store.votes.matrix("$reply", ROOM, [("ana", "p1", "up")], NOW)
    store.ratings.rate("ana", "p1", "up", LATER, via="cli")  # the same vote, given again
    assert store.votes.undo("$reply", ROOM, LATER) == []
    assert rating(store) == ("up", "cli")


def test_a_redaction_in_another_room_undoes_nothing(store: Store) -> None:
    store.votes.matrix("$reply", ROOM, [("ana", "p1", "up")], NOW)
    assert store.votes.undo("$reply", "!elsewhere:digest.test", LATER) == []
    assert rating(store) == ("up", "matrix")


def test_a_tick_goes_once_no_event_it_acknowledges_is_left(store: Store) -> None:
    # Two reactions on one alert share its ✅ (the second was told one was there already).
    store.votes.acked("$up", ROOM, "$alert", "$tick")
    store.votes.acked("$down", ROOM, "$alert", "")
    store.votes.acked("$reply", ROOM, "$reply", "$tick2")
    assert store.votes.unacked("$up", ROOM) == ""  # $down still stands on it
    assert store.votes.unacked("$down", ROOM) == "$tick"
    assert store.votes.unacked("$down", ROOM) == ""  # once
    assert store.votes.unacked("$reply", "!other") == ""
    assert store.votes.unacked("$reply", ROOM) == "$tick2"


def test_a_vote_after_its_tick_was_taken_back_gets_its_own(store: Store) -> None:
    store.votes.acked("$up", ROOM, "$alert", "$tick")
    assert store.votes.unacked("$up", ROOM) == "$tick"
    store.votes.acked("$again", ROOM, "$alert", "$tick3")
    assert store.votes.unacked("$again", ROOM) == "$tick3"


def test_a_slack_request_is_taken_once_with_its_votes(store: Store, state: str) -> None:
    until = NOW + timedelta(minutes=5)
    votes = [("ana", "p1", "up"), ("ana", "unknown", "down")]
    assert store.votes.click("k1", until, votes, NOW) == [("ana", "p1", "Paper 1", "up")]
    with Store(state) as replica:  # another web face on the same database
        assert replica.votes.click("k1", until, [("ana", "p1", "down")], NOW) is None
    assert rating(store) == ("up", "slack")


def test_a_slack_key_is_forgotten_once_its_timestamp_is_stale(store: Store) -> None:
    assert store.votes.click("k1", NOW + timedelta(minutes=5), [], NOW) == []
    later = NOW + timedelta(minutes=6)
    assert store.votes.click("k2", later + timedelta(minutes=5), [], later) == []
    keys = [r[0] for r in store.db.execute("SELECT key FROM slack_requests ORDER BY key")]
    assert keys == ["k2"]


def test_a_late_slack_write_does_not_replace_a_rating_given_since(store: Store) -> None:
    until = NOW + timedelta(minutes=5)
    store.ratings.rate("ana", "p1", "down", LATER, via="web")
    assert store.votes.click("k1", until, [("ana", "p1", "up")], NOW, late=True) == []
    assert rating(store) == ("down", "web")
    assert store.votes.click("k2", until, [("ana", "p2", "up")], NOW, late=True)
    assert rating(store, "p2") == ("up", "slack")


def keys(store: Store) -> dict[str, str]:
    return {r[0]: r[1] for r in store.db.execute("SELECT key, until FROM slack_requests")}


def test_an_unsubscribe_is_taken_once_by_its_key_kept_for_good(store: Store, state: str) -> None:
    """A web face kept ben's unsubscribe (reg24 F3): each run wrote it again from a spool it could
    not mark done, and the face's own write waiting for the lock could land after a run's. Its
    key is written with its pause; a second writer, on any replica, a year on, pauses nothing."""
    pauses = [("ben", "email\nben@example.org")]
    assert store.votes.click("pause:ben:1", NOW, [], NOW, pauses=pauses) == []
    assert store.web.resume("ben") == ["email"]  # the operator's word
    year = NOW + timedelta(days=365)  # Slack clicks since forget the stale keys, not this one
    assert store.votes.click("slack:1", year + timedelta(minutes=5), [], year) == []
    with Store(state) as replica:
        assert replica.votes.click("pause:ben:1", NOW, [], NOW, True, pauses) is None
    assert store.web.pauses() == [] and set(keys(store)) == {"pause:ben:1", "slack:1"}


def test_a_late_slack_click_keeps_its_key_for_good_taken_now_or_before(store: Store) -> None:
    """A late write comes from a kept click, which may wait in the spool as long as nothing can
    mark it done there: its key, stale a few minutes on, had been forgotten by the next Slack
    click, and the next settle recorded its votes again."""
    until = NOW + timedelta(minutes=5)
    assert store.votes.click("k1", until, [("ana", "p1", "up")], NOW, late=True)
    assert store.votes.click("k2", until, [("ana", "p2", "up")], NOW)  # on time: stale soon
    assert store.votes.click("k2", until, [("ana", "p2", "up")], NOW, late=True) is None
    assert store.votes.click("k1", until, [], NOW) is None  # a replay on time shortens nothing
    store.ratings.rate("ana", "p1", "down", LATER, via="web")
    year = NOW + timedelta(days=365)
    assert store.votes.click("k3", year + timedelta(minutes=5), [], year) == []
    assert set(keys(store)) == {"k1", "k2", "k3"}
    assert store.votes.click("k1", until, [("ana", "p1", "up")], NOW, late=True) is None
    assert rating(store) == ("down", "web")


def test_the_keys_taken_are_told_among_many(store: Store) -> None:
    """What `digest status` needs of a spool that lists clicks recorded already (their done
    marks refused): which of its keys the state holds."""
    assert store.votes.click("pause:ben:1", NOW, [], NOW, pauses=[("ben", "email")]) == []
    assert store.votes.click("k1", NOW + timedelta(minutes=5), [], NOW) == []
    asked = [f"k{i}" for i in range(2, 1200)] + ["pause:ben:1", "k1", "k1"]
    assert store.votes.taken(asked) == {"pause:ben:1", "k1"} and store.votes.taken([]) == set()

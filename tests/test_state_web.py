"""The web face's tables: readers' pauses (and the pending rows they hold back), ratings that say
where they came from, Matrix sync positions and the events already counted."""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

import pytest

from digest.models import Digest, Message, Paper, Scored
from digest.state import Store

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def store_with_digest(state: str) -> Store:
    store = Store(state)
    paper = Paper("g1", "A paper", "An abstract.")
    store.add_papers([paper], NOW)
    digest = Digest(
        "ana", "2026-11-30T08:00:00+00:00", date(2026, 11, 30), (Scored(paper, 0.5),), NOW
    )
    message = Message("s", "t", "<p>h</p>")
    store.record_digest(digest, 1, [("email", "email", message), ("file", "file", message)])
    return store


def test_a_pause_holds_back_that_channels_pending_rows_for_good(state: str) -> None:
    with store_with_digest(state) as store:
        store.web.pause("ana", ["email"], NOW)
        assert [(p.subscriber, p.channel) for p in store.web.pauses()] == [("ana", "email")]
        assert store.outbox_counts() == {"paused": 1, "pending": 1}  # held by the pause itself
        assert store.web.hold_paused() == 0  # and a row queued later, by a delivery pass
        assert [r.channel for r in store.due(NOW)] == ["file"]
        assert store.web.resume("ana") == ["email"]
        assert store.web.pauses() == [] and store.web.resume("ana") == []
        assert [r.channel for r in store.due(NOW)] == ["file"]  # no backlog after resume


def test_ratings_say_where_they_came_from_and_none_takes_one_back(state: str) -> None:
    with store_with_digest(state) as store:
        store.ratings.rate("ana", "g1", "up", NOW, via="matrix")
        assert store.ratings.current("ana", "g1") == "up"
        assert store.ratings.listing() == [
            {"subscriber": "ana", "paper": "g1", "vote": "up", "via": "matrix",
             "at": "2026-11-30T09:00:00Z"}
        ]  # fmt: skip
        store.ratings.rate("ana", "g1", "down", NOW)
        assert store.ratings.listing("ana")[0]["via"] == "cli"
        assert store.ratings.listing("ben") == []
        store.ratings.rate("ana", "g1", "none", NOW, via="web")
        assert store.ratings.current("ana", "g1") == "none" and store.ratings.listing() == []


def test_sync_positions_and_seen_events_persist(state: str) -> None:
    with store_with_digest(state) as store:
        assert store.web.since("acct") is None
        store.web.save_since("acct", "s1")
        store.web.save_since("acct", "s2")
        store.web.mark_seen("$e1", NOW)
        store.web.mark_seen("$e1", NOW)
    with Store(state) as store:
        assert store.web.since("acct") == "s2"
        assert store.web.seen("$e1") and not store.web.seen("$e2")


def test_the_archive_reads_digests_and_their_message(state: str) -> None:
    with store_with_digest(state) as store:
        (made,) = store.web.digests("ana")
        assert made["period"] == "2026-11-30T08:00:00+00:00" and made["picked"] == 1
        message = store.web.digest_message("ana", made["period"])
        assert message is not None and message.html == "<p>h</p>"
        assert store.web.digest_message("ben", made["period"]) is None
        assert store.web.digests("ben") == []


def test_a_long_id_is_found_by_its_hash_among_the_papers_given_to_its_reader(state: str) -> None:
    """A rating link names a paper of over 200 characters by a hash of its id: whole, the link
    was too long to work. The hash finds it for the reader it was given to, in Slack too."""
    from datetime import timedelta

    from digest.state.web import link_name

    long_id = "https://feeds.example.org/item?" + "x" * 3000
    with store_with_digest(state) as store:
        paper = Paper(long_id, "A paper with a long id", "An abstract.")
        store.add_papers([paper], NOW)
        name = link_name(long_id)
        assert name.startswith("sha256:") and link_name("g1") == "g1"
        assert store.web.named("ana", name) is None  # stored, but given to nobody yet
        digest = Digest("ana", "P2", date(2026, 12, 1), (Scored(paper, 0.5),), NOW)
        store.record_digest(digest, 2, [("email", "email", Message("s", "t", "h"))])
        assert store.web.named("ana", name) == long_id
        assert store.web.named("ben", name) is None  # not ben's
        assert store.web.named("ana", "g1") == "g1" and store.web.named("ana", "g9") is None
        until = NOW + timedelta(minutes=5)
        taken = store.votes.click("k", until, [("ana", name, "down")], NOW)
        assert taken == [("ana", long_id, "A paper with a long id", "down")]
        assert store.ratings.current("ana", long_id) == "down"


JOURNAL = Paper("10.1234/widget.5", "Widgetron: tolerance stacks in widget assembly", "Widgetron.")
ARXIV = Paper("2599.00001", "Tolerance-aware optimization of widget assembly lines", "We study.")


def fold(store: Store, journal: Paper, readers: tuple[str, ...] = ("ana",)) -> None:
    """The journal's record is alerted to the readers; the arXiv record is read, then read again
    naming the journal's DOI: the copy is folded into it (its row gone, its keys and alert
    moved)."""
    store.add_papers([journal], NOW)
    for reader in readers:
        store.journal.record_alert(reader, journal.id, date(2026, 11, 30), 0.9, [], NOW, [])
    store.add_papers([ARXIV], NOW)
    store.add_papers([Paper(ARXIV.id, ARXIV.title, ARXIV.abstract, aliases=(journal.id,))], NOW)
    assert store.papers.paper(journal.id) is None
    assert store.journal.alerted_ids(readers[0], [ARXIV.id, journal.id]) == {ARXIV.id}


def test_a_link_naming_a_copy_folded_since_names_the_paper_it_was_folded_into(state: str) -> None:
    """The alert's 👍/👎 and Slack buttons name the journal's copy, folded since into the arXiv
    paper: the face answered "Unknown paper" and the reader's vote was lost."""
    from datetime import timedelta

    with Store(state) as store:
        fold(store, JOURNAL)
        assert store.web.named("ana", JOURNAL.id) == ARXIV.id
        assert store.web.named("ben", JOURNAL.id) is None  # never given to ben
        assert store.web.named("ana", "10.1234/widget.6") is None  # a DOI never stored
        until = NOW + timedelta(minutes=5)
        taken = store.votes.click("k", until, [("ana", JOURNAL.id, "up")], NOW)
        assert taken == [("ana", ARXIV.id, ARXIV.title, "up")]
        assert store.ratings.current("ana", ARXIV.id) == "up"


def test_a_folded_copy_with_a_long_doi_is_found_by_its_hash(state: str) -> None:
    from digest.state.web import link_name

    long_doi = "10.1234/" + "w" * 300
    journal = Paper(long_doi, JOURNAL.title, JOURNAL.abstract)
    with Store(state) as store:
        fold(store, journal, ("ana", "ben"))
        name = link_name(long_doi)
        assert name.startswith("sha256:")
        assert store.web.named("ana", name) == store.web.named("ben", name) == ARXIV.id
        assert store.web.named("cyd", name) is None


def test_a_pause_holds_the_channel_that_goes_to_its_addresses_whatever_its_name_is_later(
    state: str,
) -> None:
    """Kept by the channel's name alone ("email", then "email-2" once the operator wrote another
    e-mail channel above it), a pause held the new channel, and the address the reader had
    unsubscribed was mailed again. It holds the address; one never unsubscribed is mailed."""
    from datetime import timedelta

    from digest.state.pauses import addressed

    with store_with_digest(state) as store:
        store.web.pause("ana", [addressed("email", [" Ana@Example.ORG"])], NOW)
        (pause,) = store.web.pauses()
        assert (pause.channel, pause.addresses) == ("email", ("ana@example.org",))
        assert store.outbox_counts() == {"paused": 1, "pending": 1}
        paper, later = Paper("g2", "Another paper", "Another abstract."), NOW + timedelta(days=1)
        store.add_papers([paper], later)
        digest = Digest("ana", "2026-12-01T08:00:00+00:00", date(2026, 12, 1),
                        (Scored(paper, 0.5),), later)  # fmt: skip
        message = Message("s", "t", "<p>h</p>")
        rows = [("email", "email", message), ("email-2", "email", message)]
        store.record_digest(digest, 2, [*rows, ("file", "file", message)])
        mails = {"ana": {"email": ("ana.home@example.net",), "email-2": ("ana@example.org",)}}
        assert store.web.hold_paused() == 0  # without the config's addresses: nothing by name
        assert store.web.hold_paused(mails) == 1
        assert sorted(r.channel for r in store.due(later)) == ["email", "file", "file"]
        assert store.web.stopped([("ana", n, to) for n, to in mails["ana"].items()]) == {
            ("ana", "email-2"): pause.since
        }
        # Unsubscribed again from the home address's mail: that one stops too, the first
        # address keeps its first time.
        home = addressed("email", mails["ana"]["email"])
        store.web.pause("ana", [home, addressed("email-2", ["ana@example.org"])], later)
        assert [(p.channel, p.addresses) for p in store.web.pauses()] == [
            ("email", ("ana.home@example.net",)), ("email", ("ana@example.org",))
        ]  # fmt: skip
        assert store.web.mailed_at("ana") == {"ana@example.org", "ana.home@example.net"}
        assert store.web.resume("ana") == ["email"] and store.web.pauses() == []


def test_a_pause_of_before_addresses_were_kept_holds_its_channel_by_name(state: str) -> None:
    with store_with_digest(state) as store:
        store.web.pause("ana", ["email"], NOW)
        (pause,) = store.web.pauses()
        assert (pause.channel, pause.addresses) == ("email", ())
        assert pause.holds("ana", "email", ["someone@example.org"])
        assert not pause.holds("ana", "email-2", []) and not pause.holds("ben", "email", [])


def test_the_addresses_each_subscriber_is_mailed_at_are_recorded_by_the_hold(state: str) -> None:
    """An older mail's unsubscribe link names its reader as they were then: renamed since, the
    addresses their mail went to find the channels that still go there."""
    with store_with_digest(state) as store:
        assert store.web.mailed_at("ana") == set()
        store.web.hold_paused({"ana": {"email": ("ana@example.org",)}, "ben": {}})
        store.web.hold_paused({"ana": {"email": ("ana@example.org", "lab@example.org")}})
        assert store.web.mailed_at("ana") == {"ana@example.org", "lab@example.org"}
        assert store.web.mailed_at("ben") == set()


def test_a_pause_follows_its_reader_renamed_in_the_config(state: str) -> None:
    """Unsubscribed, then renamed by the operator (the same `to`): the address it stopped was
    mailed again under the new name, and `digest status` said no channel went there."""
    from digest.state.pauses import addressed

    with store_with_digest(state) as store:
        store.web.hold_paused({"ana": {"email": ("ana@example.org",)}, "ben": {}})  # a run's pass
        store.web.pause("ana", [addressed("email", ["Ana@Example.org"])], NOW)
        renamed = {"ana-lab": {"email": ("ana@example.org",)}, "ben": {"email": ("b@x.org",)}}
        store.web.hold_paused(renamed)
        assert [(p.subscriber, p.addresses) for p in store.web.pauses()] == [
            ("ana-lab", ("ana@example.org",))
        ]
        assert store.web.resume("ana-lab") == ["email"]
        # A pause whose subscriber no pass saw at its address (mailed before stints were kept)
        # stays with its name: nothing says who was there after it.
        store.web.pause("cy", [addressed("email", ["lab@x.org"])], NOW)
        store.web.hold_paused({"dee": {"email": ("lab@x.org",)}})
        assert [p.subscriber for p in store.web.pauses()] == ["cy"]


ALICE = {"email": ("alice@x.org",)}


def mailed(store: Store, when: datetime, *subscribers: str) -> None:
    """A digest of each subscriber made at `when`, its e-mail queued (a run's, after its pass)."""
    for subscriber in subscribers:
        paper = Paper(f"p-{subscriber}-{when:%d}", "A paper", "An abstract.")
        store.add_papers([paper], when)
        digest = Digest(subscriber, when.isoformat(), when.date(), (Scored(paper, 0.5),), when)
        store.record_digest(digest, 1, [("email", "email", Message("s", "t", "<p>h</p>"))])


def unsubscribed(store: Store, *others: str) -> None:
    """A run of a config of alice and `others` (all at alice's address) that mailed alice alone
    (the others: no match, or not due), alice's one-click unsubscribe taken after it."""
    from digest.state.pauses import addressed

    store.web.hold_paused({"alice": ALICE, **{name: ALICE for name in others}})
    mailed(store, NOW, "alice")
    store.web.pause("alice", [addressed("email", ["Alice@X.org"])], NOW)


def held(store: Store) -> list[str]:
    return [p.subscriber for p in store.web.pauses()]


@pytest.mark.parametrize("change", ["deleted", "renamed"])
def test_a_pause_follows_a_rename_and_never_another_subscription_at_its_address(
    state: str, change: str
) -> None:
    """One reader, two subscriptions at one address (alice, alice-vision): alice unsubscribed.
    Deleted from the config, her pause had gone to alice-vision, a digest its reader never
    stopped, when alice-vision had no mail of its own yet (by whose mail came first, one never
    mailed was "new"); renamed to alicia beside it, alicia was mailed. The rename is the
    subscriber whose stint at the address began when alice's ended."""
    from datetime import timedelta

    with Store(state) as store:
        unsubscribed(store, "alice-vision")
        (pause,) = store.web.pauses()
        config = {"alice-vision": ALICE, "ben": {"email": ("b@y.org",)}}
        if change == "renamed":
            config["alicia"] = ALICE
        new = ["alicia"] if change == "renamed" else []
        assert [p.subscriber for p in store.web.following(config)] == new or ["alice"]
        assert [s for s, _, _ in store.web.renamed("alice", config)] == new
        assert store.web.pauses() == [pause]  # the views write nothing
        for day in (1, 2):  # later passes change nothing: alice-vision was beside alice
            store.web.hold_paused(config)
            assert held(store) == (new or ["alice"])
            mailed(store, NOW + timedelta(days=day), *config)
            assert store.web.hold_paused(config) == len(new)
        assert store.web.stopped([("alice-vision", "email", ALICE["email"])], config) == {}


def test_a_pause_follows_a_rename_back_and_along_a_chain(state: str) -> None:
    """alice -> alicia -> alice: the pause moved to alicia and stayed there, orphaned (alice's
    mail had come before alicia's last), and alice was mailed again. a -> b -> c follows too."""
    from datetime import timedelta

    with Store(state) as store:
        unsubscribed(store)
        for day, name in enumerate(("alicia", "alice", "alicia", "ali"), start=1):
            store.web.hold_paused({name: ALICE, "ben": {"email": ("b@y.org",)}})
            assert held(store) == [name]
            mailed(store, NOW + timedelta(days=day), name, "ben")
        assert store.web.resume("ali") == ["email"] and held(store) == []


def test_a_sibling_whose_channel_was_taken_out_and_put_back_is_no_new_name(state: str) -> None:
    """alice unsubscribed and was deleted; alice-vision's e-mail channel, at the same address,
    was taken out and put back: begun anew after alice left, it had taken her pause."""
    with Store(state) as store:
        unsubscribed(store, "alice-vision")
        store.web.hold_paused({"alice-vision": ALICE})  # alice deleted: her pause stays hers
        store.web.hold_paused({"alice-vision": {}})  # its channel out ...
        store.web.hold_paused({"alice-vision": ALICE})  # ... and back
        assert held(store) == ["alice"]
        assert store.web.renamed("alice", {"alice-vision": ALICE}) == []


def test_a_pause_from_before_stints_were_kept_follows_a_rename_back(state: str) -> None:
    """Upgraded from schema 16: alice had been renamed alicia (the pause moved there), and
    mailed_to's rows became stints of unknown start. Renamed back to alice, the one subscriber
    at the address, the pause had stayed with alicia, and alice was mailed again. Deleted in
    that pass instead, with a sibling mailed beside her, alice keeps it (reg30 F6)."""
    from datetime import timedelta

    from digest.state.pauses import addressed

    with Store(state) as store:
        store.web.hold_paused({"alice": ALICE, "alicia": ALICE, "vis": ALICE})
        with store.web.transaction() as db:
            db.execute("UPDATE stints SET since = NULL")  # as schema 17 copies mailed_to
        mailed(store, NOW, "alice", "vis")
        mailed(store, NOW + timedelta(days=1), "alicia", "vis")  # renamed: mail one after other
        store.web.pause("alicia", [addressed("email", ["alice@x.org"])], NOW)
        store.web.pause("vis", [addressed("email", ["alice@x.org"])], NOW)
        store.web.hold_paused({"alice": ALICE, "ana": {"email": ("a@y.org",)}})
        # alicia's pause is alice's again; vis (deleted) keeps its own: alice was mailed beside it
        assert held(store) == ["alice", "vis"]


def test_after_the_upgrade_a_sibling_seen_beside_the_old_name_is_no_heir(state: str) -> None:
    """reg27 F1: stints of before schema 17 (since NULL): alice and alice-vision seen by a pass
    after the upgrade, then alice deleted: alice-vision had taken her pause."""
    with Store(state) as store:
        unsubscribed(store, "alice-vision")
        with store.web.transaction() as db:
            db.execute("UPDATE stints SET since = NULL")  # as schema 17 copies mailed_to
        store.web.hold_paused({"alice": ALICE, "alice-vision": ALICE})
        store.web.hold_paused({"alice-vision": ALICE})
        assert held(store) == ["alice"]
        assert store.web.renamed("alice", {"alice-vision": ALICE}) == []


def test_a_rename_in_the_upgrades_first_pass_passes_the_pause_to_the_new_name_alone(
    state: str,
) -> None:
    """reg29 F5: stints of before schema 17, alice renamed alicia by the first pass after the
    upgrade: her sibling, first seen in that pass too, had taken the pause beside alicia."""
    with Store(state) as store:
        unsubscribed(store, "vis")
        with store.web.transaction() as db:
            db.execute("UPDATE stints SET since = NULL")  # as schema 17 copies mailed_to
        store.web.hold_paused({"alicia": ALICE, "vis": ALICE})
        assert held(store) == ["alicia"]


def test_the_old_link_after_a_rename_stops_the_new_name_before_and_after_a_pass(
    state: str,
) -> None:
    """Web.renamed: an older mail's link of alice, renamed alicia beside alice-vision."""
    config = {"alicia": ALICE, "alice-vision": ALICE}
    with Store(state) as store:
        store.web.hold_paused({"alice": ALICE, "alice-vision": ALICE})
        assert store.web.renamed("alice", config) == [("alicia", "email", ("alice@x.org",))]
        store.web.hold_paused(config)
        assert store.web.renamed("alice", config) == [("alicia", "email", ("alice@x.org",))]
        assert store.web.renamed("alice", {"alice-vision": ALICE}) == []  # deleted: none


def test_two_subscriptions_renamed_at_once_both_hold_the_pause(state: str) -> None:
    """alice and alice-vision renamed alicia and alicia-vision in one edit: alicia was mailed.
    Which one was alice the state cannot tell: both are held (the address is never mailed
    again), each shown paused, each resumed by its own name."""
    config = {"alicia": ALICE, "alicia-vision": ALICE}
    with Store(state) as store:
        unsubscribed(store, "alice-vision")
        assert [p.subscriber for p in store.web.following(config)] == ["alicia", "alicia-vision"]
        assert [s for s, _, _ in store.web.renamed("alice", config)] == list(config)
        store.web.hold_paused(config)
        assert held(store) == ["alicia", "alicia-vision"]
        assert store.web.resume("alicia-vision") == ["email"] and held(store) == ["alicia"]


def test_a_subscriber_added_or_renamed_a_pass_after_a_deletion_is_no_heir(state: str) -> None:
    """A rename's new stint begins in the pass that sees the old one end. Someone added at the
    address after alice was deleted, or her sibling renamed a pass later (reg28 F3), had taken
    her pause: a digest the reader never stopped."""
    with Store(state) as store:
        unsubscribed(store, "vis")
        store.web.hold_paused({"vis": ALICE})  # alice deleted
        store.web.hold_paused({"vis1": ALICE, "cat": ALICE})  # vis renamed, cat added
        assert held(store) == ["alice"]


def test_resume_by_the_old_name_lifts_the_pause_wherever_it_went(state: str) -> None:
    """`digest resume alice` after the rename, before a run: resume's own follow moved the
    pause to alicia, then "nothing was paused" of alice; after a run, alice was unknown."""
    config = {"alicia": ALICE, "alice-vision": ALICE}
    with Store(state) as store:
        unsubscribed(store, "alice-vision")
        assert store.web.resume("alice", config) == ["email"] and held(store) == []
        store.web.hold_paused(config)
        assert held(store) == []
        unsubscribed(store, "alice-vision")
        store.web.hold_paused(config)
        assert held(store) == ["alicia"] and [
            p.subscriber for p in store.web.lifted("alice", config)
        ] == ["alicia"]
        assert store.web.resume("alice", config) == ["email"] and held(store) == []
        assert store.web.lifted("alice", config) == []
        # A sibling's own pause at the address is not the deleted name's.
        store.web.pause("alice-vision", [addressed_to("alice@x.org")], NOW)
        assert store.web.lifted("alice", {"alice-vision": ALICE}) == []


def addressed_to(address: str) -> str:
    from digest.state.pauses import addressed

    return addressed("email", [address])


def test_a_pass_writes_the_stints_only_when_one_begins_or_ends(state: str) -> None:
    """Where each subscriber's stint at each address began and ended, written on a change
    alone: the usual pass takes no write transaction."""
    from digest.state.pauses import recorded

    with Store(state) as store:
        writes: list[int] = []
        transaction = store.web.transaction

        def counted():  # type: ignore[no-untyped-def]
            writes.append(1)
            return transaction()

        store.web.transaction = counted
        store.web.hold_paused({"alice": ALICE, "ben": {}})
        first = recorded(store.db)
        (since, gone, _, began) = first[("alice", "alice@x.org")]
        assert since is not None and gone is None and began == since and len(writes) == 1
        store.web.hold_paused({"alice": ALICE, "ben": {}})
        assert recorded(store.db) == first and len(writes) == 1
        store.web.hold_paused({"ben": {}})
        (_, gone, _, _) = recorded(store.db)[("alice", "alice@x.org")]
        assert gone is not None and gone > since and len(writes) == 2
        store.web.hold_paused({"ben": {}})
        assert len(writes) == 2
        store.web.hold_paused({"alice": ALICE})
        (back, again, ended, kept) = recorded(store.db)[("alice", "alice@x.org")]
        assert back is not None and back > gone and again is None and len(writes) == 3
        assert ended == gone  # the stint before, kept: a sibling put back is no new name
        assert kept == since  # and when the first began: the heir of a rename put back is one


def test_a_pass_is_later_than_the_one_before_on_a_clock_set_back() -> None:
    from digest.state.pauses import next_pass

    stints = {
        ("a", "a@x.org"): (
            "2026-12-01T09:00:00.000000Z",
            "2026-12-02T09:00:00.000000Z",
            None,
            "2026-12-01T09:00:00.000000Z",
        )
    }
    assert next_pass(stints, NOW) == "2026-12-02T09:00:00.000001Z"
    assert next_pass({}, NOW) == "2026-11-30T09:00:00.000000Z"


def test_a_resume_under_the_new_name_lifts_the_pause_the_next_pass_would_move_there(
    state: str,
) -> None:
    """`digest resume alicia` said "nothing was paused" (the pause was still alice's), and the
    next run moved it to alicia and held her digest: the operator's resume was lost."""
    renamed = {"alicia": ALICE}
    with Store(state) as store:
        unsubscribed(store)
        since = store.web.pauses()[0].since
        target = [("alicia", "email", ("alice@x.org",))]
        assert store.web.stopped(target) == {}  # by name alone: alicia was never paused
        assert store.web.stopped(target, renamed) == {("alicia", "email"): since}
        assert store.web.resume("alicia") == []  # without the config: as before
        assert store.web.resume("alicia", renamed) == ["email"]
        assert store.web.pauses() == []
        assert store.web.hold_paused(renamed) == 0


def passes(store: Store, *configs: dict[str, dict[str, tuple[str, ...]]]) -> None:
    """A run a day for each config: its pass, then each subscriber with an e-mail channel
    mailed (paused or not, its digest is made)."""
    from datetime import timedelta

    (done,) = store.db.execute("SELECT count(DISTINCT created_at) FROM outbox").fetchone()
    for day, config in enumerate(configs, start=done + 1):
        store.web.hold_paused(config)
        mailed(store, NOW + timedelta(days=day), *[name for name, to in config.items() if to])


def upgraded(store: Store) -> None:
    """As schema 17 copies mailed_to: every stint of unknown start, none ended, no first."""
    with store.web.transaction() as db:
        db.execute("UPDATE stints SET since = NULL, gone = NULL, ended = NULL")
        db.execute("DELETE FROM stint_firsts")


VIS = {"email": ("v@y.org",)}


@pytest.mark.parametrize(
    "away",
    [
        {"vis": VIS},  # alice1 deleted, then put back
        {"alice1": {"email": ("a@z.org",)}, "vis": VIS},  # its address away, then back
        {"alice1": {}, "vis": VIS},  # its e-mail channel out, then in
    ],
)
def test_an_older_mails_link_stops_the_heir_whose_stint_began_anew_since(
    state: str, away: dict[str, Any]
) -> None:
    """reg33 R1: alice renamed alice1, then alice1 deleted and put back (or its address or
    channel away and back): its stint at alice's address began anew, after the pass that ended
    alice's, and the link of a mail to alice stopped nothing ("no digest goes there"), while
    alice1 went on mailing alice@x.org. A sibling put back stays no heir (the test above)."""
    with Store(state) as store:
        config = {"alice1": ALICE, "vis": VIS}
        passes(store, {"alice": ALICE, "vis": VIS}, config, away, config)
        assert store.web.renamed("alice", config) == [("alice1", "email", ("alice@x.org",))]


def firsts_forgotten(store: Store) -> None:
    """As schema 18 upgrades a state of 17: a first start kept only for a stint never begun anew."""
    from digest.state.pauses import FIRSTS_SCHEMA

    with store.web.transaction() as db:
        db.execute("DELETE FROM stint_firsts")
        db.execute(FIRSTS_SCHEMA.split(";")[1])


@pytest.mark.parametrize(
    "away",
    [{"vis": VIS}, {"alice1": {"email": ("a@z.org",)}, "vis": VIS}, {"alice1": {}, "vis": VIS}],
)
def test_an_older_mails_link_stops_the_heir_begun_anew_before_the_upgrade(
    state: str, away: dict[str, Any]
) -> None:
    """ops21 F1: the history above made under schema 17 (alice1 put back before the upgrade,
    its first start unknown): the link stopped nothing, and alice1 mailed alice@x.org again.
    Its stint before ended after alice's, and its mail came after hers: it is her heir. A
    sibling mailed beside alice and put back then stays none."""
    with Store(state) as store:
        config = {"alice1": ALICE, "vis": VIS}
        passes(store, {"alice": ALICE, "vis": VIS, "sib": ALICE}, {**config, "sib": ALICE})
        passes(store, away, {**config, "sib": ALICE})
        firsts_forgotten(store)
        assert store.web.renamed("alice", config) == [("alice1", "email", ("alice@x.org",))]


def test_before_the_upgrade_a_sibling_of_the_renames_pass_does_not_take_the_heirs_place(
    state: str,
) -> None:
    """ops23 F1: alice renamed alice1 as zed was added at her address, alice1 deleted and put
    back before the upgrade to 18: the link paused zed alone, and alice1 mailed on. Both were
    first mailed in the rename's pass: both are held, as on a state of 18 all along."""
    with Store(state) as store:
        config = {"alice1": ALICE, "zed": ALICE, "vis": VIS}
        passes(store, {"alice": ALICE, "vis": VIS}, config, {"zed": ALICE, "vis": VIS}, config)
        firsts_forgotten(store)
        assert sorted(s for s, _, _ in store.web.renamed("alice", config)) == ["alice1", "zed"]


def test_before_the_upgrade_a_name_added_a_pass_later_is_no_heir(state: str) -> None:
    """ops23 F2: alice deleted; carol added at her address a day later, taken out and put back
    before the upgrade: alice's link paused carol. Carol's first mail came a pass after alice's
    stint ended: another reader's, as on a state of 18 all along."""
    with Store(state) as store:
        config = {"carol": ALICE, "vis": VIS}
        passes(store, {"alice": ALICE, "vis": VIS}, {"vis": VIS}, config, {"vis": VIS}, config)
        firsts_forgotten(store)
        assert store.web.renamed("alice", config) == []


def test_an_older_mails_link_and_resume_follow_every_rename_since(state: str) -> None:
    """reg31 F8, F11: alice renamed alice1, then alice2, a pass each: the link of a mail to
    alice stopped nothing ("no digest goes there") and `resume alice` was refused, though the
    pause had gone to alice2; renamed then deleted, the pause stays alice1's and `resume alice`
    reaches it; renamed and moved to another address, too."""
    with Store(state) as store:
        passes(store, {"alice": ALICE, "vis": VIS}, {"alice1": ALICE, "vis": VIS})
        config = {"alice2": ALICE, "vis": VIS}
        passes(store, config)
        for old in ("alice", "alice1"):
            assert store.web.renamed(old, config) == [("alice2", "email", ("alice@x.org",))]
        store.web.pause("alice2", [addressed_to("alice@x.org")], NOW)
        assert [p.subscriber for p in store.web.lifted("alice", config)] == ["alice2"]
        for later in ({"vis": VIS}, {"alice2": {"email": ("a@z.org",)}, "vis": VIS}):
            passes(store, later)
            assert [p.subscriber for p in store.web.lifted("alice", later)] == ["alice2"]
            assert store.web.renamed("alice", later) == []  # no e-mail goes to alice's address
        assert store.web.resume("alice", {"vis": VIS}) == ["email"] and held(store) == []


@pytest.mark.parametrize("away", [{"email": ("a@z.org",)}, {"email": ("a@z.org", "b@z.org")}])
def test_a_pause_follows_a_rename_made_while_its_mail_went_elsewhere(
    state: str, away: dict[str, tuple[str, ...]]
) -> None:
    """reg31 F10: alice unsubscribed, her `to` pointed elsewhere, renamed alice1, then her
    address put back: alice1 was mailed there, the pause left under the gone name alice. The
    rename is seen at the address it was made at; the pause stops its own address alone."""
    with Store(state) as store:
        passes(store, {"alice": ALICE, "vis": VIS})
        store.web.pause("alice", [addressed_to("alice@x.org")], NOW)
        passes(store, {"alice": away, "vis": VIS}, {"alice1": away, "vis": VIS})
        assert held(store) == ["alice1"] and store.web.hold_paused({"alice1": away}) == 0
        passes(store, {"alice1": ALICE, "vis": VIS})
        assert held(store) == ["alice1"]
        assert store.web.stopped([("alice1", "email", ("alice@x.org",))]) != {}


def test_a_sibling_renamed_in_the_upgrades_first_pass_is_no_heir_of_one_deleted_before(
    state: str,
) -> None:
    """reg31 F9: alice and vis at one address, alice unsubscribed and deleted before the
    upgrade; vis renamed vis2 in the first pass after it took alice's pause (alice's copied
    stint ended in that pass, as vis's did): vis2 was never mailed again."""
    with Store(state) as store:
        passes(store, {"alice": ALICE, "vis": ALICE})
        store.web.pause("alice", [addressed_to("alice@x.org")], NOW)
        passes(store, {"vis": ALICE})
        upgraded(store)
        store.web.hold_paused({"vis2": ALICE})
        assert held(store) == ["alice"]


@pytest.mark.parametrize(
    "vis, before, after",
    [
        (ALICE, [], {"alice1": ALICE, "vis2": ALICE}),  # vis renamed in the first pass
        (ALICE, [], {"alice1": ALICE, "vis": ALICE, "carl": ALICE}),  # carl added then
        (ALICE, [{"alice1": ALICE, "vis2": ALICE}], {"alice1": ALICE, "vis2": ALICE}),
        (ALICE, [{"alice1": ALICE, "vis": ALICE, "carl": ALICE}], {"alice1": ALICE, "carl": ALICE}),
        (VIS, [], {"alice1": ALICE, "vis": ALICE}),  # vis's `to` moved to alice's address
        (VIS, [{"alice1": ALICE, "carl": ALICE}], {"alice1": ALICE, "carl": ALICE}),
    ],
)
def test_after_the_upgrade_an_older_link_stops_the_renamed_reader_alone(
    state: str, vis: dict[str, tuple[str, ...]], before: list[dict[str, Any]], after: Any
) -> None:
    """reg31 F9 (V4): alice renamed alice1 before the upgrade; in or before its first pass,
    vis renamed vis2, carl added at the address, or vis's `to` moved there: the link of a mail
    to alice stopped their e-mail (first mailed after alice's last), beside alice1's or alone."""
    with Store(state) as store:
        passes(store, {"alice": ALICE, "vis": vis}, {"alice1": ALICE, "vis": vis}, *before)
        upgraded(store)
        passes(store, after)
        assert [s for s, _, _ in store.web.renamed("alice", after)] == ["alice1"]


@pytest.mark.parametrize("upgrade_after", [1, 2])
def test_renames_on_both_sides_of_the_upgrade_are_followed_one_after_another(
    state: str, upgrade_after: int
) -> None:
    """alice renamed alice1, then alice2, the upgrade between the two or after both: the
    stints copied by the upgrade no longer say alice1 began when alice left, but their mail
    does (alice1 mailed first after alice, alice2 after alice1). A guard: a sibling gone from
    the address in the upgrade's first pass keeps the new name from alice (reg31 F9), and
    alice1, gone then too, is no sibling."""
    renames = [{"alice1": ALICE, "vis": ALICE}, {"alice2": ALICE, "vis": ALICE}]
    with Store(state) as store:
        passes(store, {"alice": ALICE, "vis": ALICE}, *renames[:upgrade_after])
        upgraded(store)
        passes(store, *renames[upgrade_after:])
        config = renames[-1]
        assert store.web.renamed("alice", config) == [("alice2", "email", ("alice@x.org",))]
        assert store.web.renamed("alice1", config) == [("alice2", "email", ("alice@x.org",))]

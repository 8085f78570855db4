"""The state's schema upgrades, each from the version before it, on SQLite and PostgreSQL: the
tables a step adds, and what the rows of the older version still do after it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from digest.models import Paper
from digest.models.texts import text_keys
from digest.state import Store, engine
from digest.state.schema import SCHEMA

NOW = datetime(2026, 11, 30, 9, tzinfo=UTC)


def older(state: str, version: int) -> None:
    """A state as the digest of schema `version` left it, with one paper, rated 👍 from a web
    link at 09:00 over the CLI's 👎 of the day before."""
    if not state.startswith("postgresql"):
        Path(state).parent.mkdir(parents=True, exist_ok=True)
    db = engine.connect(state)
    try:
        with db.transaction() as tx:
            for script in SCHEMA[:version]:
                tx.script(script)
            tx.set_version(version)
            tx.execute(
                "INSERT INTO papers (id, title, abstract, authors, categories, venue, url,"
                " code_url, published, source, first_seen) VALUES"
                " ('p1', 'A paper', 'x', '[]', '[]', '', '', '', NULL, 'files', ?)",
                ("2026-11-29T09:00:00Z",),
            )
            tx.execute(
                "INSERT INTO ratings (subscriber, paper_id, rating, rated_at, via) VALUES"
                " ('ana', 'p1', 1, '2026-11-30T09:00:00Z', 'web')"
            )
    finally:
        db.close()


def test_schema_14_keeps_what_web_votes_replaced_and_the_undo_links_made_before(
    state: str,
) -> None:
    """Kept in the memory of the replica that took it, a double click's second POST on another
    one had no row to put back: its undo deleted the reader's 👎 (schema 14, web_votes)."""
    older(state, 13)
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) >= 14
        # The undo link of the vote made before: its time and the row it replaced, as it was.
        was = [-1, "2026-11-29T09:00:00Z", "cli", ""]
        assert store.ratings.undo("ana", "p1", "2026-11-30T09:00:00Z", was)
        (row,) = store.ratings.listing("ana")
        assert (row["vote"], row["via"], row["at"]) == ("down", "cli", "2026-11-29T09:00:00Z")
        _, key = store.ratings.rate_undoably("ana", "p1", "up", NOW)
    with Store(state) as other:  # another replica: what the vote replaced is in the state
        assert other.ratings.rate_undoably("ana", "p1", "up", NOW) == (was, key)
        assert other.ratings.undo("ana", "p1", key)
        assert other.ratings.listing("ana") == [row]


TEXT = " ".join(f"We measure the {w} of forty-one galaxies in the survey." for w in "abcdefgh")


def test_schema_15_keys_stored_papers_by_their_abstract_alone(state: str) -> None:
    """A paper stored before had its text key of its title's first words only: its journal
    version, "A survey of …" with the whole abstract, was a second paper, sent again."""
    title = "Metal-poor stars in the galactic halo"
    with Store(state) as store:
        store.add_papers([Paper("2601.00001", title, TEXT, authors=("Ana Lima",))], NOW)
    alone = text_keys(title, TEXT)[1]
    db = engine.connect(state)
    try:
        with db.transaction() as tx:  # as schema 14 left it
            tx.execute("DELETE FROM paper_keys WHERE key = ?", (alone,))
            tx.set_version(14)
    finally:
        db.close()
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) >= 15
        journal = Paper("10.1000/j.1", f"A survey: {title}", TEXT, authors=("A. Lima",))
        assert store.add_papers([journal], NOW) == 0
        assert store.count_papers() == 1


def test_schema_16_keeps_a_pause_of_before_by_its_channels_name_and_records_addresses(
    state: str,
) -> None:
    """Schema 16 (mailed_to): a pause keeps the addresses it stopped, and the hold records where
    each subscriber's e-mail goes; a pause made before, by the channel's name alone, still holds
    that channel by name and `digest resume` lifts it."""
    older(state, 15)
    db = engine.connect(state)
    try:
        with db.transaction() as tx:
            tx.execute(
                "INSERT INTO pauses (subscriber, channel, since) VALUES ('ana', 'email', ?)",
                ("2026-11-30T09:00:00Z",),
            )
    finally:
        db.close()
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) >= 16
        (pause,) = store.web.pauses()
        assert (pause.channel, pause.addresses) == ("email", ())
        assert store.web.stopped([("ana", "email", ("ana@example.org",))]) == {
            ("ana", "email"): "2026-11-30T09:00:00Z"
        }
        store.web.hold_paused({"ana": {"email": ("ana@example.org",)}})
        assert store.web.mailed_at("ana") == {"ana@example.org"}
        assert store.web.resume("ana") == ["email"]


def test_the_upgrade_keys_a_large_store_a_page_at_a_time(
    state: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The whole store at once had taken 1.8 GB at 660,000 papers, killed for memory at the
    first start after the upgrade; and nothing said what the run was doing."""
    from digest.state import catalog

    texts = [f"{TEXT} We name it field {i}." for i in range(7)]
    with Store(state) as store:
        papers = [Paper(f"2601.0000{i}", f"Halo field {i} stars", t) for i, t in enumerate(texts)]
        store.add_papers(papers, NOW)
    alone = [text_keys(p.title, p.abstract)[1] for p in papers]
    db = engine.connect(state)
    try:
        with db.transaction() as tx:  # as schema 14 left it
            tx.executemany("DELETE FROM paper_keys WHERE key = ?", [(k,) for k in alone])
            tx.set_version(14)
    finally:
        db.close()
    monkeypatch.setattr(catalog, "PAGE", 2)
    with Store(state) as store:
        owners = [store.papers.known([k]) for k in alone]
    assert owners == [p.id for p in papers]
    assert "upgrading to schema" in caplog.text


def test_schema_17_keeps_the_addresses_as_old_stints_and_runs_again_over_a_set_back_state(
    state: str,
) -> None:
    """Schema 17 (stints): mailed_to's rows are stints begun before stints were kept. A
    subscription beside a deleted one at its address (never mailed apart from it) is no heir; a
    state set back runs the step again and keeps where each stint began and ended (two columns
    added had failed there)."""
    from digest.state.pauses import recorded

    older(state, 16)
    db = engine.connect(state)
    try:
        with db.transaction() as tx:
            for name in ("ana", "ana-vision"):
                tx.execute("INSERT INTO mailed_to VALUES (?, 'ana@example.org')", (name,))
            tx.execute(
                "INSERT INTO pauses (subscriber, channel, since) VALUES ('ana', ?, ?)",
                ("email\nana@example.org", "2026-11-30T09:00:00Z"),
            )
    finally:
        db.close()
    vision = {"ana-vision": {"email": ("ana@example.org",)}}
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) >= 17
        assert set(recorded(store.db).values()) == {(None, None, None, None)}
        store.web.hold_paused(vision)  # ana deleted: her pause stays hers
        assert [p.subscriber for p in store.web.pauses()] == ["ana"]
        kept = recorded(store.db)
        assert kept[("ana", "ana@example.org")][1] is not None
    db = engine.connect(state)
    try:
        with db.transaction() as tx:
            tx.set_version(14)
    finally:
        db.close()
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) and recorded(store.db) == kept
        store.web.hold_paused({**vision, "cy": {"email": ("ana@example.org",)}})
        assert [p.subscriber for p in store.web.pauses()] == ["ana"]  # cy: added a pass later


def test_schema_18_keeps_when_each_first_stint_began_where_the_state_knows_it(state: str) -> None:
    """Schema 18 (stint_firsts): a stint never begun anew (ended NULL) began first at its since;
    one begun anew, or of before schema 17 (since NULL), is of unknown first start."""
    from digest.state.pauses import recorded

    older(state, 17)
    db = engine.connect(state)
    try:
        with db.transaction() as tx:
            for name, since, ended in (
                ("ana", "2026-11-01T09:00:00.000000Z", None),
                ("bo", "2026-11-03T09:00:00.000000Z", "2026-11-02T09:00:00.000000Z"),
                ("cy", None, None),
            ):
                tx.execute(
                    "INSERT INTO stints (subscriber, address, since, ended)"
                    " VALUES (?, 'x@y.org', ?, ?)",
                    (name, since, ended),
                )
    finally:
        db.close()
    with Store(state) as store:
        assert store.db.version() == len(SCHEMA) >= 18
        firsts = {s: v[3] for (s, _), v in recorded(store.db).items()}
    assert firsts == {"ana": "2026-11-01T09:00:00.000000Z", "bo": None, "cy": None}

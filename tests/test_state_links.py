"""A name of the config reused: its present stints began as or after its earlier ones ended
(dana renamed dana1 at d@x.org, then a newcomer named dana at d2@x.org), read from the stints
delivery passes record, with the earlier stints' heirs; the same reader's address changed or
dropped is no reuse."""

from __future__ import annotations

from digest.state import Store
from digest.state.links import Reuse, reused

D, D2 = {"email": ("d@x.org",)}, {"email": ("d2@x.org",)}
EVE = {"email": ("e@x.org",)}


def test_a_name_given_to_a_newcomer_after_a_rename_has_the_renamed_reader_for_heir(
    state: str,
) -> None:
    with Store(state) as store:
        store.web.hold_paused({"dana": D, "eve": EVE})
        store.web.hold_paused({"dana1": D, "eve": EVE})  # renamed
        config = {"dana1": D, "dana": D2, "eve": EVE}  # the name reused, a run later
        expected = Reuse(frozenset({"d@x.org"}), ("dana1",), gap=True)
        assert reused(store.web, "dana", config) == expected  # before the pass records it
        store.web.hold_paused(config)
        assert reused(store.web, "dana", config) == expected
        assert (
            reused(store.web, "dana1", config) is None and reused(store.web, "eve", config) is None
        )


def test_a_rename_and_the_name_reused_in_one_edit_is_a_reuse(state: str) -> None:
    with Store(state) as store:
        store.web.hold_paused({"dana": D})
        config = {"dana1": D, "dana": D2}
        store.web.hold_paused(config)
        assert reused(store.web, "dana", config) == Reuse(frozenset({"d@x.org"}), ("dana1",), False)


def test_an_address_changed_or_dropped_by_the_same_reader_is_no_reuse(state: str) -> None:
    with Store(state) as store:
        store.web.hold_paused({"dana": {"email": ("d@x.org", "x@x.org")}})
        store.web.hold_paused({"dana": {"email": ("x@x.org",)}})  # one address dropped
        assert reused(store.web, "dana", {"dana": {"email": ("x@x.org",)}}) is None
        store.web.hold_paused({"dana": D2})  # `to` changed in one edit, no heir
        assert reused(store.web, "dana", {"dana": D2}) is None


def test_a_name_deleted_and_given_later_to_another_address_has_no_heir(state: str) -> None:
    with Store(state) as store:
        store.web.hold_paused({"dana": D, "eve": EVE})
        store.web.hold_paused({"eve": EVE})  # deleted
        config = {"dana": D2, "eve": EVE}
        store.web.hold_paused(config)
        assert reused(store.web, "dana", config) == Reuse(frozenset({"d@x.org"}), (), True)


def test_deleted_and_put_back_at_its_address_is_the_same_reader(state: str) -> None:
    with Store(state) as store:
        store.web.hold_paused({"dana": D})
        store.web.hold_paused({})
        store.web.hold_paused({"dana": D})
        assert reused(store.web, "dana", {"dana": D}) is None


def test_the_cut_of_a_reuse_is_the_clock_of_the_run_that_made_the_newcomers_first_digest(
    state: str,
) -> None:
    """Stints are stamped by the host's clock, digests by the run's (`--now`): the run in
    progress when the newcomer's stints began made its first digest; begun in a pass of no run
    (`digest retry`), the next run did; none yet, every digest is the earlier reader's."""
    from datetime import UTC, datetime

    from digest.state.reuses import cut

    host = datetime(2026, 12, 7, 7, 0, tzinfo=UTC)
    with Store(state) as store:
        first = store.start_run(host, datetime(2026, 12, 1, 9, tzinfo=UTC))
        store.finish_run(first, host.replace(minute=1), "ok", {})
        second = store.start_run(host.replace(minute=5), datetime(2026, 12, 2, 9, tzinfo=UTC))
        assert cut(store.web.db, "2026-12-07T07:05:30.000001Z") == "2026-12-02T09:00:00Z"
        store.finish_run(second, host.replace(minute=6), "ok", {})
        assert cut(store.web.db, "2026-12-07T07:05:30.000001Z") == "2026-12-02T09:00:00Z"
        assert cut(store.web.db, "2026-12-07T07:03:00.000000Z") == "2026-12-02T09:00:00Z"
        assert cut(store.web.db, "2026-12-07T07:09:00.000000Z") == ""

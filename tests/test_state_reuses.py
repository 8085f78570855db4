"""Who held a name when (holders.py), read from the stints: which stretches at addresses are one
reader's, which reader is the name's present one, the runs' spans of each and their keys. And a
reader whose `to` changed in one edit (no reuse) keeps her votes and her key, end to end."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_web_reuse import NEWCOMER, WEDNESDAY, _payload, day, listed, monday
from web_project import MONDAY, SECRET, TUESDAY, Project, project

from digest.state.holders import LATER, holders
from digest.state.pauses import Stints
from digest.web.tokens import Signer


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def held(stints: Stints, present: set[str], clock: Any = lambda t: t) -> Any:
    return holders("ana", stints, present, clock)


def test_a_to_changed_in_one_edit_is_one_reader() -> None:
    """No rename at either address: the reader's e-mail moved, the name was never reused."""
    moved = {("ana", "a@"): ("t1", "t2", None, "t1"), ("ana", "b@"): ("t2", None, None, "t2")}
    assert held(moved, {"b@"}) is None
    back = {
        **moved,
        ("ana", "a@"): ("t3", None, "t2", "t1"),
        ("ana", "b@"): ("t2", "t3", None, "t2"),
    }
    assert held(back, {"a@"}) is None  # and back again: still hers
    both = {("ana", "a@"): ("t1", "t3", None, "t1"), ("ana", "b@"): ("t2", None, None, "t2")}
    assert held(both, {"b@"}) is None  # side by side, one dropped


def test_a_rename_at_either_address_is_another_reader() -> None:
    """ana renamed ana1 (at a@) as a newcomer took the name at b@; or ana deleted as ana1 (at
    b@) was renamed ana: the name went from one reader to another in one pass."""
    out = {
        ("ana", "a@"): ("t1", "t2", None, "t1"),
        ("ana1", "a@"): ("t2", None, None, "t2"),
        ("ana", "b@"): ("t2", None, None, "t2"),
    }
    into = {
        ("ana", "a@"): ("t1", "t2", None, "t1"),
        ("ana1", "b@"): ("t1", "t2", None, "t1"),
        ("ana", "b@"): ("t2", None, None, "t2"),
    }
    for stints in (out, into):
        found = held(stints, {"b@"})
        assert [(r.key, r.spans, r.present) for r in found.readers] == [
            ("", (("", "t2"),), False),
            ("t2", (("t2", LATER),), True),
        ]


def test_a_reader_back_at_her_address_holds_her_stretches_alone() -> None:
    """H and E of ops26: the newcomer between (by a rename, or a run apart) is another reader,
    also when he left as she came back; her first stretch is under the name's key."""
    renamed_back = {
        ("ana", "a@"): ("t3", None, "t2", "t1"),
        ("ana", "b@"): ("t2", "t3", None, "t2"),
        ("ana1", "a@"): ("t2", "t3", None, "t2"),
    }
    deleted = {("ana", "a@"): ("t4", None, "t2", "t1"), ("ana", "b@"): ("t3", "t4", None, "t3")}
    for stints, his_day, back in ((renamed_back, "t2", "t3"), (deleted, "t3", "t4")):
        found = held(stints, {"a@"})
        her, his = found.readers
        assert her.present and her.spans == (("", "t2"), (back, LATER)) and her.key == ""
        assert not his.present and his.holds(his_day)
        assert not her.holds("t2") and his.key != ""
        assert found.keyed("") is her and found.keyed(back) is her and found.keyed(his.key) is his


def test_each_reader_of_a_name_reused_twice_has_its_own_key() -> None:
    stints = {
        ("ana", "a@"): ("t1", "t2", None, "t1"),
        ("ana1", "a@"): ("t2", None, None, "t2"),
        ("ana", "b@"): ("t2", "t3", None, "t2"),
        ("ana2", "b@"): ("t3", None, None, "t3"),
        ("ana", "c@"): ("t3", None, None, "t3"),
    }
    found = held(stints, {"c@"})
    assert [r.key for r in found.readers] == ["", "t2", "t3"]
    assert [found.keyed(k) for k in ("", "t2", "t3")] == list(found.readers)
    assert found.present is found.readers[2]
    # No run since the last reuse: nothing is the present reader's yet, and no key of its own.
    waiting = held(stints, {"c@"}, lambda t: "" if t == "t3" else t)
    assert waiting.present.spans == ((LATER, LATER),) and waiting.keyed("t3") is None
    assert waiting.readers[1].spans == (("t2", LATER),)


def test_a_name_whose_last_reader_went_without_a_rename_has_its_readers() -> None:
    """lineage2: ana renamed ana1 at t2 and a newcomer named ana at b@, who went at t3 (deleted,
    or his e-mail taken out): the name's readers are read still, the newcomer the present one,
    held on (his records since are his). They had been None (no rename at t3): one reader."""
    stints = {
        ("ana", "a@"): ("t1", "t2", None, "t1"),
        ("ana1", "a@"): ("t2", None, None, "t2"),
        ("ana", "b@"): ("t2", "t3", None, "t2"),
    }
    found = held(stints, set())
    assert [(r.key, r.spans, r.present) for r in found.readers] == [
        ("", (("", "t2"),), False),
        ("t2", (("t2", LATER),), True),
    ]
    assert not found.newcomer and found.keyed("") is found.readers[0]
    # Two newcomers one after the other at b@ and c@, the `to` changed in one edit: one reader.
    twice = {**stints, ("ana", "c@"): ("t3", "t4", None, "t3")}
    assert [r.spans for r in held(twice, set()).readers] == [
        (("", "t2"),),
        (("t2", "t3"), ("t3", LATER)),
    ]
    # Renamed at t3 (nico at b@): a newcomer after him, as before.
    renamed = {**stints, ("nico", "b@"): ("t3", None, None, "t3")}
    assert held(renamed, set()).newcomer
    alone = {("ana", "a@"): ("t1", "t2", None, "t1"), ("ana", "b@"): ("t2", "t3", None, "t2")}
    assert held(alone, set()) is None  # her `to` changed, then she went: one reader


def test_a_reader_whose_to_changed_keeps_her_votes_and_her_key(web: Project, capsys) -> None:
    """Not a reuse: ana's e-mail moved to ana.new@ in one edit. Her Monday 👍 rates for her
    and the name's key shows both her digests."""
    from digest.corpus import rated
    from digest.state import Store

    html = monday(web, capsys)
    up = web.links(html, "👍")[0]
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    day(web, capsys, WEDNESDAY, config.replace("ana@", "ana.new@"), [("w1", "Graphs", "Graph.")])
    (mail,) = web.mails("ana.new@example.org")
    key = Signer(SECRET).archive_key("ana")
    assert set(re.findall(r"/a/([^/\"]+)/", web.html_of(mail))) == {key}
    with web.web() as http:
        assert http.post(up).status_code == 200
        assert listed(http, key) == ["2026-12-02", "2026-11-30"]
    settings = web.settings()
    with Store(web.state) as store:
        (ana,) = [s for s in rated(settings, store, settings.subscribers) if s.name == "ana"]
    assert json.loads(_payload(up))[2] in {p.id for p in ana.profile.library}


def test_a_pending_mail_of_a_reader_whose_to_changed_goes_to_her_new_address(
    web: Project, capsys
) -> None:
    """Not a reuse (ops27 F1's rule): ana's Monday digest left pending (the relay down), then
    her e-mail moved to ana.new@ in one edit: the row is hers still, sent there as before."""
    from test_web_reuse import _down

    _down(web, capsys, MONDAY, "ana@example.org")
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    day(web, capsys, WEDNESDAY, config.replace("ana@", "ana.new@"), [("w1", "Graphs", "Graph.")])
    dates = [
        re.findall(r"\d{4}-\d\d-\d\d", str(m["Subject"])) for m in web.mails("ana.new@example.org")
    ]
    assert dates == [["2026-11-30"], ["2026-12-02"]]


def test_a_delivery_pass_reads_who_held_a_name_when_for_reused_names_alone(
    web: Project, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whose a due row is (state/recipients.py): no holders read for a name never reused (a
    pass sends thousands), and those of the reused names once a pass, however many rows."""
    from digest.state import recipients, reuses

    monday(web, capsys)
    read: list[str] = []
    passes: list[int] = []
    real_holders, real_present = reuses.holders, recipients.present
    monkeypatch.setattr(reuses, "holders", lambda *a: read.append(a[0]) or real_holders(*a))
    monkeypatch.setattr(recipients, "present", lambda *a: passes.append(1) or real_present(*a))
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    day(web, capsys, TUESDAY, config, [("u1", "Graph networks", "Graphs.")])
    assert read == [] and passes == [1]  # ana's e-mail, file and Slack, ben's: one pass
    renamed = config.replace('name = "ana"', 'name = "ana1"') + NEWCOMER
    day(web, capsys, WEDNESDAY, renamed, [("w1", "Graph molecules", "Graphs.")])
    assert set(read) == {"ana"} and passes == [1, 1]

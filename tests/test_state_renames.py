"""A renamed reader is one reader (state/lineage.py): the period made under the old name is made,
the papers it was given are given, its alerts alerted and counted in the day's cap; a newcomer
who took a renamed reader's name is another reader whatever its channels (holders._newcomer):
the earlier reader's pending rows, floor and held alerts are not his."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_reuse import NEWCOMER, _subjects
from web_project import GRAPHS, IMAGES, MONDAY, TUESDAY, Project, papers_file, project

from digest.state import Store
from digest.state.holders import LATER, holders

LATER_MONDAY = "2026-11-30T10:00:00+00:00"


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def _run(p: Project, capsys: Any, now: str, config: str | None = None) -> tuple[int, str]:
    """A run at `now` (over `config`, when given), begun in a second of its own (runs are
    stamped to the second: reuses.cut)."""
    time.sleep(1.01 - time.time() % 1)
    if config is not None:
        (p.root / "digest.toml").write_text(config, "utf-8")
    code, _, err = p.digest(capsys, "run", "--now", now)
    assert "Traceback" not in err
    return code, err


def _given(p: Project, name: str) -> set[str]:
    with Store(p.state) as store:
        rows = store.db.execute("SELECT paper_id FROM sent WHERE subscriber = ?", (name,))
        return {str(r[0]) for r in rows}


def _renamed(p: Project) -> str:
    text = (p.root / "digest.toml").read_text(encoding="utf-8")
    return text.replace('name = "ana"', 'name = "ana1"')


@pytest.mark.parametrize("newcomer", [False, True])
def test_a_rename_on_the_day_of_a_digest_mails_the_reader_that_period_once(
    web: Project, capsys, newcomer: bool
) -> None:
    """ops28 F2: ana's Monday digest sent at 09:00, ana renamed ana1 (alone, or with a newcomer
    named ana at ana2@) and a run at 10:00 had mailed ana@ the same papers again under ana1.
    The period is made; Tuesday's digest gives none of Monday's papers again."""
    _run(web, capsys, MONDAY)
    monday = _given(web, "ana")
    assert len(web.mails("ana@example.org")) == 1 and monday
    _run(web, capsys, LATER_MONDAY, _renamed(web) + (NEWCOMER if newcomer else ""))
    assert [re.findall(r"\d{4}-\d\d-\d\d", s) for s in _subjects(web, "ana@example.org")] == [
        ["2026-11-30"]
    ]
    assert not _given(web, "ana1")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, TUESDAY)
    assert len(web.mails("ana@example.org")) == 2
    assert _given(web, "ana1") and not _given(web, "ana1") & monday


def test_a_rename_a_day_later_keeps_what_the_old_name_was_given(web: Project, capsys) -> None:
    """Renamed between two days: the new name's first digest ranks no paper the old name was
    given (its floor and its papers carry over)."""
    _run(web, capsys, MONDAY)
    monday = _given(web, "ana")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, TUESDAY, _renamed(web))
    assert len(web.mails("ana@example.org")) == 2
    assert _given(web, "ana1") and not _given(web, "ana1") & monday


SLACK_ONLY = '\n[[subscribers]]\nname = "ana"\ninterests = "graph neural networks"\n'


def _slack_left_pending(p: Project, capsys: Any) -> None:
    """Monday: ana's mail goes, her Slack post fails (the server's 500): left pending."""
    p.slack.script = [(500, "internal_error")]
    code, _ = _run(p, capsys, MONDAY)
    assert code == 1 and len(p.mails("ana@example.org")) == 1
    assert not any("2026-11-30" in str(m.get("text")) for m in p.slack.accepted)


def test_a_pending_slack_row_of_a_renamed_reader_never_goes_to_a_newcomer_without_e_mail(
    web: Project, capsys
) -> None:
    """ops28 F1: ana renamed ana1, a newcomer named ana with a Slack channel alone: ana's
    Monday Slack row had been posted to his webhook (a name with no e-mail address now was
    taken for never reused). It is dead, made for an earlier reader of the name."""
    _slack_left_pending(web, capsys)
    hook = web.slack.url("NEWCOMERNEWCOMERNEWCOMER")
    newcomer = SLACK_ONLY + f'[[subscribers.channels]]\nkind = "slack"\nwebhook = "{hook}"\n'
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    code, _ = _run(web, capsys, TUESDAY, _renamed(web) + newcomer)
    assert code == 1
    assert not any("2026-11-30" in str(m.get("text")) for m in web.slack.accepted)
    _, out, _ = web.digest(capsys, "status")
    (line,) = [x for x in out.splitlines() if x.strip().startswith("dead ")]
    assert "ana/slack" in line and "made for an earlier reader of the name" in line


def test_a_reader_who_took_her_e_mail_out_still_gets_her_pending_slack_row(
    web: Project, capsys
) -> None:
    """No rename: ana kept her name and took her e-mail channel out; her pending Slack row is
    hers, posted."""
    _slack_left_pending(web, capsys)
    text = (web.root / "digest.toml").read_text(encoding="utf-8")
    mail = '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n\n'
    assert mail in text
    code, err = _run(web, capsys, TUESDAY, text.replace(mail, "", 1))
    assert code == 0, err
    assert any("2026-11-30" in str(m.get("text")) for m in web.slack.accepted)


def test_a_name_whose_e_mail_went_to_its_rename_has_a_newcomer_reader() -> None:
    """holders(): the name's address now another name's from the pass its stint ended, and no
    address of its own: its present reader began then; without the rename, none (one reader)."""
    renamed = {("ana", "a@"): ("t1", "t2", None, "t1"), ("ana1", "a@"): ("t2", None, None, "t2")}
    found = holders("ana", renamed, set(), lambda t: t)
    assert found is not None
    assert [(r.key, r.spans, r.present) for r in found.readers] == [
        ("", (("", "t2"),), False),
        ("t2", (("t2", LATER),), True),
    ]
    assert found.keyed("t2") is found.present and not found.present.holds("t1")
    dropped = {("ana", "a@"): ("t1", "t2", None, "t1")}
    assert holders("ana", dropped, set(), lambda t: t) is None
    later = {**renamed, ("ana1", "a@"): ("t3", None, None, "t3")}  # a run or more apart
    assert holders("ana", later, set(), lambda t: t) is None


ALERTING = "alert_threshold = 0.0\nmax_alerts_per_day = 1\n"


def _alerting(p: Project, name: str = "ana") -> str:
    """The config with `name` (ana) alerted of every match, one alert a day."""
    text = (p.root / "digest.toml").read_text(encoding="utf-8")
    head = f'name = "{name}"\ninterests = "deep learning'
    start = text.index(head)
    end = text.index("\n", start + len(head)) + 1
    return text[:end] + ALERTING + text[end:]


def _alerts(p: Project) -> list[tuple[str, str]]:
    with Store(p.state) as store:
        rows = store.db.execute("SELECT subscriber, paper_id FROM alerts ORDER BY made_at")
        return [(str(r[0]), str(r[1])) for r in rows]


def _hold(p: Project, name: str, paper_id: str, now: str) -> None:
    """A hold of `paper_id` for `name`, as an alert pass over the cap makes it."""
    from datetime import datetime

    from digest.models import Scored

    with Store(p.state) as store:
        paper = store.papers.paper(paper_id)
        assert paper is not None
        when = datetime.fromisoformat(now)
        why = ["score 0.50 is at or above your alert threshold"]
        store.journal.hold(name, when.date(), [(Scored(paper, 0.5), why)], "cap", when)


def test_a_held_alert_of_a_paper_the_old_name_was_given_lets_the_digest_go(
    web: Project, capsys
) -> None:
    """ops29 F1: ana renamed ana1 with a hold of ana1's of a paper ana's Monday digest gave
    (made by ana1's first alert pass): every digest of ana1 carried it and was refused "given
    meanwhile", for good. The hold is dropped, as one a digest does not carry; Tuesday's goes."""
    _run(web, capsys, MONDAY, _alerting(web))
    (monday,) = sorted(_given(web, "ana"))[:1]
    _run(web, capsys, LATER_MONDAY, _renamed(web))
    _hold(web, "ana1", monday, LATER_MONDAY)
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _, err = _run(web, capsys, TUESDAY)
    assert "given meanwhile" not in err
    assert [s for s in _subjects(web, "ana@example.org") if "2026-12-01" in s]
    with Store(web.state) as store:
        assert store.journal.holds("ana1") == []


def test_a_rename_sends_no_alert_again_and_keeps_the_days_cap(web: Project, capsys) -> None:
    """ops29 F2: ana alerted of g3 at 10:00 (cap 1, d3 held), renamed ana1 at 11:00: ana1's
    alert pass read the name alone, and mailed ana@ an alert again (the old name's papers, its
    cap anew). It counts ana's alerts as its own: nothing more is alerted that day."""
    _run(web, capsys, MONDAY, _alerting(web))
    mails = len(web.mails("ana@example.org"))
    papers_file(web.root / "feed" / "later.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, LATER_MONDAY)
    assert [name for name, _ in _alerts(web)] == ["ana"]
    assert len(web.mails("ana@example.org")) == mails + 1
    _run(web, capsys, "2026-11-30T11:00:00+00:00", _renamed(web))
    assert [name for name, _ in _alerts(web)] == ["ana"]
    assert len(web.mails("ana@example.org")) == mails + 1


def test_a_newcomer_of_a_renamed_readers_name_has_his_own_floor(web: Project, capsys) -> None:
    """ops29 F3: a newcomer named ana (ana2@) beside ana renamed ana1 read her records under the
    name as his: her Monday digest's floor, so Monday's papers she was not given were never
    his. He ranks them as a fresh reader (zed) does, but for hers (a name's given papers are
    one reader's: the `sent` key)."""
    _run(web, capsys, MONDAY)
    monday = _given(web, "ana")
    zed = NEWCOMER.replace('name = "ana"', 'name = "zed"').replace("ana2@", "zed@")
    wide = "top_k = 10\n[[subscribers.channels]]"
    newcomers = (NEWCOMER + zed).replace("[[subscribers.channels]]", wide)
    newcomers = newcomers.replace("graph neural networks for molecules", "diffusion models")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, TUESDAY, _renamed(web) + newcomers)
    zeds = _given(web, "zed")
    assert zeds - monday - {GRAPHS[2][0], IMAGES[2][0]}  # Monday's papers she was not given
    assert _given(web, "ana") - monday == zeds - monday


def test_a_newcomer_never_carries_the_earlier_readers_held_alerts(web: Project, capsys) -> None:
    """ops29 F3: ana's held alert (over her cap) stays under the name when she is renamed ana1;
    the newcomer named ana with alerts of his own carried it in his first digest as his."""
    _run(web, capsys, MONDAY, _alerting(web))
    papers_file(web.root / "feed" / "later.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, LATER_MONDAY)
    with Store(web.state) as store:
        assert len(store.journal.holds("ana")) == 1
    newcomer = NEWCOMER.replace("[[subscribers.channels]]", ALERTING + "[[subscribers.channels]]")
    newcomer = newcomer.replace("graph neural networks for molecules", "diffusion models")
    _run(web, capsys, TUESDAY, _renamed(web) + newcomer)
    (mail,) = web.mails("ana2@example.org")
    assert "held" not in str(mail["Subject"])


def test_two_names_that_swapped_readers_give_no_paper_again(web: Project, capsys) -> None:
    """ana and ben swap addresses and interests (each reader under the other's name): a swap
    heirs() does not follow. The name's records stay whole, so ana@, now ben, gets none of its
    Monday papers again on Tuesday (a name read from its present reader's span alone had)."""
    _run(web, capsys, MONDAY)
    monday = _given(web, "ana")
    text = (web.root / "digest.toml").read_text(encoding="utf-8")
    ana = 'interests = "deep learning: graph neural networks, diffusion models, molecules, images"'
    ben = 'interests = "diffusion models for image generation"'
    swaps = [(ana, ben), ("ana@example.org", "ben@example.org")]
    for one, other in swaps:
        text = text.replace(one, "\0").replace(other, one).replace("\0", other)
    _run(web, capsys, LATER_MONDAY, text)
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    before = _given(web, "ben")
    _run(web, capsys, TUESDAY)
    assert len(web.mails("ana@example.org")) == 2
    assert _given(web, "ben") - before and not (_given(web, "ben") - before) & monday


def test_a_reader_renamed_back_after_a_newcomer_gets_none_of_her_papers_again(
    web: Project, capsys
) -> None:
    """ana renamed ana1 beside a newcomer named ana (Tuesday), then the newcomer gone and ana1
    renamed back to ana (Wednesday): the name's records are hers but the newcomer's, and ana1's
    are hers (heirs() takes a name mailed beside the newcomer for no rename); ana@ gets none of
    Tuesday's papers again."""
    _run(web, capsys, MONDAY)
    first = (web.root / "digest.toml").read_text(encoding="utf-8")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _run(web, capsys, TUESDAY, _renamed(web) + NEWCOMER)
    tuesday = _given(web, "ana1")
    assert tuesday
    fresh = [("w1", "Graph transformers for molecules", "Graph transformers on graphs.")]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    _run(web, capsys, "2026-12-02T09:00:00+00:00", first)
    assert len(web.mails("ana@example.org")) == 3
    html = web.html_of(web.mails("ana@example.org")[-1])
    assert not [p for p in tuesday if f"example.org/{p}" in html]

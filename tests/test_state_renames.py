"""A renamed reader is one reader (state/lineage.py): the period made under the old name is made,
the papers it was given are given; and a newcomer who took a renamed reader's name is another
reader whatever its channels (holders._newcomer): the earlier reader's pending rows are not his."""

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

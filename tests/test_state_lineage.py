"""A reused name's earlier readers, as the runs read them (state/lineage.py): each earlier
reader's records under the name are the records of the names that reader was renamed to, and
of no other's, whether the name is still in the config or gone from it."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from test_web_reuse import NEWCOMER
from web_project import GRAPHS, IMAGES, Project, papers_file, project

from digest.alerts import history
from digest.state import Store
from digest.state.holders import LATER

MONDAY, LATER_MONDAY, EVENING = (f"2026-11-30T{h}:00:00+00:00" for h in ("09", "10", "11"))
TUESDAY = "2026-12-01T09:00:00+00:00"


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path, web=False) as p:
        yield p


def _run(p: Project, capsys: Any, now: str, config: str, fresh: list[Any]) -> None:
    """A run at `now` over `config`, with `fresh` papers; begun in a second of its own (runs are
    stamped to the second: reuses.cut)."""
    time.sleep(1.01 - time.time() % 1)
    (p.root / "digest.toml").write_text(config, "utf-8")
    papers_file(p.root / "feed" / f"{now[:13]}.jsonl", fresh)
    code, _, err = p.digest(capsys, "run", "--now", now)
    assert code == 0 and "Traceback" not in err, err


def _days(p: Project, to: str) -> list[str]:
    """The day of each digest mailed to `to`, in order."""
    return [re.findall(r"\d{4}-\d\d-\d\d", str(m["Subject"]))[0] for m in p.mails(to)]


def _papers(p: Project, to: str) -> list[str]:
    """The papers of every mail to `to`, each time it was mailed."""
    return [link for m in p.mails(to) for link in p.links(p.html_of(m), "paper")]


def _earlier(p: Project) -> dict[str, Any]:
    settings = p.settings()
    with Store(p.state) as store:
        return history(settings, store, []).earlier


@pytest.mark.parametrize("then", ["reused again", "renamed"])
def test_each_earlier_reader_of_a_reused_name_keeps_her_own_records(
    web: Project, capsys, then: str
) -> None:
    """f27: ana renamed ana1 and a newcomer named ana (ana2@), then the newcomer renamed (ana2,
    a second newcomer named ana at ana3@; or nico, the name gone). The heirs had been followed
    from the name's last addresses alone: the newcomer's new name took the first reader's
    records (('ana', '', ...): her Monday digest made his, his own Monday digest never made) and
    ana1 got none (her Monday digest made again, g1 mailed her twice). Each earlier reader's
    spans go to her own rename alone."""
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    _run(web, capsys, MONDAY, config, [])
    config = config.replace('name = "ana"', 'name = "ana1"') + NEWCOMER
    _run(web, capsys, LATER_MONDAY, config, [GRAPHS[2]])
    middle = "ana2" if then == "reused again" else "nico"
    config = config.replace(NEWCOMER, NEWCOMER.replace('"ana"', f'"{middle}"'))
    if then == "reused again":
        config += NEWCOMER.replace("ana2@", "ana3@")
    _run(web, capsys, EVENING, config, [IMAGES[2]])
    rename, second = (f"2026-11-30T{h}:00:00Z" for h in ("10", "11"))
    found = _earlier(web)
    assert found["ana1"] == (("ana", "", rename),)
    assert found[middle] == (("ana", rename, second),)
    if then == "reused again":
        assert found["ana"] == (("ana", second, LATER),)
    assert not any(p == ("ana", "", LATER) for parts in found.values() for p in parts)
    _run(web, capsys, TUESDAY, config, [("t1", "Graph networks for molecules", "Molecules.")])
    assert _days(web, "ana@example.org") == ["2026-11-30", "2026-12-01"]
    assert _days(web, "ana2@example.org") == ["2026-11-30", "2026-12-01"]
    for to in ("ana@example.org", "ana2@example.org", "ana3@example.org"):
        papers = _papers(web, to)
        assert len(papers) == len(set(papers)), to


NOON, ONE = (f"2026-11-30T{h}:00:00+00:00" for h in ("12", "13"))
# What follows the newcomer's going at 11:00, run by run (NOON, ONE): the config's subscribers
# after ana renamed ana1 ("base"), with the newcomer at an address, or ana1 named ana again.
AFTER = {
    "deleted": [],
    "deleted, added again": ["base+ana2@"],
    "deleted, ana1 renamed back": ["back"],
    "e-mail taken out": [],
    "unsubscribed": [],
    "another deleted at once": ["base"],
    "another a run apart": ["base+ana3@", "base"],
}


@pytest.mark.parametrize("then", sorted(AFTER))
def test_a_reused_name_whose_last_reader_went_keeps_each_readers_records(
    web: Project, capsys, then: str
) -> None:
    """lineage2: ana renamed ana1 at 10:00 and a newcomer named ana (ana2@), who went at 11:00
    (deleted, his e-mail taken out, unsubscribed; or another newcomer at ana3@ in his place).
    Of a name whose last reader was deleted the readers were not read (holders: none had ended
    in a rename): ana1 had no records as ana, her Monday digest made again (g1 mailed twice)."""
    from datetime import UTC, datetime

    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    _run(web, capsys, MONDAY, config, [])
    base = config.replace('name = "ana"', 'name = "ana1"')
    _run(web, capsys, LATER_MONDAY, base + NEWCOMER, [GRAPHS[2]])
    third = NEWCOMER.replace("ana2@", "ana3@")
    configs = {
        "base": base,
        "base+ana2@": base + NEWCOMER,
        "base+ana3@": base + third,
        "back": config,
        "e-mail taken out": base + NEWCOMER.split("[[subscribers.channels]]")[0],
        "unsubscribed": base + NEWCOMER,
        "another deleted at once": base + third,
    }
    if then == "unsubscribed":
        with Store(web.state) as store:
            store.web.pause("ana", ["email"], datetime(2026, 11, 30, 10, 30, tzinfo=UTC))
    now = configs.get(then, base)
    _run(web, capsys, EVENING, now, [IMAGES[2]])
    if then in ("deleted", "e-mail taken out", "another deleted at once"):
        assert ("ana", "", "2026-11-30T10:00:00Z") in _earlier(web)["ana1"]
    for at, step in zip((NOON, ONE), AFTER[then], strict=False):
        now = configs[step]
        _run(web, capsys, at, now, [(f"n{at[11:13]}", "Graph networks at noon", "Molecules.")])
    _run(web, capsys, TUESDAY, now, [("t1", "Graph networks for molecules", "Molecules.")])
    assert _days(web, "ana@example.org") == ["2026-11-30", "2026-12-01"]
    for to in ("ana@example.org", "ana2@example.org", "ana3@example.org"):
        papers = _papers(web, to)
        assert len(papers) == len(set(papers)), to

"""Which of a reused name's digests and alerts are its present reader's: those made from the run
in which its present stints began (links.reused), on the runs' clock; the ones before are the
earlier subscription's. Its archive key and its rating links are read from that cut."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from digest.state.engine import Engine
from digest.state.links import next_stints, reused
from digest.state.pauses import Mailing, recorded
from digest.state.web import HASHED, LONG_ID, Web, link_name


def since(web: Web, name: str, mailing: Mailing) -> str | None:
    """None when `name` (of `mailing`, the config's) is not reused; else the run clock from which
    its digests are the present reader's ("": no run since the reuse, all are the earlier's)."""
    if not maybe(web.db, name, _addresses(mailing, name)):
        return None
    reuse = reused(web, name, mailing)
    return None if reuse is None else cut(web.db, reuse.began, _recorded(web, reuse.began))


def present(web: Web, mailing: Mailing) -> dict[str, str]:
    """Each reused name of `mailing` whose present reader had a digest run: its cut (since())."""
    rows = web.db.execute("SELECT subscriber, address FROM stints")
    kept: dict[str, set[str]] = {}
    for r in rows:
        kept.setdefault(str(r[0]), set()).add(str(r[1]))
    names = [n for n in mailing if kept.get(n, set()) - _addresses(mailing, n)]
    stints = next_stints(web, mailing) if names else {}
    reuses = {n: reused(web, n, mailing, stints) for n in names}
    times = {t for v in recorded(web.db).values() for t in v if t} if names else set()
    cuts = {n: cut(web.db, r.began, r.began in times) for n, r in reuses.items() if r}
    return {n: c for n, c in cuts.items() if c}


def cut(db: Engine, began: str, kept: bool = True) -> str:
    """The clock of the run that made the present reader's first digest: the run in progress
    when its stints began (a pass records them after the run made its digests), or the first
    run after them (begun in a `digest retry`); "" when none is. The stints are stamped by this
    host's clock, the digests by the run's (`--now`): the runs table has both. Not `kept` yet
    (a view of the next pass), only a run in progress now made one: a run ended in the second
    of the view was taken for it (runs are stamped to the second)."""
    at = datetime.strptime(began, "%Y-%m-%dT%H:%M:%S.%fZ").strftime("%Y-%m-%dT%H:%M:%SZ")
    row = db.execute(
        "SELECT clock, finished_at FROM runs WHERE started_at <= ? ORDER BY id DESC LIMIT 1", (at,)
    ).fetchone()
    if row is not None and (row[1] is None or (kept and str(row[1]) >= at)):
        return str(row[0])
    after = db.execute(
        "SELECT clock FROM runs WHERE started_at > ? ORDER BY id LIMIT 1", (at,)
    ).fetchone()
    return "" if after is None else str(after[0])


def earlier_given(web: Web, mailing: Mailing) -> dict[str, set[str]]:
    """Per reused name of `mailing`, the papers first given to it before the cut: its earlier
    reader's, whose ratings of them are not the newcomer's (ratings are kept by name: a dana
    renamed dana1 left her ratings to the newcomer named dana, whose digests followed them)."""
    out: dict[str, set[str]] = {}
    for name in mailing:
        if not maybe(web.db, name, _addresses(mailing, name)):
            continue
        at = since(web, name, mailing)
        if at is None:
            continue
        first: dict[str, str] = {}
        for paper, made in web.db.execute(
            "SELECT s.paper_id, d.made_at FROM sent s JOIN digests d ON d.id = s.digest_id"
            " WHERE s.subscriber = ? UNION SELECT paper_id, made_at FROM alerts"
            " WHERE subscriber = ?",
            (name, name),
        ):
            first[str(paper)] = min(first.get(str(paper), str(made)), str(made))
        out[name] = {p for p, t in first.items() if not at or t < at}
    return out


def earlier(web: Web, name: str, link: str, paper_id: str, mailing: Mailing) -> bool:
    """Whether a rating link of `name` naming `link` (the paper `paper_id` now) is the earlier
    subscription's: the name reused, and the paper given under it before the cut (or never)."""
    at = since(web, name, mailing)
    if at is None:
        return False
    given = given_at(web.db, name, link, paper_id)
    return given is None or not at or given < at


def given_at(db: Engine, name: str, link: str, paper_id: str) -> str | None:
    """When the paper a link names was first given to `name`, by a digest or an alert."""
    ids = {link, paper_id}
    if link.startswith(HASHED):  # a long id by its hash: the long ids given to the name
        rows = db.execute(
            "SELECT paper_id FROM sent WHERE subscriber = ? AND length(paper_id) > ?"
            " UNION SELECT paper_id FROM alerts WHERE subscriber = ? AND length(paper_id) > ?",
            (name, LONG_ID, name, LONG_ID),
        )
        ids |= {str(r[0]) for r in rows if link_name(str(r[0])) == link}
    times = []
    for paper in sorted(ids):
        times += db.execute(
            "SELECT d.made_at FROM sent s JOIN digests d ON d.id = s.digest_id"
            " WHERE s.subscriber = ? AND s.paper_id = ?"
            " UNION SELECT made_at FROM alerts WHERE subscriber = ? AND paper_id = ?",
            (name, paper, name, paper),
        ).fetchall()
    return min((str(t[0]) for t in times), default=None)


def _recorded(web: Web, began: str) -> bool:
    """Whether a pass recorded the stint begun then (else it is the next pass's, a view)."""
    return began in {t for v in recorded(web.db).values() for t in v if t}


def _addresses(mailing: Mailing, name: str) -> set[str]:
    return {a for to in mailing.get(name, {}).values() for a in to}


def maybe(db: Engine, name: str, addresses: Collection[str]) -> bool:
    """Whether the name was mailed at an address its e-mail (`addresses`) no longer goes to:
    else no reuse, and the stints of every name are not read (a run renders thousands)."""
    rows = db.execute("SELECT address FROM stints WHERE subscriber = ?", (name,))
    return bool({str(r[0]) for r in rows} - set(addresses))

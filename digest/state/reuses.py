"""Which of a reused name's digests and alerts are its present reader's: those made while one of
its addresses held the name (holders.py: who held it when, read from the stints, on the runs'
clock); the others are earlier or other subscriptions'. Archive keys and rating links read it."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from digest.state.engine import Engine
from digest.state.holders import Holders, Reader, holders
from digest.state.links import next_stints
from digest.state.pauses import Mailing, Stints, recorded
from digest.state.web import HASHED, LONG_ID, Web, link_name


def since(web: Web, name: str, mailing: Mailing) -> str | None:
    """None when `name` (of `mailing`, the config's) is not reused; else the cut its present
    reader's archive key is keyed with ("": the name's own key, or no run since the reuse)."""
    found = held(web, name, mailing)
    return None if found is None else found.present.key


def held(web: Web, name: str, mailing: Mailing, stints: Stints | None = None) -> Holders | None:
    """Who held `name` when, or None when it had one reader alone (nothing read for a name its
    e-mail's addresses alone were mailed under: a run renders thousands)."""
    if not maybe(web.db, name, _addresses(mailing, name)):
        return None
    stints = next_stints(web, mailing) if stints is None else stints
    kept = {t for v in recorded(web.db).values() for t in v if t}
    return holders(name, stints, _addresses(mailing, name), lambda t: cut(web.db, t, t in kept))


def present(web: Web, mailing: Mailing) -> dict[str, Holders]:
    """Each reused name of `mailing` and who held it when (held())."""
    rows = web.db.execute("SELECT subscriber, address FROM stints")
    kept: dict[str, set[str]] = {}
    for r in rows:
        kept.setdefault(str(r[0]), set()).add(str(r[1]))
    names = [n for n in mailing if kept.get(n, set()) - _addresses(mailing, n)]
    stints = next_stints(web, mailing) if names else {}
    found = {n: held(web, n, mailing, stints) for n in names}
    return {n: h for n, h in found.items() if h is not None}


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
    """Per reused name of `mailing`, the papers given to it never while its present reader held
    it: another reader's, whose ratings of them are not the present one's (ratings are kept by
    name: dana renamed dana1 left her ratings to the newcomer named dana, and a newcomer gone,
    dana1 renamed back, his to her). A paper never given (a CLI rating) is the present one's."""
    out: dict[str, set[str]] = {}
    for name, found in present(web, mailing).items():  # the stints read once, not per name
        given: dict[str, list[str]] = {}
        for paper, made in web.db.execute(
            "SELECT s.paper_id, d.made_at FROM sent s JOIN digests d ON d.id = s.digest_id"
            " WHERE s.subscriber = ? UNION SELECT paper_id, made_at FROM alerts"
            " WHERE subscriber = ?",
            (name, name),
        ):
            given.setdefault(str(paper), []).append(str(made))
        out[name] = {p for p, times in given.items() if not _theirs(found.present, times)}
    return out


def earlier(web: Web, name: str, link: str, paper_id: str, mailing: Mailing) -> bool:
    """Whether a rating link of `name` naming `link` (the paper `paper_id` now) is another
    subscription's: the name reused, and the paper given under it only while another reader
    held it (or never: no mail of the present reader's carried it)."""
    found = held(web, name, mailing)
    if found is None:
        return False
    return not _theirs(found.present, given_at(web.db, name, link, paper_id))


def _theirs(reader: Reader, times: Collection[str]) -> bool:
    return any(reader.holds(t) for t in times)


def given_at(db: Engine, name: str, link: str, paper_id: str) -> list[str]:
    """When the paper a link names was given to `name`, by a digest or an alert."""
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
    return sorted(str(t[0]) for t in times)


def _addresses(mailing: Mailing, name: str) -> set[str]:
    return {a for to in mailing.get(name, {}).values() for a in to}


def maybe(db: Engine, name: str, addresses: Collection[str]) -> bool:
    """Whether the name was mailed at an address its e-mail (`addresses`) no longer goes to:
    else no reuse, and the stints of every name are not read (a run renders thousands)."""
    rows = db.execute("SELECT address FROM stints WHERE subscriber = ?", (name,))
    return bool({str(r[0]) for r in rows} - set(addresses))

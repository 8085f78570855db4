"""A renamed reader's earlier names (heirs.py reads the renames from the stints), whose digests,
papers given and alerts are its own, of a reused name each reader's spans, its renames' alone
(own_heirs, the archive's too): what a run's digests and alerts read and record_digest checks."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from datetime import date, datetime

from digest.state.engine import Engine
from digest.state.heirs import Mail, heirs, mailed
from digest.state.holders import LATER, Holders, Reader, Span, stretches
from digest.state.links import next_stints
from digest.state.pauses import Mailing, Stints, recorded
from digest.state.reuses import cut, held, present
from digest.state.web import Web

# An earlier name and the span [since, until) of the runs' clock (made_at) whose records under
# it are the reader's: all of a name gone from the config ("", "~"); of a name reused since
# (dana renamed dana1, a newcomer named dana), its earlier readers' spans alone. A part of the
# name itself: its present reader's span, the only records of the name that are his.
Part = tuple[str, str, str]
Parts = tuple[Part, ...]


def earlier(web: Web, mailing: Mailing) -> dict[str, Parts]:
    """Per name of `mailing` (the config's) that is another renamed, as the next delivery pass
    records the stints (the pass of the rename too, before the new name has a stint), that
    other's parts. A digest made under the old name had been made again under the new, the same
    day, with the same papers (ops28 F2)."""
    if web.db.execute("SELECT 1 FROM stints LIMIT 1").fetchone() is None:
        return {}
    stints = next_stints(web, mailing)
    mail, out = mailed(web.db), dict[str, list[Part]]()
    for old in sorted(_renamed({s for s, _ in stints} - mailing.keys(), stints)):
        # Of one address, one reader (holders.py): the stints of thousands are not read again.
        found = held(web, old, mailing, stints) if _places(old, stints) > 1 else None
        if found is not None and len(readers := _gone(found)) > 1:
            # A name reused, then gone (dana renamed dana1, a newcomer renamed nico or deleted).
            _per_reader(web, old, readers, stints, mailing, mail, out)
            continue
        for new in heirs(old, stints, mailing.keys(), mail):
            if new in mailing:
                out.setdefault(new, []).append((old, "", LATER))
    for name, found in present(web, mailing).items():
        now = {a for to in mailing[name].values() for a in to}
        readers = [r for r in found.readers if not r.present]
        _per_reader(web, name, readers, stints, mailing, mail, out)
        # The newcomer had read the earlier reader's records under the name as his: her
        # period made, her floor, her papers given (ops29 F3).
        if not _swapped(name, now, stints, mailing.keys()):
            out.setdefault(name, []).extend((name, *span) for span in found.present.spans)
            known = {old for old, _, _ in out[name]}
            back = _back(name, now, stints, mailing.keys()) - known
            out[name].extend((old, "", LATER) for old in sorted(back))
    return {name: tuple(parts) for name, parts in out.items()}


def _per_reader(
    web: Web,
    name: str,
    readers: list[Reader],
    stints: Stints,
    mailing: Mailing,
    mail: Mail,
    out: dict[str, list[Part]],
) -> None:
    """Each earlier reader's spans of the name, to the names that reader was renamed to. Followed
    from all the name's addresses, the rename of its last reader alone had been read: the middle
    reader of a name reused twice took the first reader's records as his, and the first
    reader's own rename got none (ana1 mailed her digest again); a newcomer renamed nico took
    the whole name, ana1's digests as ana with it."""
    for reader in readers:
        spans = [(name, *span) for span in reader.spans]
        for new in own_heirs(web, name, reader, stints, mailing, mail):
            out.setdefault(new, []).extend(p for p in spans if p not in out.get(new, []))


def own_heirs(
    web: Web, name: str, reader: Reader, stints: Stints, mailing: Mailing, mail: Mail
) -> list[str]:
    """The names of `mailing` an earlier reader of `name` was renamed to: heirs() of the stints
    of the name at that reader's own addresses alone."""
    own = addresses(web, name, reader, stints)
    kept = {k: v for k, v in stints.items() if k[0] != name or k[1] in own}
    return [n for n in heirs(name, kept, mailing.keys() - {name}, mail) if n in mailing]


def addresses(web: Web, name: str, reader: Reader, stints: Stints) -> set[str]:
    """The addresses of the reader's stretches: those whose span, made as holders._readers
    makes it (the runs' clock of this host's times, reuses.held's), is one of the reader's."""
    kept = {t for v in recorded(web.db).values() for t in v if t}

    def clock(at: str) -> str:
        return cut(web.db, at, at in kept) or LATER

    found = set()
    for i, (address, began, left) in enumerate(stretches(name, stints)):
        since = "" if i == 0 or not began else clock(began)
        span: Span = (since, LATER if left is None else clock(left))
        if span in reader.spans:
            found.add(address)
    return found


def _gone(found: Holders) -> list[Reader]:
    """The readers of a name gone from the config, a newcomer after its last reader's rename
    (holders._newcomer: no stretch of his) aside. Its last reader deleted is held on as its
    present one, and read with the others: else ana renamed ana1, the newcomer named ana
    deleted since, ana1 had read none of her records as ana (her Monday digest made again)."""
    return [r for r in found.readers if not (r.present and found.newcomer)]


def _places(name: str, stints: Stints) -> int:
    return sum(1 for s, _ in stints if s == name)


def _swapped(name: str, now: set[str], stints: Stints, names: Collection[str]) -> bool:
    """Whether an address of the name's present reader was left by another name of the config
    (dana and vis swapped addresses): a rename heirs() does not follow, whose reader's records
    are not known; the name's are read whole, as before ops29 (its own first digest's floor)."""
    return any(
        s != name and s in names and a in now and v[1] is not None for (s, a), v in stints.items()
    )


def _back(name: str, now: set[str], stints: Stints, names: Collection[str]) -> set[str]:
    """Names gone from the config whose stint at an address of the name's present reader ended
    as the name's began there: renamed back to it (dana1 back to dana, whom a newcomer named
    dana was mailed beside meanwhile, which heirs() takes for no rename)."""
    began = {(a, t) for (s, a), v in stints.items() if s == name and a in now for t in (v[0], v[3])}
    return {s for (s, a), v in stints.items() if s not in names and v[1] and (a, v[1]) in began}


def _renamed(gone: set[str], stints: Stints) -> set[str]:
    """Of the names gone from the config, those another name may be a rename of: another's
    stint began at one of their addresses as their stint there ended (of a name reused, its
    last reader deleted, an earlier one renamed: the last stint alone read, ana1 had none of
    hers as ana), or at their last as it ended and is of before schema 18 (heirs.py reads the
    rest; a run of thousands of stints asks it of these alone)."""
    begun = {(a, t) for (_, a), v in stints.items() for t in (v[0], v[3]) if t}
    unsure = {a for (_, a), v in stints.items() if v[3] is None and v[2] is not None}
    last: dict[str, str] = {}
    for (s, _), v in stints.items():
        if s in gone and v[1] is not None and v[1] > last.get(s, ""):
            last[s] = v[1]
    return {
        s
        for (s, a), v in stints.items()
        if s in last and ((a, v[1]) in begun or (v[1] == last[s] and a in unsure))
    }


def whose(
    name: str, parts: Parts, at: str = "made_at", who: str = "subscriber"
) -> tuple[str, list[str]]:
    """A WHERE clause (and its arguments) of the records of `name` and its parts: all under the
    name, unless a part of the name itself says which are its present reader's."""
    mine = all(old != name for old, _, _ in parts)
    clauses, args = ([f"{who} = ?"], [name]) if mine else ([], [])
    for old, since, until in parts:
        clauses.append(f"({who} = ? AND {at} >= ? AND {at} < ?)")
        args += [old, since, until]
    return f"({' OR '.join(clauses)})", args


class History:
    """What a run's digests read of each reader: its records and its earlier names' (earlier())."""

    def __init__(self, db: Engine, earlier: Mapping[str, Parts]) -> None:
        self.db, self.earlier = db, earlier

    def has_digest(self, name: str, period: str) -> bool:
        return has_digest(self.db, name, period, self.earlier.get(name, ()))

    def last_digest(self, name: str) -> tuple[str, str] | None:
        """(period, made_at) of the reader's digest made last (None: none yet)."""
        where, args = whose(name, self.earlier.get(name, ()))
        query = f"SELECT period, made_at FROM digests WHERE {where} ORDER BY id DESC LIMIT 1"
        row = self.db.execute(query, args).fetchone()
        return None if row is None else (str(row[0]), str(row[1]))

    def considered_through(self, name: str) -> int:
        """The last paper seq an earlier digest of the reader looked at (0: none yet)."""
        where, args = whose(name, self.earlier.get(name, ()))
        query = f"SELECT coalesce(max(through_seq), 0) FROM digests WHERE {where}"
        return int(self.db.execute(query, args).fetchone()[0])

    def sent_ids(self, name: str, ids: Iterable[str]) -> set[str]:
        return given(self.db, "sent", name, ids, self.earlier.get(name, ()))

    def alerted_ids(self, name: str, ids: Iterable[str]) -> set[str]:
        return given(self.db, "alerts", name, ids, self.earlier.get(name, ()))

    def taken(self, name: str, ids: Iterable[str]) -> set[str]:
        """Which of the ids the reader was given or alerted, under any of its names, or held
        under its name by an earlier reader of it: no hold of its to carry (ops29 F1)."""
        wanted = set(ids)
        found = self.sent_ids(name, wanted) | self.alerted_ids(name, wanted)
        spans = [(since, until) for old, since, until in self.earlier.get(name, ()) if old == name]
        if spans:
            rows = self.db.execute(
                "SELECT paper_id, held_at FROM alert_holds WHERE subscriber = ?", (name,)
            )
            found |= {
                str(p) for p, at in rows if not any(a <= str(at) < b for a, b in spans)
            } & wanted
        return found

    def alerts_on(self, name: str, day: date) -> int:
        """How many alerts the reader got on its local `day`, under any of its names: the daily
        cap's count (a rename had started the day's cap anew, ops29 F2)."""
        where, args = whose(name, self.earlier.get(name, ()))
        query = f"SELECT count(*) FROM alerts WHERE {where} AND day = ?"
        return int(self.db.execute(query, (*args, day.isoformat())).fetchone()[0])

    def told(self, name: str, period: str) -> set[str]:
        """The statuses of the notice that told the reader its `period` waits for its sources,
        under any of its names: that period's, or a later period's (a schedule or zone edited
        during the wait opens an earlier one, whose notice would come dated before it, reg54
        F4); none: not told. One per reader and period (a rename had sent it again, F1)."""
        where, args = whose(name, self.earlier.get(name, ()), "created_at")
        query = f"SELECT period, status FROM outbox WHERE {where} AND period LIKE 'notice:%'"
        at = datetime.fromisoformat(period)
        return {
            str(status)
            for key, status in self.db.execute(query, args)
            if datetime.fromisoformat(str(key).removeprefix("notice:")) >= at
        }

    def alerted_after(self, name: str, seq: int) -> int:
        """How many of the papers stored after seq `seq` were alerted to the reader."""
        where, args = whose(name, self.earlier.get(name, ()), "a.made_at", "a.subscriber")
        query = f"SELECT count(*) FROM alerts a JOIN papers p ON p.id = a.paper_id WHERE {where}"
        return int(self.db.execute(query + " AND p.seq > ?", (*args, seq)).fetchone()[0])


def has_digest(db: Engine, name: str, period: str, parts: Parts = ()) -> bool:
    where, args = whose(name, parts)
    query = f"SELECT 1 FROM digests WHERE {where} AND period = ? LIMIT 1"
    return db.execute(query, (*args, period)).fetchone() is not None


def given(db: Engine, table: str, name: str, ids: Iterable[str], parts: Parts = ()) -> set[str]:
    """Which of the ids `table` (sent, alerts) holds for the reader, asked in chunks that stay
    under SQLite's limit on bound parameters."""
    if table == "sent":
        # Whoever held the name: sent keeps one row per name and paper, so a paper of the
        # earlier reader's given to the newcomer has no row of his (his rating link of it reads
        # as hers). Of the name's records, its papers given alone are not his present span's.
        parts = tuple(p for p in parts if p[0] != name)
        where, args = whose(name, parts, "d.made_at", "s.subscriber")
        source = "sent s JOIN digests d ON d.id = s.digest_id"
    else:
        (where, args), source = whose(name, parts), "alerts s"
    wanted, found = list(ids), set[str]()
    for start in range(0, len(wanted), 400):
        chunk = wanted[start : start + 400]
        marks = ",".join("?" * len(chunk))
        query = f"SELECT s.paper_id FROM {source} WHERE {where} AND s.paper_id IN ({marks})"
        found.update(str(r[0]) for r in db.execute(query, (*args, *chunk)))
    return found


def refused(db: Engine, name: str, period: str, made: str, ids: list[str], parts: Parts) -> str:
    """Why a digest of the reader cannot be recorded ("": it can), in record_digest's
    transaction: its period made, a later one made, its papers given or alerted meanwhile,
    under its name or an earlier one."""
    later = f"SELECT 1 FROM digests WHERE {whose(name, parts)[0]} AND made_at > ? LIMIT 1"
    if has_digest(db, name, period, parts):
        return "already made"
    if db.execute(later, (*whose(name, parts)[1], made)).fetchone():
        return "clock behind"
    if given(db, "sent", name, ids, parts):
        return "given meanwhile"
    if given(db, "alerts", name, ids, parts):
        return "alerted meanwhile"
    return ""

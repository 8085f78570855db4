"""Who held a name when: the readers a name's stints tell (each a set of stretches at addresses),
which one is the name's present reader, each one's spans on the runs' clock and the cut its
archive key is keyed with. reuses.py reads from it whose digests, alerts and ratings are whose."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass

from digest.state.pauses import Stints

# [since, until) on the runs' clock; "~" sorts after every time (until: still held; since: no
# run yet in the stretch, so nothing made in it).
Span = tuple[str, str]
LATER = "~"
# A stretch of the name at an address, on this host's clock: address, began ("" before stints
# were kept), left (None: held now).
Stretch = tuple[str, str, str | None]


@dataclass(frozen=True, slots=True)
class Reader:
    """One reader of the name: the runs' spans it held it in, and its archive key's cut ("":
    the name's own key, of the name's first reader; else the run of its first digest)."""

    key: str
    spans: tuple[Span, ...]
    present: bool

    def holds(self, made_at: str) -> bool:
        """Whether a digest or alert made then (the runs' clock) went to this reader."""
        return any(since <= made_at < until for since, until in self.spans)


@dataclass(frozen=True, slots=True)
class Holders:
    """A reused name's readers, the first first; `keys`: each archive key's cut, its reader (a
    key of every stretch a run began, so a key once mailed keeps its reader)."""

    readers: tuple[Reader, ...]
    keys: tuple[tuple[str, Reader], ...]
    newcomer: bool = False  # the present reader has no stretch: he came as the last was renamed

    @property
    def present(self) -> Reader:
        return next(r for r in self.readers if r.present)

    def keyed(self, cut: str) -> Reader | None:
        return next((r for k, r in reversed(self.keys) if k == cut), None)


def stretches(name: str, stints: Stints) -> list[Stretch]:
    """The name's stretches at each address, earliest first: its latest stint and, when it
    began anew, the one before (from when the first began to when the one before ended: of
    three stints or more at one address, those between are not kept apart)."""
    out: list[Stretch] = []
    for (s, a), (since, gone, ended, first) in stints.items():
        if s != name:
            continue
        if ended:
            out.append((a, first or "", ended))
        # ended "": there before stints were kept (schema 17), first seen at `since`
        out.append((a, "" if since is None or ended == "" else str(since), gone))
    kept = [x for x in out if x[2] is None or x[1] < x[2]]
    return sorted(kept, key=lambda x: (x[1], x[0], x[2] or LATER))


def holders(
    name: str, stints: Stints, present: Collection[str], clock: Callable[[str], str]
) -> Holders | None:
    """The name's readers, or None when it had one alone (never reused). `present`: the
    addresses its e-mail goes to now (none: _newcomer); `clock`: a stint's time (this host's)
    on the runs' clock (reuses.cut), "" when no run made digests from it. Stretches are one
    reader's when at one address (a reader who came back), side by side, or one left as the
    other began (the `to` changed in one edit) with no rename at either (dana renamed dana1 and
    a newcomer at another address; the newcomer gone and dana1 renamed back) at an address new
    to the name."""
    parts = stretches(name, stints)
    group = list(range(len(parts)))

    def find(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    now = [i for i, (a, _, left) in enumerate(parts) if a in present and left is None]
    for i in now:
        group[find(i)] = find(now[0])
    for i, one in enumerate(parts):
        for j in range(i + 1, len(parts)):
            if _one_reader(name, one, parts[j], parts, stints):
                group[find(j)] = find(i)
    if not now:
        return _newcomer(name, parts, [find(i) for i in range(len(parts))], stints, clock)
    if len({find(i) for i in range(len(parts))}) < 2:
        return None
    return _readers(parts, [find(i) for i in range(len(parts))], find(now[0]), clock)


def _newcomer(
    name: str,
    parts: list[Stretch],
    groups: list[int],
    stints: Stints,
    clock: Callable[[str], str],
) -> Holders | None:
    """The name's readers when its e-mail goes nowhere now: a present reader of its own, a
    newcomer, when the name's last stretches ended in a rename (another name began at their
    address as they ended); else the last stretches' reader, holding it on (she took her e-mail
    channel out, or was deleted); None when that reader was its only one. A newcomer with no
    e-mail channel had been taken for the renamed reader, and her pending Slack row was posted
    to him (ops28 F1). Of a name reused, then its last reader deleted (ana renamed ana1, the
    newcomer named ana deleted), None had read the whole name as one reader's: ana1's records
    as ana were hers no more, and her Monday digest was made again (lineage2)."""
    left = max((x[2] for x in parts if x[2] is not None), default=None)
    last = {a for a, _, gone in parts if gone == left}
    if left is None:
        return None
    if not any(s != name and a in last and left in (v[0], v[3]) for (s, a), v in stints.items()):
        return _held_on(parts, groups, left, clock)
    earlier = _readers(parts, groups, -1, clock)
    since = clock(left) or LATER
    newcomer = Reader("" if since == LATER else since, ((since, LATER),), True)
    keys = earlier.keys + (((since, newcomer),) if since != LATER else ())
    return Holders((*earlier.readers, newcomer), keys, True)


def _held_on(
    parts: list[Stretch], groups: list[int], left: str, clock: Callable[[str], str]
) -> Holders | None:
    """The readers, the one of the stretches that ended last (at `left`) the present one: they
    stay hers (her digests to other channels since are hers), to LATER."""
    if len(set(groups)) < 2:
        return None
    last = next(g for g, x in zip(groups, parts, strict=True) if x[2] == left)
    held = [
        (a, began, None if gone == left and g == last else gone)
        for g, (a, began, gone) in zip(groups, parts, strict=True)
    ]
    return _readers(held, groups, last, clock)


def _one_reader(
    name: str, one: Stretch, other: Stretch, parts: list[Stretch], stints: Stints
) -> bool:
    if one[0] == other[0] or _side_by_side(one, other):
        return True
    if one[2] != other[1]:
        return False
    at, to = one[2], other[0]
    fresh = not any(a == to and began < at for a, began, _ in parts)
    renamed = any(
        s != name and ((a == one[0] and at in (v[0], v[3])) or (a == to and at in (v[1], v[2])))
        for (s, a), v in stints.items()
    )
    return fresh and not renamed


def _side_by_side(one: Stretch, other: Stretch) -> bool:
    return one[1] < (other[2] or LATER) and other[1] < (one[2] or LATER)


def _readers(
    parts: list[Stretch], groups: list[int], present: int, clock: Callable[[str], str]
) -> Holders:
    """Each group's Reader, and the key of each stretch a run began."""

    def since(i: int) -> str:  # the name's first stretch from the start: all before is its
        return "" if i == 0 or not parts[i][1] else clock(parts[i][1]) or LATER

    def until(i: int) -> str:
        left = parts[i][2]
        return LATER if left is None else clock(left) or LATER

    order = list(dict.fromkeys(groups))  # by their first stretch
    readers = {}
    for g in order:
        mine = [i for i in range(len(parts)) if groups[i] == g]
        key = since(mine[0])
        spans = tuple((since(i), until(i)) for i in mine)
        readers[g] = Reader("" if key == LATER else key, spans, g == present)
    keys = tuple((since(i), readers[g]) for i, g in enumerate(groups) if since(i) != LATER)
    return Holders(tuple(readers.values()), keys)

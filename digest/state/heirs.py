"""Whom a pause of a subscriber gone from the config passes to: the names it was renamed to, one
rename after another (heirs), each read from the stints a delivery pass records (pauses.Stints:
the old name's last stint ending in the pass a new name's began at that address) and, for a
stint of before schema 17, from when each name was mailed (Span)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from digest.state.engine import Engine
from digest.state.pauses import Stints

# A name's first and last outbox row (None: never mailed), as text that compares as the times do.
Span = tuple[str | None, str | None]


class Mail:
    """Each name's Span by its outbox rows, read once per name; and the passes that mailed, one
    time each (a run stamps every row it makes with its clock)."""

    def __init__(self, spans: Callable[[str], Span], passes: Callable[[], list[str]]) -> None:
        self._spans, self._passes = spans, passes
        self._known: dict[str, Span] = {}
        self._times: list[str] | None = None

    def __call__(self, name: str) -> Span:
        if name not in self._known:
            self._known[name] = self._spans(name)
        return self._known[name]

    def after(self, at: str) -> str | None:
        """The first pass that mailed after `at`, or None."""
        if self._times is None:
            self._times = self._passes()
        return next((t for t in self._times if t > at), None)


def mailed(db: Engine) -> Mail:
    """The state's Mail."""
    q = "SELECT min(created_at), max(created_at) FROM outbox WHERE subscriber = ?"

    def span(name: str) -> Span:
        first, last = db.execute(q, (name,)).fetchone()
        return first, last

    def passes() -> list[str]:
        rows = db.execute("SELECT DISTINCT created_at FROM outbox ORDER BY created_at")
        return [str(t) for (t,) in rows]

    return Mail(span, passes)


def beside(one: Span, other: Span) -> bool:
    """Were the two mailed side by side (their mail's times overlap), or is either never mailed
    (nothing says they were not)?"""
    (a, b), (c, d) = one, other
    return a is None or b is None or c is None or d is None or (c <= b and a <= d)


def heirs(old: str, stints: Stints, present: Collection[str], mail: Mail) -> list[str]:
    """The names `old` was renamed to, in order: each rename's new name, and the new names of
    those gone from the config since (`present`: its names) in turn. An older mail's link and
    `resume OLD` after two renames had stopped nothing (alice, alice1, alice2: alice1's stint
    began a pass before alice2's, and only a stint begun in the pass that ended old's was
    followed). A new name deleted since is among them (`resume OLD` lifts the pause kept under
    it); a name still in the config, or one deleted, has none."""
    found: list[str] = []
    todo = [] if old in present else [old]
    while todo:
        name = todo.pop(0)
        if name in present:
            continue
        for new in successors(name, stints, mail):
            if new != old and new not in found:
                found.append(new)
                todo.append(new)
    return found


def successors(old: str, stints: Stints, mail: Mail) -> list[str]:
    """The names that are `old` renamed, once: those whose stint at an address began in the
    pass that saw old's last stints end (at any address of old's: renamed while its e-mail went
    elsewhere, alice had kept her pause of alice@x.org, and alice1 was mailed there when it came
    back), that were at none before (a sibling given the address then is none), and that had
    no stint of their own there while old was (one taken out and put back is none)."""
    own = {a: v for (s, a), v in stints.items() if s == old}
    if not own or any(v[1] is None for v in own.values()):
        return []
    left = max(str(v[1]) for v in own.values())
    at = {a for a, v in own.items() if v[1] == left}
    starts = [v[0] for a, v in own.items() if a in at]
    start = None if None in starts else min(str(s) for s in starts)

    def new(since: str | None, ended: str | None, first: str | None) -> bool:
        # Begun as old's ended, in one pass; or first begun then, and begun anew since (the
        # heir deleted and put back, its address or channel away and back: reg33 R1).
        if first is not None and since != left:
            return first == left
        if unsure(since, ended, first):
            return True  # whether it is old's: by the mail (_next)
        return since == left and not (start and ended and ended > start)

    def unsure(since: str | None, ended: str | None, first: str | None) -> bool:
        # Begun anew before schema 18 (its first start unknown), its stint before ending after
        # old's: first begun as old's ended, or later (ops21 F1: the heir deleted and put back
        # before the upgrade had kept nothing of an older mail's link).
        return first is None and since != left and ended is not None and ended > left

    def there(since: str | None, gone: str | None) -> bool:  # at an address before that pass
        return (since is None or since < left) and (gone is None or gone >= left)

    names = sorted(
        {
            s
            for (s, a), v in stints.items()
            if a in at and (left in (v[0], v[3]) or unsure(v[0], v[2], v[3]))
        }
    )
    found = [
        s
        for s in names
        if s != old
        and all(new(v[0], v[2], v[3]) for (n, a), v in stints.items() if n == s and a in at)
        and not any(there(v[0], v[1]) for (n, a), v in stints.items() if n == s and a not in at)
    ]
    doubted = {s for (s, a), v in stints.items() if a in at and unsure(v[0], v[2], v[3])}
    # Of those begun anew before schema 18, old's renames are the ones first mailed by the pass
    # after old's last mail (a name added a pass or more later is another's: ops23 F2), held
    # beside the names the stints tell (a sibling added in the rename's pass had taken the
    # pause alone, the heir mailing on: ops23 F1).
    late = [s for s in found if s in doubted and _next(old, s, mail)]
    found = [s for s in found if s not in doubted]
    # A stint of before schema 17 first seen in that pass (ended ''): its name may be older.
    fresh = [
        s for s in found if all(v[2] != "" for (n, a), v in stints.items() if n == s and a in at)
    ]
    if start is not None:
        # By whose mail came first, a rename back (alice, alicia, alice) had left the pause
        # with alicia, and a sibling never mailed was taken for new: the stints tell.
        return fresh + late or [s for s in found if not beside(mail(old), mail(s))]
    rivals = sorted({s for (s, a), v in stints.items() if a in at and v[1] == left} - {old})
    heirs = _before_stints(old, found, set(fresh), rivals, mail)
    return heirs + [s for s in late if s not in heirs]


def _next(old: str, new: str, mail: Mail) -> bool:
    """Was `new` first mailed by the pass after old's last mail, and never beside it?"""
    last, first = mail(old)[1], mail(new)[0]
    return last is not None and first is not None and mail.after(last) == first


def _before_stints(
    old: str, found: list[str], fresh: set[str], rivals: list[str], mail: Mail
) -> list[str]:
    """Of the names begun in the upgrade's first pass, those that are `old` renamed, when old's
    stints are of before schema 17 (since NULL): old was gone by that pass, renamed or deleted
    at a time the state cannot tell, and so may any sibling gone with it (`rivals`). One mailed
    beside old is its sibling; each other is the rename of whichever of old and the rivals was
    mailed last before it (a sibling renamed in that pass, or before it, had taken the pause of
    alice deleted before the upgrade, and her old link stopped it); of those, the first mailed
    (someone added later at the address had taken it beside alice's rename). Where the mail
    cannot tell, old and a rival last mailed in one pass, the new name is both's: held, the
    unsubscribed address is never mailed again (docs/channels.md says so). Old never mailed
    (none tells), a fresh name is old's only if no other name left the address then."""

    last = mail(old)[1]

    def first(s: str) -> str | None:  # its first mail after old's (of a name back: none yet)
        at = mail(s)[0]
        return None if at is None or (last is not None and at < last) else at

    def after_old(s: str) -> bool:
        if last is None:  # old never mailed: a rival gone with it is as likely
            return not rivals
        begun = first(s) or "~"  # not mailed yet: after every mail ("~" sorts after digits)
        prior = [t for t in (mail(r)[1] for r in (old, *rivals)) if t is not None and t < begun]
        return last in prior and last == max(prior)

    # A rival first mailed after old's last was old's rename before the upgrade, gone since
    # (alice, alice1, alice2 over it: alice2 is alice1's, and alice1 alice's).
    later = [r for r in rivals if last is not None and (mail(r)[0] or "") > last]
    kept = [s for s in found + later if s in fresh or not beside(mail(old), mail(s))]
    kept = [s for s in kept if after_old(s)]
    firsts = [str(first(s)) for s in kept if first(s) is not None]
    return [s for s in kept if not firsts or first(s) == min(firsts)]

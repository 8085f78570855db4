"""Whose digests an archive key shows: its reader's, under each name it had (the renames the runs
read, state/lineage.py) and none of another reader of a name reused (state/holders.py)."""

from __future__ import annotations

from functools import cached_property

from digest.state import lineage, reuses
from digest.state.heirs import Mail, mailed
from digest.state.holders import Holders, Reader
from digest.state.links import next_stints
from digest.state.pauses import Mailing, Stints
from digest.state.web import Web


class Readers:
    """Who held which name when, read once for a request: each name's readers, whom each earlier
    reader was renamed to, and each present reader's parts (lineage.whose reads them)."""

    def __init__(self, web: Web, mails: Mailing) -> None:
        self.web, self.mails = web, mails
        self._held: dict[str, Holders | None] = {}

    @cached_property
    def stints(self) -> Stints:
        return next_stints(self.web, self.mails)

    @cached_property
    def mail(self) -> Mail:
        return mailed(self.web.db)

    @cached_property
    def renamed(self) -> dict[str, lineage.Parts]:
        return lineage.earlier(self.web, self.mails)

    def held(self, name: str) -> Holders | None:
        """The name's readers (reuses.held), None when it had one alone."""
        if name not in self._held:
            self._held[name] = reuses.held(self.web, name, self.mails, self.stints)
        return self._held[name]

    def heirs(self, name: str, reader: Reader) -> list[str]:
        """The names of the config an earlier reader of a reused name was renamed to
        (lineage.own_heirs: followed from its own addresses alone)."""
        return lineage.own_heirs(self.web, name, reader, self.stints, self.mails, self.mail)

    @cached_property
    def inherited(self) -> dict[str, list[lineage.Part]]:
        """Per name of the config, the spans of other names' earlier readers renamed to it."""
        out: dict[str, list[lineage.Part]] = {}
        names = set(reuses.present(self.web, self.mails)) | self.gone()
        for name in sorted(names):
            held = self.held(name)
            for reader in held.readers if held else ():
                if reader.present:
                    continue
                for heir in self.heirs(name, reader):
                    out.setdefault(heir, []).extend((name, *span) for span in reader.spans)
        return out

    def gone(self) -> set[str]:
        """The earlier names the runs read as a name's of the config, gone from it."""
        return {old for parts in self.renamed.values() for old, _, _ in parts} - set(self.mails)

    def parts(self, name: str) -> lineage.Parts:
        """The records of the present reader of `name` (a name of the config), as lineage.whose
        reads them: under its name (its present reader's spans of a name reused) and each of
        its earlier names'. Of a name with several readers, only the spans of those renamed to
        it (inherited)."""
        mine = [
            part
            for part in self.renamed.get(name, ())
            if part[0] == name or self.held(part[0]) is None
        ]
        mine += [part for part in self.inherited.get(name, []) if part not in mine]
        return tuple(mine)

    def heir(self, name: str) -> str | None:
        """The name of the config whose reader had `name`, gone from it and held by one reader
        alone (None: deleted, never renamed)."""
        return next(
            (n for n in sorted(self.mails) if any(p[0] == name for p in self.parts(n))), None
        )

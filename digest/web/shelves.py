"""The archive's routes: which digests a key shows (archive.Shelf: its reader's under each of its
names, readers.py; of a name reused, each reader's own: the first's under the name's key, each
later one's under a key of its own, holders.py), its index, its feed and each digest's page."""

from __future__ import annotations

import hmac
import html
from collections.abc import Callable

from starlette.requests import Request
from starlette.responses import Response

from digest.channels.email import recipients
from digest.state import Store, reuses
from digest.state.holders import Reader
from digest.state.pauses import Mailing, mailing
from digest.web import archive
from digest.web.access import Access
from digest.web.answers import refused, respond
from digest.web.archive import Shelf
from digest.web.current import Current, View
from digest.web.pages import page
from digest.web.readers import Readers
from digest.web.tokens import VOTE_DAYS, Links, addresses_of


def find(store: Store, view: View, key: str, mails: Mailing) -> Shelf | None:
    """The shelf of an archive key, or None. Of a reused name, each reader's digests alone
    (holders.py): keyed by the name alone, the newcomer's mails carried the earlier reader's
    key (ops25 F2); keyed by the one cut of the present reader, a reader who came back read the
    newcomer's digests under the name's key, and a name reused twice lost its middle reader's
    (ops26 F2). Each key of a reader (the name's of its first, one of each run it began
    holding the name at) shows all of that reader's, under each of its names: read by the
    config's names alone, a renamed reader's archive had lost the old name's digests, and the
    old name's key (every older mail's archive link) was 404 (web2 F1)."""
    readers = Readers(store.web, mails)
    name = view.archives.get(key)
    if name is not None:
        held = readers.held(name) if name in mails else None
        return _present(readers, name) if held is None else _shelf(readers, name, held.keyed(""))
    for name, held in reuses.present(store.web, mails).items():
        for cut, _ in held.keys:
            if cut and hmac.compare_digest(view.signer.archive_key(name, cut), key):
                return _shelf(readers, name, held.keyed(cut))
    return _earlier(readers, view, key)


def _earlier(readers: Readers, view: View, key: str) -> Shelf | None:
    """The shelf of a key of a name gone from the config: of its reader, renamed since."""
    for old in sorted(readers.gone()):
        held = readers.held(old)
        if held is None:
            heir = readers.heir(old)
            if heir is not None and hmac.compare_digest(view.signer.archive_key(old), key):
                return _present(readers, heir)
            continue
        for cut, reader in held.keys:
            if hmac.compare_digest(view.signer.archive_key(old, cut), key):
                return None if reader.present else _shelf(readers, old, reader)
    return None


def _present(readers: Readers, name: str) -> Shelf:
    """The shelf of the present reader of `name`, a name of the config: its pages link to the
    key its mails carry."""
    if name not in readers.mails:
        return Shelf(name)
    held, parts = readers.held(name), readers.parts(name)
    if held is None:
        return Shelf(name, "", parts or None)
    # Its own spans alone: lineage reads the whole name of one swapped with another (_swapped).
    own = tuple((name, *span) for span in held.present.spans)
    return Shelf(name, held.present.key, own + tuple(p for p in parts if p[0] != name))


def _shelf(readers: Readers, name: str, reader: Reader | None) -> Shelf | None:
    """A reader's shelf: its present name's when it was renamed since, else its pages link to
    the key its mails carry (its first)."""
    if reader is None:
        return None
    if reader.present:
        return _present(readers, name)
    heirs = readers.heirs(name, reader)
    if heirs:
        return _present(readers, heirs[0])
    return Shelf(name, reader.key, tuple((name, *span) for span in reader.spans), True)


class Shelves:
    """The archive's routes over the face's config and state."""

    def __init__(self, db: Access, current: Current, clock: Callable[[], float]) -> None:
        self.db, self.current, self.clock = db, current, clock
        self.mails: tuple[View | None, Mailing] = (None, {})

    def mails_of(self, view: View) -> Mailing:
        """The config's e-mail channels (pauses.mailing), made once a reading of it."""
        if self.mails[0] is not view:  # read again with the config
            self.mails = (view, mailing(view.subscribers.values(), recipients))
        return self.mails[1]

    async def _shelf(self, request: Request) -> tuple[View, Shelf | None]:
        view, key = self.current.view(), request.path_params["key"]
        mails = self.mails_of(view)
        return view, await self.db(lambda store: find(store, view, key, mails))

    async def slash(self, request: Request) -> Response:
        """/a/<key> is the archive's index: a redirect to <key>/, relative (Host plays no part)."""
        if (await self._shelf(request))[1] is None:
            return _nothing()
        where = f"{request.path_params['key']}/"
        answer = respond(
            page("Moved", f'<p><a href="{html.escape(where)}">The archive</a></p>'), 308
        )
        answer.headers["Location"] = where
        return answer

    async def index(self, request: Request) -> Response:
        shelf = (await self._shelf(request))[1]
        if shelf is None:
            return _nothing()
        return respond(await self.db(lambda store: archive.index(store, shelf)))

    async def feed(self, request: Request) -> Response:
        view, shelf = await self._shelf(request)
        if shelf is None:
            return _nothing()
        url = self._links(view, shelf, self.clock()).archive()
        feed = await self.db(lambda store: archive.feed(store, shelf, url))
        return respond(feed, media="application/atom+xml")

    async def digest(self, request: Request) -> Response:
        view, shelf = await self._shelf(request)
        if shelf is None:
            return _nothing()
        period = request.path_params["period"]
        message = await self.db(lambda store: archive.message(store, shelf, period))
        if message is None:
            return refused(404, "Not found", "There is no digest of that date.")
        # Its links made for now: signed with the secret of its day, they died when it rotated.
        now = self.clock()
        return respond(archive.relinked(message, period, self._links(view, shelf, now), now))

    def _links(self, view: View, shelf: Shelf, now: float) -> Links:
        """The links of the shelf's pages. An earlier reader's unsubscribe link made again names
        the name alone (followed to its heirs): the newcomer's addresses had stopped the
        newcomer's mail."""
        sub = view.subscribers.get(shelf.name)
        to = addresses_of(sub) if sub is not None and not shelf.earlier else None
        expires = int(now) + VOTE_DAYS * 86400
        return Links(view.base_url, view.signer, shelf.name, expires, to, shelf.since)


def _nothing() -> Response:
    return refused(404, "Not found", "There is nothing at this address.")

"""The web face's routes (starlette): rating links (GET confirms, POST records and offers undo),
one-click unsubscribe (RFC 8058), the archive and feed behind each subscriber's secret path, and
Slack's button clicks. Every answer carries strict headers; bodies are bounded; the database is
reached from worker threads (access.py), never from the event loop."""

from __future__ import annotations

import contextlib
import html
import logging
import time
from collections.abc import AsyncIterator, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.types import ASGIApp

from digest.channels.email import recipients
from digest.models import DigestError, Paper, Settings, Subscriber
from digest.state import Store, reuses
from digest.state.engine import is_url
from digest.state.pauses import Mailing, Target, addressed, mailing
from digest.web import answers, slack, standing
from digest.web.access import Access
from digest.web.answers import TooLarge, read_body, refused, respond
from digest.web.clicks import Click, Clicks
from digest.web.current import Current, View
from digest.web.mailed import Mailed
from digest.web.pages import Strict, button_form, page
from digest.web.shelves import Shelves
from digest.web.spool import Spool
from digest.web.tokens import Links, Signer, claimed
from digest.web.unsubscribe import Link, carried, link_of, nothing, still_mailed, stopped_by

log = logging.getLogger("digest.web")

MAX_BODY = 4096  # bytes: a one-click unsubscribe or a confirm form is a few dozen
MAX_SLACK_BODY = 256 * 1024  # a block_actions payload repeats the whole message's blocks
UNDO_SECONDS = 86400  # the undo button of a recorded vote works for a day
VOTE_WORDS = standing.WORDS


class Face:
    """The routes over one config and one state database."""

    def __init__(
        self,
        settings: Settings,
        state: str,
        clock: Callable[[], float] = time.time,
        load: Callable[[], Settings] | None = None,
    ) -> None:
        self.clock = clock
        # The config as the next run reads it: a subscriber or an e-mail channel added since
        # the face started had its one-click unsubscribe answered "no e-mail to stop".
        self.current = Current(settings, load)
        self.db = Access(state, self.current)  # which refuses writes once [state] changed
        # Beside an SQLite state the kept clicks outlive the process; PostgreSQL replicas share
        # no disk, so theirs live in memory.
        spool = None if is_url(state) else Spool(Path(f"{state}.clicks"))
        self.clicks = Clicks(self.db, spool)
        self.mailed = Mailed()
        self.shelves = Shelves(self.db, self.current, clock)

    @property
    def view(self) -> View:
        return self.current.view()

    @property
    def signer(self) -> Signer:
        return self.view.signer

    @property
    def subscribers(self) -> dict[str, Subscriber]:
        return self.view.subscribers

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.clock()).astimezone()

    def links(self, subscriber: str) -> Links:
        view = self.view
        return Links(view.base_url, view.signer, subscriber, int(self.clock()) + UNDO_SECONDS)

    def app(self) -> ASGIApp:
        routes = [
            Route("/", self.home),
            Route("/r/{token}", self.vote, methods=["GET", "POST"]),
            Route("/u/{token}", self.unsubscribe, methods=["GET", "POST"]),
            Route("/a/{key}", self.shelves.slash),
            Route("/a/{key}/", self.shelves.index),
            Route("/a/{key}/feed.atom", self.shelves.feed),
            Route("/a/{key}/d/{period}", self.shelves.digest),
            Route("/slack/actions", self.slack_actions, methods=["POST"]),
        ]
        app = Starlette(routes=routes, lifespan=self._lifespan)
        # starlette's own slash redirects are absolute, built from the request's Host header:
        # links come from base_url only, so there are none (the archive's is relative, above).
        app.router.redirect_slashes = False
        app.add_exception_handler(404, answers.not_found)
        app.add_exception_handler(405, answers.not_allowed)
        app.add_exception_handler(500, answers.failed)
        app.add_exception_handler(DigestError, answers.unavailable)
        return Strict(app)

    @contextlib.asynccontextmanager
    async def _lifespan(self, app: Starlette) -> AsyncIterator[None]:
        yield
        # The clicks being written end and those kept get a last try, off the event loop.
        await run_in_threadpool(self.clicks.stop)
        self.db.close()

    async def home(self, request: Request) -> Response:
        return respond(page("digest", "<p>This is the web face of a paper digest.</p>"))

    # rating links

    def _vote_token(self, token: str) -> tuple[str, str, str] | None:
        fields = self.signer.check(token, "v", self.clock())
        if not fields or len(fields) != 3 or fields[2] not in VOTE_WORDS:
            return None
        return str(fields[0]), str(fields[1]), str(fields[2])

    async def vote(self, request: Request) -> Response:
        token = request.path_params["token"]
        found = self._vote_token(token)
        if found is None:
            return await self.undo(request, token)
        subscriber, name, vote = found
        paper = await self._paper(subscriber, name)
        if paper is False:
            return refused(410, "This link does not work", _EARLIER_VOTE)
        if paper is None:
            return refused(404, "Unknown paper", "This paper is not in the digest's records.")
        paper_id, title = paper.id, html.escape(paper.title)
        if request.method != "POST":  # a mail scanner opens every link: GET (and HEAD) only ask
            rated = await self.db.glance(lambda s: standing.rating(s, subscriber, paper_id))
            body = (
                f"<p>Rate <strong>{title}</strong> as <strong>{VOTE_WORDS[vote]}</strong> for "
                f"{html.escape(subscriber)}'s next digests?</p>"
                + standing.rating_line(rated, vote, self._zone(subscriber))
                + button_form(token, "Record my rating" if vote != "none" else "Undo")
            )
            return respond(page("Rate this paper", body))
        try:
            await read_body(request, MAX_BODY)
        except TooLarge:
            return refused(413, "Too large", "The request was larger than a vote can be.")
        now = self.now()
        if vote == "none":  # an undo link of an older version: takes the rating back as it was
            await self.db.write(lambda s: s.ratings.rate(subscriber, paper_id, vote, now, "web"))
            log.info("web: %s rated %s none", subscriber, paper_id)
            body = f"<p><strong>{title}</strong>: {VOTE_WORDS[vote]}.</p>"
            return respond(page("Rating taken back", body))
        _, key = await self.db.write(
            lambda store: store.ratings.rate_undoably(subscriber, paper_id, vote, now)
        )
        log.info("web: %s rated %s %s", subscriber, paper_id, vote)
        # The undo names the vote by its key; the database keeps what the vote replaced, so
        # that a double click's second page, on whichever replica, puts back the same row.
        expires = self.links(subscriber).expires
        undo = self.signer.sign("x", subscriber, name, key, expires)
        body = (
            f"<p><strong>{title}</strong>: {VOTE_WORDS[vote]}. The next digest for "
            f"{html.escape(subscriber)} follows it.</p>" + button_form(undo, "Undo", quiet=True)
            # Relative to this page (…/r/<token>): right behind a proxy serving under a path.
        )
        return respond(page("Rating recorded", body))

    async def undo(self, request: Request, token: str) -> Response:
        """An undo link: asks on GET; on POST puts back the rating its vote replaced, unless
        another rating came since (a click in Slack, a Matrix reply, `digest feedback`). Its
        fields: subscriber, paper, the vote's key; or, made before votes had keys, subscriber,
        paper id, the vote's time and the row it replaced."""
        fields = self.signer.check(token, "x", self.clock())
        if (
            not fields
            or len(fields) not in (3, 4)
            or not all(isinstance(f, str) for f in fields[:3])
        ):
            return await self.dead(token)
        subscriber, name, key = fields[:3]
        previous = fields[3] if len(fields) == 4 else None
        if previous is not None and not (isinstance(previous, list) and len(previous) == 4):
            return refused(403, "This link does not work", _BAD_LINK)
        paper = await self._paper(subscriber, name)
        if paper is False:
            return refused(410, "This link does not work", _EARLIER_VOTE)
        paper_id = paper.id if paper else name
        title = html.escape(paper.title if paper else name)
        if request.method != "POST":
            rated = await self.db.glance(lambda s: standing.rating(s, subscriber, paper_id))
            body = f"<p>Take back your rating of <strong>{title}</strong>?</p>" + (
                standing.rating_line(rated, "none", self._zone(subscriber))
            )
            return respond(page("Undo a rating", body + button_form(token, "Undo")))
        try:
            await read_body(request, MAX_BODY)
        except TooLarge:
            return refused(413, "Too large", "The request was larger than a vote can be.")
        done = await self.db.write(
            lambda store: store.ratings.undo(subscriber, paper_id, key, previous, "web")
        )
        if not done:
            body = (
                f"<p>The rating of <strong>{title}</strong> was changed since (from here or "
                "elsewhere): the newer one stands, and this undo changes nothing.</p>"
            )
            return respond(page("Nothing to undo", body))
        log.info("web: %s's rating of %s taken back", subscriber, paper_id)
        body = f"<p><strong>{title}</strong>: back to what it was before this vote.</p>"
        return respond(page("Rating taken back", body))

    async def dead(self, token: str) -> Response:
        """A rating or undo link that does not work. One this face signed whose time is over
        is not damaged: its page says so, names its paper and what to do instead."""
        now = self.clock()
        undo = self.signer.expired(token, "x", now)
        late = undo or self.signer.expired(token, "v", now)
        if not late or len(late) < 2 or not all(isinstance(f, str) for f in late[:2]):
            return refused(403, "This link does not work", _BAD_LINK)
        subscriber, name = late[0], late[1]
        paper = await self._paper(subscriber, name)
        if paper is False:
            return refused(410, "This link does not work", _EARLIER_VOTE)
        paper_id, title = (paper.id, paper.title) if paper else (name, name)
        rated = await self.db.glance(lambda s: standing.rating(s, subscriber, paper_id))
        return respond(
            page(*standing.expired(bool(undo), title, rated, self._zone(subscriber))), 403
        )

    async def _paper(self, subscriber: str, name: str) -> Paper | None | Literal[False]:
        """The paper a rating or undo link names (None: unknown), or False for a link of an
        earlier subscription: its name gone from the config, or reused since its mail (dana
        renamed dana1, a newcomer named dana): that vote had been the newcomer's (ops25 F1)."""
        if subscriber not in self.subscribers:
            return False
        mails = self.shelves.mails_of(self.view)

        def read(store: Store) -> Paper | None | Literal[False]:
            paper = store.web.paper(subscriber, name)
            ident = paper.id if paper else name
            return False if reuses.earlier(store.web, subscriber, name, ident, mails) else paper

        return await self.db(read)

    @staticmethod
    def _theirs(
        store: Store, votes: list[tuple[str, str, str]], mails: Mailing
    ) -> list[tuple[str, str, str]]:
        """The Slack votes of readers in the config now, none of an earlier subscription's."""
        return [
            (s, p, v)
            for s, p, v in votes
            if not reuses.earlier(store.web, s, p, store.web.named(s, p) or p, mails)
        ]

    def _zone(self, subscriber: str) -> str:
        return self.subscribers[subscriber].timezone

    # one-click unsubscribe

    async def unsubscriber(self, token: str) -> Link | None:
        """The link the face honours, or None: signed with the secret in force, or carried by a
        digest sent to its subscriber (signed before the secret was rotated: the digest of its
        mail's addresses unread, as a link of before), under that name in the config or renamed
        since (unsubscribe.carried)."""
        link = link_of(self.signer.check(token, "u", self.clock()))
        said = claimed(token, "u") if link is None else None
        name = said[0] if said and len(said) in (2, 3) and said[-1] == 0 else None
        if isinstance(name, str):
            now = self.subscribers.get(name)
            if await self.db(lambda store: carried(store, self.mailed, name, now, token)):
                link = Link(name)
        return link

    async def unsubscribe(self, request: Request) -> Response:
        token = request.path_params["token"]
        link = await self.unsubscriber(token)
        if link is None:
            return refused(403, "This link does not work", _BAD_UNSUBSCRIBE)
        subscriber, mails = link.name, mailing(self.subscribers.values(), recipients)
        stops = await self.db(lambda store: stopped_by(store.web, self.signer, link, mails))
        if not stops and subscriber in mails and not any(mails[subscriber].values()):
            why = f"{subscriber} gets no e-mail digests, so there is nothing for this link to stop"
            return refused(200, "No e-mail to stop", why + _OTHERS)  # other channels carry it
        if not stops:
            why = await self.db(lambda store: nothing(store.web, subscriber, mails))
            return refused(410, "This link does not work", why)
        who = ", ".join(dict.fromkeys(s for s, _, _ in stops))
        if request.method != "POST":  # HEAD too: only a POST changes anything
            return await self.ask_unsubscribe(stops, who, token, mails)
        try:
            await read_body(request, MAX_BODY)  # RFC 8058's "List-Unsubscribe=One-Click"
        except TooLarge:
            return refused(413, "Too large", "The request was larger than an unsubscribe.")
        now = self.now()
        # Written now, or kept and tried again while the database is away: a mail provider's
        # one-click POST comes once, and the reader takes "Unsubscribed" at its word. Each
        # channel with its addresses, which the pause stops whatever the config says later.
        pauses = tuple((s, addressed(c, to)) for s, c, to in stops)
        await self.clicks.take(
            Click(f"pause:{subscriber}:{now.isoformat()}", now, now, (), "", pauses)
        )
        going = await self.db.glance(lambda store: still_mailed(store.web, stops, mails))
        stopped = [c if s == stops[0][0] else f"{s}/{c}" for s, c, _ in stops]
        return respond(page("Unsubscribed", standing.unsubscribed(who, stopped, going)))

    async def ask_unsubscribe(
        self, stops: list[Target], who: str, token: str, mails: Mailing
    ) -> Response:
        """The confirm page, with what is in force: after the unsubscribe, Back or Reload says
        the mail is stopped since when (renamed, before a pass moved the pause too), on which
        channels and which go on, and asks nothing."""
        paused = await self.db.glance(lambda s: s.web.stopped(stops, mails))
        going = await self.db.glance(lambda store: still_mailed(store.web, stops, mails))
        names = {(s, c): c if s == stops[0][0] else f"{s}/{c}" for s, c, _ in stops}
        shown = None if paused is None else {names[k]: at for k, at in paused.items()}
        shared = {names[(s, c)]: len(to) for s, c, to in stops}  # each channel's one mail
        zone, button = self._zone(stops[0][0]), button_form(token, "Unsubscribe")
        head, body = standing.unsubscribe(
            who, list(names.values()), shown, zone, button, shared, going, self.elsewhere(stops)
        )
        return respond(page(head, body))

    def elsewhere(self, stops: list[Target]) -> list[str]:
        """The stopped names' channels that are not e-mail (an unsubscribe never stops them),
        named as the page names channels: the first name's bare, another's "name/channel"."""
        names = dict.fromkeys(s for s, _, _ in stops)
        return [
            c.name if s == stops[0][0] else f"{s}/{c.name}"
            for s in names
            for c in (self.subscribers[s].channels if s in self.subscribers else ())
            if c.kind != "email"
        ]

    # Slack

    async def slack_actions(self, request: Request) -> Response:
        try:
            body = await read_body(request, MAX_SLACK_BODY)
        except TooLarge:
            return respond("too large", 413, media="text/plain")
        if not slack.signed(body, request.headers, self.view.slack_secrets, self.clock()):
            log.warning("web: a Slack action with a bad or stale signature was refused")
            return respond("bad signature", 401, media="text/plain")
        clicked = slack.votes(body)
        if clicked is None:
            return refused(400, "Bad request", "This is not a Slack action digest can read.")
        tokens, response_url = clicked
        # Slack's buttons are up and down; an undo link's token pasted into a payload is not one.
        found = [
            v
            for v in map(self._vote_token, tokens)
            if v and v[0] in self.subscribers and v[2] in ("up", "down")
        ]
        mails = self.shelves.mails_of(self.view)
        found = await self.db(lambda store: self._theirs(store, found, mails)) if found else found
        key, until = slack.request_key(request.headers)
        stale = datetime.fromtimestamp(until, UTC)
        click = Click(key, stale, self.now(), tuple(found), response_url)
        # Written before the answer when the database is quick (Slack wants one within 3 s);
        # else answered now, and the click is written (or kept and tried again) after.
        taken = await self.clicks.take(click)
        if taken is False:
            if request.headers.get("x-slack-retry-num", "").isdigit():
                return Response(b"", 200)  # Slack's retry of a click already taken: done
            log.warning("web: a replayed Slack action was refused")
            return respond("replayed", 401, media="text/plain")
        return Response(b"", 200)  # pages.Strict adds the headers


_BAD_LINK = (
    "The link is damaged, has expired, or was made before the digest's secret changed. "
    "The next digest has fresh links."
)
_OTHERS = "; its other channels are set by the digest's operator."
_EARLIER_VOTE = (
    "This link is from the digests of an earlier subscription, under a name no longer in use"
    " or given to another reader since: nothing was recorded. If digests still come to you,"
    " the links of the newest one work."
)
_BAD_UNSUBSCRIBE = (
    "The link is damaged, or no digest of its reader carries it. To stop the e-mail digests,"
    " use the unsubscribe link at the foot of a recent one (or your mail program's Unsubscribe"
    " button on it), or ask whoever runs the digest to stop them."
)


def make_app(settings: Settings, state: str, **options: Any) -> ASGIApp:
    return Face(settings, state, **options).app()

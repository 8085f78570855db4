"""Unsubscribe links across a rotation of [web].secret: a mail provider posts RFC 8058's one-click
once, from whichever mail the reader pressed Unsubscribe on, so an old mail's link must stop the
mail after the secret changed. The face honours a `u` link that one of the reader's stored
digests carries, whatever secret signed it, and no other; one it cannot honour says how to stop
the mail. Real SMTP, a real state, the face on loopback."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

import pytest
from test_web_app import first_links, ratings
from web_project import GRAPHS, IMAGES, SECRET, TUESDAY, Project, papers_file, project

from digest.state import Store
from digest.state.web import Web
from digest.web import mailed
from digest.web.mailed import Mailed
from digest.web.tokens import Signer

ROTATED = "rotated-secret-9876543210fedcba"


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def rotate(web: Project, secret: str = ROTATED) -> None:
    toml = web.root / "digest.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace(SECRET, secret), encoding="utf-8")


def unsubscribe_of(mail: Any) -> str:
    return str(mail["List-Unsubscribe"]).strip().strip("<>")


def test_an_unsubscribe_mailed_before_the_secret_was_rotated_still_stops_the_mail(
    web: Project, capsys
) -> None:
    """After a rotation, every older mail's one-click answered 403 for good, and the reader's
    mail went on."""
    _, ups = first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    url = unsubscribe_of(mail)
    rotate(web)
    with web.web() as http:
        assert http.post(ups[0]).status_code == 403  # a rotation still voids the votes
        asked = http.get(url)
        assert asked.status_code == 200 and "Stop the e-mail digests" in asked.text
        done = http.post(url, content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana" in done.text
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana/email: email paused by the reader since 20" in out
    assert "ben/email" not in out and ratings(web, capsys) == []


def test_an_unsubscribe_no_digest_carries_stops_nothing_and_says_how_to_stop_the_mail(
    web: Project, capsys
) -> None:
    first_links(web, capsys)
    toml = web.root / "digest.toml"
    cai = '\n[[subscribers]]\nname = "cai"\ninterests = "graphs"\n'
    cai += '[[subscribers.channels]]\nkind = "email"\nto = "cai@example.org"\n'
    toml.write_text(toml.read_text(encoding="utf-8") + cai, encoding="utf-8")
    rotate(web)
    forged = [
        Signer("never-the-secret-0123456789").sign("u", "ana", 0),  # a key never used
        Signer(SECRET).sign("u", "cai", 0),  # the old key, but no digest of cai's carries it
        Signer(SECRET).sign("u", "ana", 1),  # not an unsubscribe link's shape
        Signer(SECRET).sign("u", ["ana"], 0),
        base64.urlsafe_b64encode(b"[" * 1400).rstrip(b"=").decode() + ".AAAAAAAAAAAAAAAAAAAAAA",
    ]
    with web.web() as http:
        for token in forged:
            for method in ("GET", "POST"):
                answer = http.request(method, f"/u/{token}")
                assert answer.status_code == 403, (token, method)
                assert "To stop the e-mail digests, use the unsubscribe link" in answer.text
                assert "The next digest has fresh links" not in answer.text
    assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]


CHANNELS = ("email", "file", "slack")  # ana's, as web_project writes them


def test_each_history_is_read_once_then_only_what_was_sent_since(
    web: Project, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A flood of forged links must not read the reader's digests again and again."""
    first_links(web, capsys)
    old = unsubscribe_of(web.mails("ana@example.org")[0]).rsplit("/u/", 1)[1]
    rotate(web)
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    new = unsubscribe_of(web.mails("ana@example.org")[-1]).rsplit("/u/", 1)[1]
    assert new != old
    asked: list[tuple[str, int]] = []
    sent_messages = Web.sent_messages

    def counted(self: Web, subscriber: str, channel: str, limit: int = 50, **more: Any) -> Any:
        asked.append((channel, limit))
        return sent_messages(self, subscriber, channel, limit, **more)

    monkeypatch.setattr(Web, "sent_messages", counted)
    monkeypatch.setattr(mailed, "FIRST", 1)
    mail, forged = Mailed(), Signer("never-the-secret-0123456789").sign("u", "ana", 0)
    with Store(web.state) as store:
        assert mail.carries(store, "ana", CHANNELS, old)  # Tuesday's, then Monday's too
        assert asked == [(c, n) for c in CHANNELS for n in (1, 4)]
        asked.clear()
        assert mail.carries(store, "ana", CHANNELS, new) and asked == []  # known by now
        for _ in range(3):
            assert not mail.carries(store, "ana", CHANNELS, forged)
        assert asked == [(c, 1) for c in CHANNELS] * 3  # only a look at the newest
        assert not mail.carries(store, "ben", ["email"], old)  # ben's digests carry ben's link
        monkeypatch.setattr(mailed, "MOST", 1)  # only the newest digest of each channel is read
        assert not Mailed().carries(store, "ana", CHANNELS, old)


def test_an_alerts_unsubscribe_link_stops_the_mail_after_a_rotation_too(tmp_path: Path) -> None:
    """A reader on alerts alone (or whose last mails were alerts and notices) had no digest to
    carry the link: the one-click of an alert answered 403 after a rotation."""
    from datetime import UTC, date, datetime

    from digest.models import Message, Paper

    now = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    token = Signer(SECRET).sign("u", "cai", 0)
    alert = Message("Alert", "t", "h", unsubscribe_url=f"https://digest.example.org/u/{token}")
    with Store(tmp_path / "s.db") as store:
        store.add_papers([Paper("2612.00001", "A paper", "An abstract.")], now)
        said = store.journal.record_alert(
            "cai",
            "2612.00001",
            date(2026, 12, 1),
            0.9,
            ("score",),
            now,
            [("email", "email", alert)],
        )
        assert said == "alerted"
        (row,) = store.due(now)
        assert store.mark_sent(row.id, "ok", now)
        assert Mailed().carries(store, "cai", ["email"], token)
        assert not Mailed().carries(store, "cai", ["email"], Signer(SECRET).sign("u", "dan", 0))


def test_a_link_that_says_its_mails_addresses_still_stops_the_mail_after_a_rotation(
    web: Project, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link signed with the digest of its mail's addresses, the secret rotated since: the face
    cannot read that digest, finds the link in the reader's mail, and stops it as a link of
    before; another reader's, carried by no mail of theirs, stops nothing."""
    import digest.pipeline
    from digest.web.tokens import Links, links_in

    def with_addresses(settings: Any, store: Any, sub: Any, now: Any) -> Links | None:
        links = links_in(settings, store, sub, now)  # the pipeline's call
        assert links is not None
        to = (f"{links.subscriber}@example.org",)
        return Links(links.base_url, links.signer, links.subscriber, links.expires, to)

    monkeypatch.setattr(digest.pipeline, "links_in", with_addresses)
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    token = unsubscribe_of(mail).rsplit("/u/", 1)[1]
    went = Signer(SECRET).addresses(["ana@example.org"])
    assert Signer(SECRET).check(token, "u", 0) == ["ana", went]
    rotate(web)
    with web.web() as http:
        other = http.post(f"/u/{Signer(SECRET).sign('u', 'ben', went, 0)}", content=b"")
        assert other.status_code == 403
        done = http.post(f"/u/{token}", content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana." in done.text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert "ana/email: email paused by the reader" in out and "ben/email" not in out


@pytest.mark.parametrize("run_between", [True, False])
def test_an_older_link_after_a_rename_and_a_rotation_stops_the_renamed_readers_mail(
    web: Project, capsys, run_between: bool
) -> None:
    """ops24 F2: ana renamed ana1 and the secret rotated: the Monday mail's one-click was looked
    for in the sent mail of the config's `ana` alone (none), refused 403 "damaged", and ana1 was
    mailed on. A sent mail of ana carries it: it follows ana's heirs, as without the rotation.
    Another name's link, or one of a name never mailed here, stays refused."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    toml = web.root / "digest.toml"
    toml.write_text(toml.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"'))
    rotate(web)
    if run_between:
        papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
        assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    token = unsubscribe_of(mail).rsplit("/u/", 1)[1]
    went = Signer(SECRET).addresses(["ana@example.org"])
    with web.web() as http:
        for forged in (
            Signer(SECRET).sign("u", "ben", went, 0),
            Signer(SECRET).sign("u", "zoe", 0),
        ):
            assert http.post(f"/u/{forged}", content=b"").status_code == 403
        asked = http.get(f"/u/{token}")
        assert asked.status_code == 200 and "for <strong>ana1</strong>" in asked.text, asked.text
        done = http.post(f"/u/{token}", content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana1." in done.text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert "ana1/email: email paused by the reader" in out and "ben/email" not in out
    sent = len(web.mails("ana@example.org"))
    fresh = [("w1", "Graph transformers for molecules", "Graph transformers on graphs.")]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    code, out, _ = web.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")
    assert code == 0 and "sent ana1/file" in out  # ana1 had a digest...
    assert len(web.mails("ana@example.org")) == sent  # ...and no e-mail after the click

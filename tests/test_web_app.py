"""The web face as readers and mail scanners meet it, on a real uvicorn over a real state: a GET
only asks, a POST records and offers undo; damaged, expired or foreign links record nothing;
one-click unsubscribe pauses e-mail until `digest resume`; every answer has strict headers; a
request waiting on a locked database holds up no other."""

from __future__ import annotations

import json
import logging
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from channel_servers import free_port
from web_project import (
    GRAPHS,
    IMAGES,
    MONDAY,
    SECRET,
    TUESDAY,
    Held,
    Project,
    papers_file,
    project,
)

from digest.web.tokens import Signer


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def ratings(p: Project, capsys: Any) -> list[dict[str, str]]:
    code, out, err = p.digest(capsys, "ratings", "--format", "json")
    assert code == 0, err
    return list(json.loads(out))


def first_links(p: Project, capsys: Any, label: str = "👍") -> tuple[str, list[str]]:
    code, _, err = p.digest(capsys, "run", "--now", MONDAY)
    assert code == 0, err
    (mail,) = p.mails("ana@example.org")
    html = p.html_of(mail)
    return html, p.links(html, label)


def test_a_get_only_asks_and_a_post_records_then_undo_takes_it_back(web: Project, capsys) -> None:
    _, ups = first_links(web, capsys)
    assert len(ups) == 2 and all(u.startswith(web.base + "/r/") for u in ups)
    with web.web() as http:
        page = http.get(ups[0])
        assert page.status_code == 200 and "Record my rating" in page.text
        assert 'method="post"' in page.text
        assert ratings(web, capsys) == []  # a mail scanner's GET changes nothing
        done = http.post(ups[0])
        assert done.status_code == 200 and "Rating recorded" in done.text
        (rated,) = ratings(web, capsys)
        assert rated["subscriber"] == "ana" and rated["vote"] == "up" and rated["via"] == "web"
        undo = done.text.split('action="')[1].split('"')[0]
        assert "/" not in undo  # relative to the page, so a proxy's path prefix stays
        assert http.post(f"/r/{undo}").status_code == 200
        assert ratings(web, capsys) == []


def test_the_same_vote_twice_is_one_rating_and_still_offers_undo(web: Project, capsys) -> None:
    _, ups = first_links(web, capsys)
    with web.web() as http:
        assert "Undo" in http.post(ups[0]).text
        again = http.post(ups[0])  # a second click, or the same link in another mail
        assert again.status_code == 200 and "Rating recorded" in again.text
        assert "Undo" in again.text
        (rated,) = ratings(web, capsys)
        assert rated["vote"] == "up"
        undo = again.text.split('action="')[1].split('"')[0]
        assert "taken back" in http.post(f"/r/{undo}").text
    assert ratings(web, capsys) == []


def test_a_double_clicked_vote_undone_from_its_second_page_puts_back_the_first_ones(
    web: Project, capsys
) -> None:
    """👎, then 👍 clicked twice: the second page's Undo deleted the rating, not back to 👎."""
    ups, downs = first_links(web, capsys)[1], first_links(web, capsys, "👎")[1]
    with web.web() as http:
        http.post(downs[0])
        http.post(ups[0])
        again = http.post(ups[0])
        undo = again.text.split('action="')[1].split('"')[0]
        assert "taken back" in http.post(f"/r/{undo}").text
    (rated,) = ratings(web, capsys)
    assert rated["vote"] == "down"


def test_an_undo_puts_back_the_rating_it_replaced_as_it_was(web: Project, capsys) -> None:
    _, downs = first_links(web, capsys, "👎")
    with web.web() as http:
        done = http.post(downs[0])
        (down,) = ratings(web, capsys)
        code, _, _ = web.digest(capsys, "feedback", "ana", down["paper"], "up")  # the CLI, later
        assert code == 0
        undo = done.text.split('action="')[1].split('"')[0]
        assert "Nothing to undo" in http.post(f"/r/{undo}").text  # the newer rating stands
        (now,) = ratings(web, capsys)
        assert (now["vote"], now["via"]) == ("up", "cli")
        again = http.post(downs[0])  # web 👎 over the CLI's 👍; its undo gives the 👍 back
        undo = again.text.split('action="')[1].split('"')[0]
        assert "taken back" in http.post(f"/r/{undo}").text
    assert ratings(web, capsys) == [now]  # its route and time too, not relabelled "web"


def test_a_head_request_changes_nothing_and_a_post_after_it_still_offers_undo(web: Project, capsys):
    _, ups = first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    unsubscribe = mail["List-Unsubscribe"].strip().strip("<>")
    with web.web() as http:
        for url in (ups[0], unsubscribe):
            looked = http.head(url)  # link checkers and previewers send HEAD, as they send GET
            assert looked.status_code == 200 and looked.content == b""
        assert ratings(web, capsys) == []
        assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]
        done = http.post(ups[0])
        assert done.status_code == 200 and "Rating recorded" in done.text and "Undo" in done.text


def test_a_changed_byte_an_expired_link_or_another_kind_records_nothing(web: Project, capsys):
    _, ups = first_links(web, capsys)
    token = ups[0].rsplit("/", 1)[1]
    body, mac = token.split(".")
    flipped = body[:-1] + ("A" if body[-1] != "A" else "B")
    signer = Signer(SECRET)
    expired = signer.sign("v", "ana", "g1", "up", 1)
    unsubscribe_as_vote = signer.sign("u", "ana", 0)
    other_secret = Signer("another-secret-0123456789").sign("v", "ana", "g1", "up", 0)
    with web.web() as http:
        for bad in (f"{flipped}.{mac}", f"{body}.{mac[:-2]}", expired, unsubscribe_as_vote,
                    other_secret, "nonsense", "a.b"):  # fmt: skip
            for method in ("GET", "POST"):
                answer = http.request(method, f"/r/{bad}")
                assert answer.status_code == 403, (bad, method)
                said = "has expired" if bad == expired else "does not work"
                assert said in answer.text, (bad, method)
    assert ratings(web, capsys) == []


def test_every_answer_has_strict_headers_and_no_third_party_resource(web: Project, capsys):
    html, ups = first_links(web, capsys)
    with web.web() as http:
        for answer in (http.get(ups[0]), http.get("/nowhere"), http.get("/"), http.post(ups[1])):
            csp = answer.headers["content-security-policy"]
            assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
            assert "unsafe-inline" not in csp and "script-src" not in csp
            assert answer.headers["x-content-type-options"] == "nosniff"
            assert answer.headers["referrer-policy"] == "no-referrer"
            assert "server" not in answer.headers
            assert "http" not in answer.text.split("<body>")[0]  # nothing fetched from anywhere


def strict(answer: Any) -> None:
    """The headers the docs promise on every answer, whatever its status."""
    csp = answer.headers["content-security-policy"]
    assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp, answer
    assert answer.headers["cache-control"] == "no-store"
    assert answer.headers["referrer-policy"] == "no-referrer"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"


def test_redirects_errors_and_refusals_carry_the_headers_and_no_host_of_the_request(
    web: Project, capsys, monkeypatch
) -> None:
    _, ups = first_links(web, capsys)
    token = ups[0].rsplit("/", 1)[1]
    key = Signer(SECRET).archive_key("ana")
    evil = {"Host": "evil.example"}
    with web.web() as http:
        moved = http.get(f"/a/{key}", headers=evil)
        assert moved.status_code == 308 and moved.headers["location"] == f"{key}/"  # relative
        strict(moved)
        for method in ("GET", "POST"):
            slashed = http.request(method, f"/r/{token}/", headers=evil)
            assert slashed.status_code == 404 and "location" not in slashed.headers
            strict(slashed)
        for method, path, allow in (("PUT", f"/r/{token}", "GET, HEAD, POST"),
                                    ("GET", "/slack/actions", "POST"),
                                    ("HEAD", "/slack/actions", "POST")):  # fmt: skip
            refused = http.request(method, path)
            allowed = sorted(refused.headers["allow"].split(", "))
            assert refused.status_code == 405 and allowed == sorted(allow.split(", ")), path
            strict(refused)
        strict(http.post("/slack/actions", content=b"payload=x"))  # 401: not signed
        strict(http.post("/slack/actions", content=b"x" * 300_000))  # 413
        monkeypatch.setattr("digest.web.archive.index", lambda *_: 1 / 0)
        broken = http.get(f"/a/{key}/")
        assert broken.status_code == 500
        strict(broken)
    assert ratings(web, capsys) == []


def test_a_failing_request_is_one_log_line_without_its_message(
    web: Project, capsys, monkeypatch
) -> None:
    first_links(web, capsys)
    key = Signer(SECRET).archive_key("ana")

    def broken(*_):
        raise ValueError("token=hunter2-secret-in-a-message")

    monkeypatch.setattr("digest.web.archive.index", broken)
    with web.web() as http:
        answer = http.get(f"/a/{key}/")
    assert answer.status_code == 500 and "try again later" in answer.text
    assert "hunter2" not in answer.text
    log = capsys.readouterr().err
    assert "web: GET /a… failed (ValueError)" in log
    assert "hunter2" not in log and "Traceback" not in log and key not in log


def test_a_state_database_that_cannot_answer_is_a_503_to_try_again_never_a_500(
    web: Project, capsys, monkeypatch
) -> None:
    # A vote while the database was down got a 500, and the log said only "StateError".
    from digest.models import StateError
    from digest.state.ratings import Ratings

    _, ups = first_links(web, capsys)

    def down(*_: object) -> None:
        raise StateError("postgresql://digest@db/digest: cannot connect (connection refused)")

    monkeypatch.setattr(Ratings, "rate_undoably", down)
    with web.web() as http:
        answer = http.post(ups[0])
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "60"
    assert "nothing was changed" in answer.text
    log = capsys.readouterr().err
    assert "web: POST /r… not done: postgresql://digest@db/digest: cannot connect" in log
    assert ups[0].rsplit("/", 1)[1][:20] not in log


def test_an_unsubscribe_while_the_database_is_away_is_kept_and_recorded_when_it_is_back(
    web: Project, capsys, monkeypatch
) -> None:
    # A mail provider's one-click POST comes once: answered 500 and never recorded, the reader
    # went on getting mail.
    from digest.models import StateError
    from digest.state.web import Web
    from digest.web import clicks

    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    url = mail["List-Unsubscribe"].strip().strip("<>")
    pause, calls = Web.pause, []

    def away_once(self: Web, *args: object) -> None:
        calls.append(args)
        if len(calls) == 1:
            raise StateError("state.db: the state database stayed locked by another process")
        pause(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Web, "pause", away_once)
    monkeypatch.setattr(clicks, "FIRST_RETRY", 0.05)
    with web.web() as http:
        answer = http.post(url, content=b"List-Unsubscribe=One-Click")
        assert answer.status_code == 200 and "No more e-mail" in answer.text
        for _ in range(100):
            if len(calls) > 1:
                break
            time.sleep(0.05)
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana/email: email paused by the reader since 20" in out


def test_request_bodies_are_bounded(web: Project, capsys) -> None:
    _, ups = first_links(web, capsys)
    with web.web() as http:
        assert http.post(ups[0], content=b"x" * 100_000).status_code == 413
        assert http.post("/slack/actions", content=b"x" * 1_000_000).status_code == 413
    assert ratings(web, capsys) == []


def test_tokens_never_reach_the_log(web: Project, capsys) -> None:
    _, ups = first_links(web, capsys)
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)  # every line uvicorn and digest could write
    try:
        with web.web() as http:
            http.get(ups[0])
            http.post(ups[0])
            http.get(ups[0] + "x")
    finally:
        root.setLevel(level)
    log = capsys.readouterr().err
    token = ups[0].rsplit("/", 1)[1]
    assert "ana rated g" in log  # what happened is logged...
    assert token[:20] not in log and "/r/" not in log  # ...never the link that did it


def test_one_click_unsubscribe_pauses_email_until_digest_resume(web: Project, capsys) -> None:
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    header = mail["List-Unsubscribe"]
    assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = header.strip().strip("<>")
    with web.web() as http:
        asked = http.get(url)
        assert asked.status_code == 200 and "Unsubscribe" in asked.text
        # RFC 8058: the mail client POSTs this body, with no cookie and no page.
        done = http.post(url, content=b"List-Unsubscribe=One-Click",
                         headers={"Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert done.status_code == 200 and "No more e-mail" in done.text
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana/email: email paused by the reader since 20" in out
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    assert len(web.mails("ana@example.org")) == 1  # no e-mail on Tuesday...
    assert (web.root / "out" / "2026-12-01" / "ana.eml").is_file()  # ...the other channels go on
    assert len(web.mails("ben@example.org")) == 2  # and other readers are not touched
    code, out, _ = web.digest(capsys, "resume", "ana")
    assert code == 0 and "email resumed" in out
    assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]
    fresh = [("w1", "Graph transformers for molecules", "Graph transformers on molecular graphs.")]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    assert web.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")[0] == 0
    assert len(web.mails("ana@example.org")) == 2  # the next digest, not Tuesday's backlog


def test_unsubscribing_a_reader_without_e_mail_says_there_is_nothing_to_stop(web: Project, capsys):
    config = web.root / "digest.toml"
    config.write_text(
        config.read_text(encoding="utf-8") + '\n[[subscribers]]\nname = "cai"\n'
        'interests = "graph neural networks"\n[[subscribers.channels]]\nkind = "file"\n'
        'dir = "out"\n',
        encoding="utf-8",
    )
    first_links(web, capsys)
    url = f"/u/{Signer(SECRET).sign('u', 'cai', 0)}"
    with web.web() as http:
        asked = http.get(url)
        assert asked.status_code == 200 and "gets no e-mail digests" in asked.text
        assert "<form" not in asked.text  # no button that would pretend to do something
        done = http.post(url, content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "nothing for this link to stop" in done.text
        assert "No more e-mail" not in done.text
    assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]


def test_a_link_for_a_reader_no_longer_configured_is_gone(web: Project, capsys) -> None:
    token = Signer(SECRET).sign("v", "zoe", "g1", "up", 0)
    first_links(web, capsys)
    with web.web() as http:
        assert http.post(f"/r/{token}").status_code == 410
    assert ratings(web, capsys) == []


def test_digest_ratings_lists_text_and_json_and_checks_the_subscriber(web: Project, capsys):
    _, ups = first_links(web, capsys)
    assert web.digest(capsys, "feedback", "ana", "g2", "down")[0] == 0
    with web.web() as http:
        http.post(ups[0])
    listed = ratings(web, capsys)
    assert {(r["paper"], r["vote"], r["via"]) for r in listed} >= {("g2", "down", "cli")}
    assert all(set(r) == {"subscriber", "paper", "vote", "via", "at"} for r in listed)
    code, out, _ = web.digest(capsys, "ratings", "--subscriber", "ana")
    assert code == 0 and "down  g2  (via cli)" in out
    code, _, err = web.digest(capsys, "ratings", "--subscriber", "zoe")
    assert code == 2 and "no subscriber named 'zoe'" in err


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
def test_a_request_waiting_on_a_locked_database_holds_up_no_other(
    tmp_path: Path, capsys, request, engine: str
) -> None:
    url = request.getfixturevalue("postgres_url") if engine == "postgres" else ""
    with project(tmp_path, state=url) as web:
        _, ups = first_links(web, capsys)
        key = Signer(SECRET).archive_key("ana")
        answers: list[httpx.Response] = []

        def vote() -> None:  # a reader's click, whose rating must wait for the lock
            with httpx.Client(timeout=60, trust_env=False) as own:
                answers.append(own.post(ups[0]))

        with web.web() as http:
            held = Held(web.state)
            slow = threading.Thread(target=vote)
            try:
                slow.start()
                held.wait_for_a_waiter()
                # Other readers meanwhile: the archive and a rating link's page read the state.
                assert http.get(f"/a/{key}/").status_code == 200
                assert "Record my rating" in http.get(ups[1]).text
                assert slow.is_alive() and answers == []  # the vote still waits for the lock
            finally:
                held.release()
                slow.join(60)
        (done,) = answers
        assert done.status_code == 200 and "Rating recorded" in done.text
        (rated,) = ratings(web, capsys)
        assert (rated["vote"], rated["via"]) == ("up", "web")


def test_many_votes_waiting_on_a_locked_database_leave_the_readers_their_threads(
    web: Project, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """60 waiting votes had filled the 40 threads every request shares: a rating page that
    reads at once under the lock took 29 s. Past a few waiting writes, a vote is a 503 at once."""
    from digest.state import engine
    from digest.web import access

    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 120.0)  # the writers wait while the lock is held
    _, ups = first_links(web, capsys)
    answers: list[int] = []

    def vote() -> None:
        with httpx.Client(timeout=60, trust_env=False) as own:
            answers.append(own.post(ups[0]).status_code)

    with web.web() as http:
        held = Held(web.state)
        voters = [threading.Thread(target=vote) for _ in range(45)]
        try:
            for voter in voters:
                voter.start()
            deadline = time.monotonic() + 30  # only a guard against a hang
            while len(answers) < 45 - access.WRITERS and time.monotonic() < deadline:
                time.sleep(0.1)  # the ones past WRITERS are answered while the lock is held
            assert answers.count(503) >= 45 - access.WRITERS
            assert "Record my rating" in http.get(ups[1]).text  # a reader is served meanwhile
        finally:
            held.release()
            for voter in voters:
                voter.join(60)
    assert len(answers) == 45 and [r["vote"] for r in ratings(web, capsys)] == ["up"]


def test_a_burst_of_votes_on_an_idle_database_is_all_recorded(web: Project, capsys) -> None:
    """Refused at once past 4 writes in flight, 14 of 20 readers voting together got a 503."""
    ups, downs = first_links(web, capsys)[1], first_links(web, capsys, "👎")[1]
    links = [link for pair in zip(ups, downs, strict=False) for link in pair]
    answers: list[int] = []

    def vote(link: str) -> None:
        with httpx.Client(timeout=60, trust_env=False) as own:
            answers.append(own.post(link).status_code)

    with web.web():
        voters = [threading.Thread(target=vote, args=(links[i % len(links)],)) for i in range(20)]
        for voter in voters:
            voter.start()
        for voter in voters:
            voter.join(60)
    assert answers == [200] * 20


def test_an_undo_of_the_same_vote_as_another_routes_keeps_that_rating(web: Project, capsys):
    """A web 👍 over the CLI's 👍 had no row to put back, and its undo deleted the CLI's."""
    _, ups = first_links(web, capsys)
    with web.web() as http:
        http.post(ups[0])
        (first,) = ratings(web, capsys)
        assert web.digest(capsys, "feedback", "ana", first["paper"], "up")[0] == 0
        (cli,) = ratings(web, capsys)
        done = http.post(ups[0])
        undo = done.text.split('action="')[1].split('"')[0]
        assert "taken back" in http.post(f"/r/{undo}").text
    assert ratings(web, capsys) == [cli]


def test_two_votes_in_one_second_each_undo_only_their_own(web: Project, capsys) -> None:
    """The undo named its vote by route and second: 👍 then 👎 in one second, and the 👍's
    undo wiped out the 👎."""
    ups, downs = first_links(web, capsys)[1], first_links(web, capsys, "👎")[1]
    with web.web() as http:
        up = http.post(ups[0]).text.split('action="')[1].split('"')[0]
        http.post(downs[0])
        assert "Nothing to undo" in http.post(f"/r/{up}").text
    (rated,) = ratings(web, capsys)
    assert rated["vote"] == "down"


def undo_of(answer: httpx.Response) -> str:
    return "/r/" + answer.text.split('action="')[1].split('"')[0]


def test_a_double_click_on_two_replicas_then_undo_puts_back_the_rating_before_it(
    web: Project, capsys
) -> None:
    """The second replica took the click for the first's, but what that one replaced was in the
    other process's memory: the Undo on the page the reader saw deleted their 👎."""
    _, ups = first_links(web, capsys)
    with web.web() as one, web.web(port=free_port()) as two:
        token = ups[0].rsplit("/", 1)[1]
        _, paper, _ = Signer(SECRET).check(token, "v", 0) or []
        assert web.digest(capsys, "feedback", "ana", paper, "down")[0] == 0
        (down,) = ratings(web, capsys)
        assert "Rating recorded" in one.post(f"/r/{token}").text
        again = two.post(f"/r/{token}")  # the double click's second POST, on the other replica
        assert "Rating recorded" in again.text
        assert [r["vote"] for r in ratings(web, capsys)] == ["up"]
        assert "taken back" in one.post(undo_of(again)).text
    assert ratings(web, capsys) == [down]  # the 👎 as it was: its route and time too


def test_votes_changed_back_and_forth_are_stamped_no_later_than_the_clock(
    web: Project, capsys
) -> None:
    """Each vote within the second of the one before was stamped a second past it: 120 clicks
    put the rating two minutes ahead, and a late Slack click meanwhile was dropped as older."""
    ups, downs = first_links(web, capsys)[1], first_links(web, capsys, "👎")[1]
    with web.web() as http:
        answers = [http.post((ups[0], downs[0])[n % 2]) for n in range(8)]
        after = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        (rated,) = ratings(web, capsys)
        assert rated["vote"] == "down" and rated["at"] <= after
        assert "Nothing to undo" in http.post(undo_of(answers[-2])).text  # the newer one stands
        assert "taken back" in http.post(undo_of(answers[-1])).text
    (rated,) = ratings(web, capsys)
    assert rated["vote"] == "up" and rated["at"] <= after


LONG = "https://feeds.example.org/item?" + "x" * 1900  # a feed's id, kept whole by intake


def slack_click(button: dict[str, Any], block: str) -> tuple[bytes, dict[str, str]]:
    """The form body Slack posts for a click of `button`, and its signed headers."""
    import hashlib
    import hmac
    from urllib.parse import urlencode

    from web_project import SIGNING

    action = {**button, "block_id": block, "action_ts": "1764493200.000100"}
    payload = {"type": "block_actions", "user": {"id": "U1"}, "actions": [action],
               "response_url": "http://127.0.0.1:9/not-slack"}  # fmt: skip
    body = urlencode({"payload": json.dumps(payload)}).encode()
    stamp = str(int(time.time()))
    mac = hmac.new(SIGNING.encode(), f"v0:{stamp}:".encode() + body, hashlib.sha256).hexdigest()
    headers = {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={mac}",
               "Content-Type": "application/x-www-form-urlencoded"}  # fmt: skip
    return body, headers


def test_a_paper_with_a_1900_character_id_gets_links_and_buttons_that_record(
    web: Project, capsys
) -> None:
    """Signed whole, its links were over the 2,000 characters a token may have (403 "damaged"),
    and its Slack buttons were cut there (a click recorded nothing, and said nothing)."""
    rows = [(f"{LONG}{i}", t, a) for i, t, a in GRAPHS[:2] + IMAGES[:2]]
    papers_file(web.root / "feed" / "monday.jsonl", rows)
    _, ups = first_links(web, capsys)
    downs = web.links(web.html_of(web.mails("ana@example.org")[0]), "👎")
    assert all(len(link) < 2000 for link in ups + downs)
    (payload,) = web.slack.accepted
    actions = [b for b in payload["blocks"] if b["type"] == "actions"]
    assert len(actions) == 2  # every paper has its buttons, whole
    down = next(e for e in actions[1]["elements"] if e["action_id"].startswith("digest-down"))
    with web.web() as http:
        asked = http.get(ups[0])
        assert asked.status_code == 200 and "Record my rating" in asked.text
        done = http.post(ups[0])
        assert done.status_code == 200 and "Rating recorded" in done.text
        (rated,) = ratings(web, capsys)
        assert rated["paper"].startswith(LONG) and len(rated["paper"]) == len(LONG) + 2
        assert (rated["vote"], rated["via"]) == ("up", "web")
        assert "taken back" in http.post(undo_of(done)).text
        assert ratings(web, capsys) == []
        body, headers = slack_click(down, actions[1]["block_id"])
        assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
    (rated,) = ratings(web, capsys)
    assert rated["paper"].startswith(LONG) and (rated["vote"], rated["via"]) == ("down", "slack")


WIDGETRON = "Widgetron: tolerance stacks in widget assembly"
ARXIV_TITLE = "Tolerance-aware optimization of widget assembly lines"


def widget_record(ident: str, title: str, **more: str) -> str:
    abstract = f"{title}: tolerance stacks across widget assembly stations cut scrap."
    fields = {"id": ident, "title": title, "abstract": abstract, "authors": ["A. Widgetmaker"],
              "published": "2026-11-29", **more}  # fmt: skip
    return json.dumps(fields) + "\n"


def folded_alert(web: Project, capsys: Any) -> tuple[str, str, dict[str, Any]]:
    """A journal's record alerted to ana, then the arXiv record read and read again naming the
    record's DOI, which folds the copy into it: the alert's 👍 and 👎 links and Slack buttons,
    all naming the copy."""
    toml = web.root / "digest.toml"
    alerting = 'name = "ana"\nalert_keywords = ["widgetron"]\n'
    toml.write_text(toml.read_text(encoding="utf-8").replace('name = "ana"\n', alerting))
    feed = web.root / "feed"
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0  # Monday's digest
    (feed / "journal.jsonl").write_text(widget_record("10.1234/widget.5", WIDGETRON))
    assert web.digest(capsys, "run", "--now", "2026-11-30T10:00:00+00:00")[0] == 0
    (alert,) = [m for m in web.mails("ana@example.org") if "alert" in m["Subject"]]
    up, down = (web.links(web.html_of(alert), label)[0] for label in ("👍", "👎"))
    (actions,) = [b for b in web.slack.accepted[-1]["blocks"] if b["type"] == "actions"]
    (feed / "arxiv.jsonl").write_text(widget_record("2599.00001", ARXIV_TITLE))
    assert web.digest(capsys, "run", "--now", "2026-11-30T11:00:00+00:00")[0] == 0
    naming = widget_record("2599.00001", ARXIV_TITLE, url="https://doi.org/10.1234/widget.5")
    (feed / "arxiv.jsonl").write_text(naming)
    assert web.digest(capsys, "run", "--now", "2026-11-30T12:00:00+00:00")[0] == 0
    return up, down, actions


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
def test_an_alert_of_a_copy_folded_since_rates_the_paper_it_was_folded_into(
    engine: str, tmp_path: Path, capsys, request: pytest.FixtureRequest
) -> None:
    """A journal's record was alerted, then the arXiv record naming its DOI folded it into the
    arXiv paper: the alert's 👍/👎 and Slack buttons name the copy, and the face answered 404
    "Unknown paper" to them. The vote was lost."""
    url = request.getfixturevalue("postgres_url") if engine == "postgres" else ""
    with project(tmp_path, state=url) as web:
        up, down, actions = folded_alert(web, capsys)
        buttons = actions["elements"]
        slack_down = next(b for b in buttons if b["action_id"].startswith("digest-down"))
        with web.web() as http:
            for link in (up, down):
                asked = http.get(link)
                assert asked.status_code == 200 and ARXIV_TITLE in asked.text
            done = http.post(up)
            assert done.status_code == 200 and "Rating recorded" in done.text
            (rated,) = ratings(web, capsys)
            assert (rated["paper"], rated["vote"], rated["via"]) == ("2599.00001", "up", "web")
            assert "taken back" in http.post(undo_of(done)).text
            assert ratings(web, capsys) == []
            body, headers = slack_click(slack_down, actions["block_id"])
            assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
        (rated,) = ratings(web, capsys)
        assert (rated["paper"], rated["vote"], rated["via"]) == ("2599.00001", "down", "slack")


def mailed(p: Project, address: str) -> int:
    """How many mails went to this address, however `to` wrote its case."""
    return sum(address in (r.lower() for r in m.recipients) for m in p.mailbox.mails)


def unsubscribe_link(mail: Any) -> str:
    return str(mail["List-Unsubscribe"]).strip().strip("<>")


def test_an_unsubscribe_stops_its_address_whatever_e_mail_channel_is_written_above_it_later(
    web: Project, capsys
) -> None:
    """Kept by the channel's place in the list ("email", "email-2"), the pause went to the home
    address the operator wrote above it, and the address the reader had unsubscribed was mailed
    again while `digest status` said "ana/email … paused"."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    with web.web() as http:
        done = http.post(unsubscribe_link(mail), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana" in done.text
    config = web.root / "digest.toml"
    old = '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n'
    home = '[[subscribers.channels]]\nkind = "email"\nto = "Ana.Home@example.net"\n\n'
    moved = old.replace("ana@", "ANA@")  # the same address, however it is written
    config.write_text(config.read_text(encoding="utf-8").replace(old, home + moved), "utf-8")
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana/email-2: email paused by the reader since 20" in out
    assert "(to ana@example.org)" in out and "ana/email:" not in out
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    code, out, _ = web.digest(capsys, "run", "--now", TUESDAY)
    assert code == 0 and "sent ana/email:" in out and "ana/email-2" not in out.split("paused")[0]
    assert mailed(web, "ana@example.org") == 1  # Monday's, before the unsubscribe
    assert mailed(web, "ana.home@example.net") == 1  # never unsubscribed: mailed
    with web.web() as http:  # the page of the old link says what is in force
        asked = http.get(unsubscribe_link(mail))
        # A link naming ana alone lists her channels ("on email-2; still mailed: email."); one
        # saying its mail's address, the channel that goes there alone: stopped, either way.
        shown = asked.text
        partly = "on email-2; still mailed: email." in shown
        assert "stopped since" in shown and (partly or "</button>" not in shown), shown[-600:]
    code, out, _ = web.digest(capsys, "resume", "ana")
    assert code == 0 and "email resumed" in out
    fresh = [("w1", "Graph transformers for molecules", "Graph transformers on molecular graphs.")]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    assert web.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")[0] == 0
    assert mailed(web, "ana@example.org") == 2 and mailed(web, "ana.home@example.net") == 2


def test_an_older_mails_links_after_a_rename_stop_its_address_and_never_say_nothing_is_sent(
    web: Project, capsys
) -> None:
    """Renamed (the same `to`), the old name's unsubscribe link said "No digest goes to this
    reader any more" (410) while the address kept getting the digest under the new name; its
    👍/👎 said "Its reader is no longer subscribed."."""
    _, ups = first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    config = web.root / "digest.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana-lab"'), "utf-8"
    )
    with web.web() as http:
        vote = http.post(ups[0])
        assert vote.status_code == 410 and "earlier subscription" in vote.text
        assert "no longer subscribed" not in vote.text and "nothing was recorded" in vote.text
        asked = http.get(unsubscribe_link(mail))
        assert (
            asked.status_code == 200 and "e-mail digests for <strong>ana-lab</strong>" in asked.text
        )
        done = http.post(unsubscribe_link(mail), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana-lab" in done.text
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana-lab/email: email paused by the reader since 20" in out
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    assert mailed(web, "ana@example.org") == 1 and mailed(web, "ben@example.org") == 2
    assert ratings(web, capsys) == []


def test_an_old_names_unsubscribe_never_stops_a_mail_that_also_goes_to_another_reader(
    web: Project, capsys
) -> None:
    """A link for one reader never acts on another's address: the old name's mail went to one
    address, and the channel that goes there now, renamed, goes to a colleague too (web17 F3).
    Its reader's own channel, an address added to it, stops whole (ops24 F1: the test of the
    address added); a renamed one shared with another reader is not its alone to stop."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    config = web.root / "digest.toml"
    text = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "lab"')
    shared = 'to = ["ana@example.org", "bo@example.org"]'
    config.write_text(text.replace('to = "ana@example.org"', shared, 1), "utf-8")
    before = f"/u/{Signer(SECRET).sign('u', 'ana', 0)}"  # as the older release made it
    token = f"/u/{Signer(SECRET).sign('u', 'zoe', 0)}"  # a name never mailed here
    with web.web() as http:
        for url in (unsubscribe_link(mail), before, token):
            done = http.post(url, content=b"List-Unsubscribe=One-Click")
            assert done.status_code == 410 and "nothing was changed" in done.text
            assert "No digest goes to this reader" not in done.text
    assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]


NEWCOMER = (
    '\n[[subscribers]]\nname = "ana"\ninterests = "graph neural networks for molecules"\n'
    '[[subscribers.channels]]\nkind = "email"\nto = "ana2@example.org"\n'
)


def reuse_ana(p: Project, capsys: Any, in_one_edit: bool = False) -> None:
    """ana renamed ana1 (the same address), then the name given to a newcomer at ana2@: a run
    later, or in the same edit."""
    config = p.root / "digest.toml"
    renamed = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"')
    config.write_text(renamed + (NEWCOMER if in_one_edit else ""), "utf-8")
    papers_file(p.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert p.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    if not in_one_edit:
        config.write_text(renamed + NEWCOMER, "utf-8")
        fresh = [("w1", "Graph transformers for molecules", "Graph transformers on graphs.")]
        papers_file(p.root / "feed" / "wednesday.jsonl", fresh)
        assert p.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")[0] == 0
    assert mailed(p, "ana2@example.org") == 1


@pytest.mark.parametrize("in_one_edit", [False, True])
def test_an_older_link_of_a_name_reused_stops_the_renamed_reader_never_the_newcomer(
    web: Project, capsys, in_one_edit: bool
) -> None:
    """ops22 F1: the link named the subscriber alone, and the name in the config again stopped
    the newcomer's mail (ana2@, which never got that link) while ana1 at ana@, who clicked, was
    mailed on. Now a link says the addresses its mail went to (a keyed digest), and a link of
    before follows the renamed reader at the old addresses."""
    signer = Signer(SECRET)
    first_links(web, capsys)
    reuse_ana(web, capsys, in_one_edit)
    old = f"/u/{signer.sign('u', 'ana', 0)}"  # as the older release made it
    to_ana = f"/u/{signer.sign('u', 'ana', signer.addresses(['ana@example.org']), 0)}"
    to_ana2 = f"/u/{signer.sign('u', 'ana', signer.addresses(['ANA2@example.org']), 0)}"
    with web.web() as http:
        for url in (old, to_ana):
            asked = http.get(url)
            assert "e-mail digests for <strong>ana1</strong>" in asked.text, asked.text[-500:]
        done = http.post(old, content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana1." in done.text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert "ana1/email: email paused by the reader" in out and "(to ana@example.org)" in out
    assert "ana/email" not in out
    with web.web() as http:  # the newcomer's own link stops the newcomer alone
        assert "for <strong>ana</strong>" in http.get(to_ana2).text
        assert "go to ana." in http.post(to_ana2, content=b"List-Unsubscribe=One-Click").text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert "ana/email: email paused" in out and "(to ana2@example.org)" in out
    assert "ben" not in out.split("paused by their readers")[1].split("deliveries")[0]


def test_a_link_of_an_address_the_name_left_stops_nothing_elsewhere(web: Project, capsys):
    """The same reader's `to` changed, or the name deleted and given later to another address
    with no heir: a link that says the old address stops no mail that goes elsewhere."""
    signer = Signer(SECRET)
    first_links(web, capsys)
    config = web.root / "digest.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('to = "ana@example.org"', 'to = "ana3@example.org"'), "utf-8")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    to_ana = f"/u/{signer.sign('u', 'ana', signer.addresses(['ana@example.org']), 0)}"
    with web.web() as http:
        done = http.post(to_ana, content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 410 and "nothing was changed" in done.text
        old = http.post(f"/u/{signer.sign('u', 'ana', 0)}", content=b"")  # moved: as before
        assert old.status_code == 200 and "No more e-mail digests go to ana." in old.text
    assert "(to ana3@example.org)" in web.digest(capsys, "status", "--now", TUESDAY)[1]


ROTATED = "rotated-secret-9876543210fedcba"


def test_the_archive_keeps_a_working_unsubscribe_link_and_remakes_a_dead_one_with_addresses(
    web: Project, capsys
) -> None:
    """A digest's page: its mailed unsubscribe link says where that mail went, and stays while
    it works; after a rotation it is made again for the addresses mailed now."""
    import re

    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    key = Signer(SECRET).archive_key("ana")
    config = web.root / "digest.toml"

    def unsubscribe_on_page(http: httpx.Client, key: str) -> str:
        (day,) = re.findall(r'href="(d/[^"]+)"', http.get(f"/a/{key}/").text)
        return re.findall(r'href="([^"]*/u/[^"]+)"', http.get(f"/a/{key}/{day}").text)[0]

    with web.web() as http:
        assert unsubscribe_on_page(http, key) == unsubscribe_link(mail)
    config.write_text(config.read_text(encoding="utf-8").replace(SECRET, ROTATED), "utf-8")
    rotated = Signer(ROTATED)
    with web.web() as http:
        remade = unsubscribe_on_page(http, rotated.archive_key("ana")).rsplit("/u/", 1)[1]
    assert rotated.check(remade, "u", time.time()) == [
        "ana", rotated.addresses(["ana@example.org"])
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("monday", "tuesday", "name"),
    [
        ('"ana@example.org"', '["ana@example.org", "bo@example.org"]', "ana"),
        ('"ana@example.org"', '["Bo@example.org", "ANA@example.org"]', "ana"),  # above, any case
        (
            '["ana@example.org", "bo@example.org"]',
            '["bo@example.org", "cy@x.org", "ana@example.org"]',
            "ana",
        ),
    ],
)
def test_an_older_mails_link_after_an_address_was_added_to_its_channel_stops_the_channel(
    web: Project, capsys, monday: str, tuesday: str, name: str
) -> None:
    """ops24 F1: a co-recipient added to the reader's `to` (no rename), and the Monday mail's
    one-click answered 410 "an earlier subscription ('ana')", the reader mailed on: only a
    channel going to nothing but the mail's addresses was stopped. It stops the channel whole,
    the added address with it (renamed in the same edit, the channel is the heir's, shared with
    another reader: not the link's alone to stop, web17 F3)."""
    config = web.root / "digest.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('to = "ana@example.org"', f"to = {monday}"), "utf-8")
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    tuesday_text = text.replace('to = "ana@example.org"', f"to = {tuesday}")
    config.write_text(tuesday_text.replace('name = "ana"', f'name = "{name}"'), "utf-8")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    with web.web() as http:
        asked = http.get(unsubscribe_link(mail))
        assert asked.status_code == 200 and f"for <strong>{name}</strong>" in asked.text
        assert "addresses in one mail: this stops them for all" in asked.text
        done = http.post(unsubscribe_link(mail), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and f"No more e-mail digests go to {name}." in done.text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert f"{name}/email: email paused by the reader" in out and "bo@example.org" in out, out
    before = {a: mailed(web, a) for a in ("ana@example.org", "bo@example.org", "ben@example.org")}
    images = "Cascaded diffusion models generate images; deep image generation at scale."
    fresh = [
        ("w1", "Graph transformers for molecules", "Graph transformers on graphs."),
        ("w2", "Cascaded diffusion for image generation", images),
    ]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    code, out, _ = web.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")
    assert code == 0
    after = {a: mailed(web, a) for a in before}
    assert "sent ben/email" in out and f"sent {name}/email" not in out, out
    assert after["ana@example.org"] == before["ana@example.org"]  # none after the click
    assert after["bo@example.org"] == before["bo@example.org"]  # the channel stopped whole
    assert after["ben@example.org"] == before["ben@example.org"] + 1  # another reader's goes on


def test_an_older_mails_link_after_the_address_changed_says_the_mail_goes_elsewhere(
    web: Project, capsys
) -> None:
    """ops24 F1: ana, never renamed, her `to` moved to ana3@: the Monday mail's link stops
    nothing (it never reached ana3@), and its page no longer calls ana an earlier subscription."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    config = web.root / "digest.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('to = "ana@example.org"', 'to = "ana3@example.org"'), "utf-8")
    with web.web() as http:
        done = http.post(unsubscribe_link(mail), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 410 and "nothing was changed" in done.text
        assert "earlier subscription" not in done.text and "no longer go to" in done.text
    assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]


def test_the_page_after_a_one_click_names_the_channel_stopped_and_those_still_mailed(
    web: Project, capsys
) -> None:
    """ops24 F3: ana's second e-mail channel added since the Monday mail; its one-click stops
    the channel of the address it went to, and the page had said "No more e-mail digests go to
    ana" while email-2 was mailed on."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    config = web.root / "digest.toml"
    old = '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n'
    home = '\n[[subscribers.channels]]\nkind = "email"\nto = "ana.home@example.net"\n'
    config.write_text(config.read_text(encoding="utf-8").replace(old, old + home), "utf-8")
    with web.web() as http:
        done = http.post(unsubscribe_link(mail), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200, done.text
        assert "No more e-mail digests go to ana on email; still mailed: email-2." in done.text
        assert "go to ana." not in done.text
    out = web.digest(capsys, "status", "--now", TUESDAY)[1]
    assert "ana/email: email paused" in out and "ana/email-2" not in out
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
    assert mailed(web, "ana@example.org") == 1 and mailed(web, "ana.home@example.net") == 1

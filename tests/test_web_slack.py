"""Slack's button clicks at {base_url}/slack/actions: a block_actions payload signed with the app's
signing secret (v0, HMAC-SHA256 over `v0:{timestamp}:{body}`) is answered at once and its vote
recorded; a changed byte, another secret or a stale timestamp is refused and records nothing. A
click is written before the answer when the database is quick, else kept and written when it
is back; a replay records nothing on any web replica."""

from __future__ import annotations

import hashlib
import hmac
import json
import queue
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, urlencode

import pytest
from channel_servers import free_port
from support_postgres import Cluster, Cuttable
from web_project import MONDAY, SECRET, SIGNING, Held, Project, project

from digest.state import engine
from digest.web import slack
from digest.web.spool import Spool
from digest.web.tokens import Signer


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def clicked(
    p: Project, capsys: Any, vote: str = "up", response_url: str = "http://127.0.0.1:9/not-slack"
) -> bytes:
    """The form body Slack posts when ana clicks the first paper's button."""
    assert p.digest(capsys, "run", "--now", MONDAY)[0] == 0
    (payload,) = p.slack.accepted
    actions = [b for b in payload["blocks"] if b["type"] == "actions"]
    assert len(actions) == 2  # one row of buttons per paper
    button = next(e for e in actions[0]["elements"] if e["action_id"].startswith(f"digest-{vote}"))
    action = {**button, "block_id": actions[0]["block_id"], "action_ts": "1764493200.000100"}
    body = {
        "type": "block_actions",
        "user": {"id": "U123", "username": "ana"},
        "team": {"id": "T1"},
        "actions": [action],
        "response_url": response_url,
        "trigger_id": "1.2.3",
    }
    return urlencode({"payload": json.dumps(body)}).encode()


def signature(body: bytes, stamp: int, secret: str = SIGNING) -> dict[str, str]:
    mac = hmac.new(secret.encode(), f"v0:{stamp}:".encode() + body, hashlib.sha256)
    return {
        "X-Slack-Request-Timestamp": str(stamp),
        "X-Slack-Signature": f"v0={mac.hexdigest()}",
        "Content-Type": "application/x-www-form-urlencoded",
    }


def ratings(p: Project, capsys: Any) -> list[dict[str, str]]:
    return list(json.loads(p.digest(capsys, "ratings", "--format", "json")[1]))


def test_a_signed_click_is_recorded_before_slack_gets_its_answer(web: Project, capsys) -> None:
    body = clicked(web, capsys)
    with web.web() as http:
        started = time.monotonic()
        answer = http.post(
            "/slack/actions", content=body, headers=signature(body, int(time.time()))
        )
        took = time.monotonic() - started
        assert answer.status_code == 200 and took < 3.0  # Slack gives up after 3 s
        (rated,) = ratings(web, capsys)  # in the state database already: nothing to lose
    assert (rated["subscriber"], rated["vote"], rated["via"]) == ("ana", "up", "slack")


def test_a_tampered_body_another_secret_or_a_stale_timestamp_is_refused(web: Project, capsys):
    body = clicked(web, capsys)
    tampered = body.replace(b"digest-up", b"digest-dn")
    with web.web() as http:
        # Signed once the server is up, and well past the 5 minutes either way: a busy machine
        # may take seconds to start it.
        now = int(time.time())
        attempts = [
            (tampered, signature(body, now)),  # the body changed after signing
            (body, signature(body, now, "another-signing-secret")),
            (body, signature(body, now - 360)),  # a replay from more than 5 minutes ago
            (body, signature(body, now + 360)),
            (body, {**signature(body, now), "X-Slack-Signature": "v1=00"}),
            (body, {"Content-Type": "application/x-www-form-urlencoded"}),
            # A digit int() cannot read ("²".isdigit() holds): refused, never a 500.
            (body, {**signature(body, now), "X-Slack-Request-Timestamp": b"\xb2"}),
            # Nor one a float overflows on (309 digits), or int() refuses (4,301).
            (body, {**signature(body, now), "X-Slack-Request-Timestamp": "9" * 309}),
            (body, {**signature(body, now), "X-Slack-Request-Timestamp": "9" * 4301}),
        ]
        for content, headers in attempts:
            assert http.post("/slack/actions", content=content, headers=headers).status_code == 401
        time.sleep(0.3)
    assert ratings(web, capsys) == []


def test_a_signed_payload_with_a_forged_rating_link_records_nothing(web: Project, capsys):
    body = clicked(web, capsys)
    forged = body.replace(b"%2Fr%2F", b"%2Fr%2FX")  # the button's own signed link, damaged
    assert forged != body
    with web.web() as http:
        answer = http.post(
            "/slack/actions", content=forged, headers=signature(forged, int(time.time()))
        )
        assert answer.status_code == 200
        time.sleep(0.3)
    assert ratings(web, capsys) == []


def test_a_signed_payload_carrying_an_undo_link_records_nothing(web: Project, capsys) -> None:
    # The web page's undo form has a vote token too; Slack's buttons never carry one.
    payload = json.loads(parse_qs(clicked(web, capsys).decode())["payload"][0])
    (action,) = payload["actions"]
    base, token = action["value"].rsplit("/", 1)
    signer = Signer(SECRET)
    ana, paper, vote = signer.check(token, "v", time.time()) or [None] * 3
    assert (ana, vote) == ("ana", "up")
    action["value"] = f"{base}/{signer.sign('v', ana, paper, 'none', int(time.time()) + 3600)}"
    undo = urlencode({"payload": json.dumps(payload)}).encode()
    with web.web() as http:
        answer = http.post(
            "/slack/actions", content=undo, headers=signature(undo, int(time.time()))
        )
        assert answer.status_code == 200
        time.sleep(0.3)
    assert ratings(web, capsys) == []


def test_a_signed_payload_of_the_wrong_shapes_is_a_400_with_the_usual_headers(web: Project, capsys):
    clicked(web, capsys)
    shapes = [{"actions": 5}, {"actions": ["x"]}, {"actions": [{"value": 5}]},
              {"actions": [], "response_url": 5}, {"actions": {"value": "/r/x"}}]  # fmt: skip
    bodies = [urlencode({"payload": json.dumps({"type": "block_actions", **s})}) for s in shapes]
    bodies += [urlencode({"payload": "[]"}), urlencode({"payload": "{"}), "no payload"]
    with web.web() as http:
        for text in bodies:
            body = text.encode()
            answer = http.post(
                "/slack/actions", content=body, headers=signature(body, int(time.time()))
            )
            assert answer.status_code == 400, text
            assert "default-src 'none'" in answer.headers["content-security-policy"]
            assert answer.headers["cache-control"] == "no-store"
            assert answer.headers["x-frame-options"] == "DENY"
        time.sleep(0.3)
    assert ratings(web, capsys) == []


class Responses:
    """A stand-in for Slack's response_url on 127.0.0.1: keeps what is posted to it."""

    def __init__(self) -> None:
        got = self.got = queue.Queue()

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                got.put(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/actions/T1/1/abc"


def test_the_clicker_alone_is_told_in_slack_what_was_recorded(web: Project, capsys, monkeypatch):
    responses = Responses()
    monkeypatch.setattr(slack, "RESPONSE_HOSTS", {"127.0.0.1"})  # the stand-in plays Slack
    body = clicked(web, capsys, "down", responses.url)
    try:
        with web.web() as http:
            headers = signature(body, int(time.time()))
            assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
            said = responses.got.get(timeout=10)
    finally:
        responses.server.shutdown()
    assert said["response_type"] == "ephemeral" and said["replace_original"] is False
    assert said["text"].startswith("Recorded 👎 less like this: ")


def test_a_response_url_that_is_not_slacks_is_never_called() -> None:
    assert slack.response_allowed("https://hooks.slack.com/actions/T1/1/abc")
    for url in ("https://evil.example/hooks.slack.com", "http://hooks.slack.com/x",
                "https://hooks.slack.com.evil.example/x", "file:///etc/passwd", ""):  # fmt: skip
        assert not slack.response_allowed(url), url


def test_the_confirmation_shows_a_title_as_text_never_as_markup() -> None:
    title = "<!channel> <http://evil.example|click> *bold* & `code` " + "long " * 200
    said = slack.confirmation([(title, "up")])
    text = str(said["text"])
    assert "<" not in text and ">" not in text and "&lt;!channel&gt;" in text
    assert "&lt;http://evil.example|click&gt;" in text and "&amp;" in text
    (block,) = said["blocks"]  # type: ignore[attr-defined]
    assert block["text"]["type"] == "plain_text"  # *bold* and `code` stay as typed
    assert block["text"]["text"].startswith("Recorded 👍 more like this: <!channel> <http://")
    assert len(block["text"]["text"]) < 3000


def test_a_retried_or_replayed_click_records_nothing_twice(web: Project, capsys, monkeypatch):
    responses = Responses()
    monkeypatch.setattr(slack, "RESPONSE_HOSTS", {"127.0.0.1"})
    up = clicked(web, capsys, "up", responses.url)
    (payload,) = web.slack.accepted
    (buttons, _) = [b["elements"] for b in payload["blocks"] if b["type"] == "actions"]
    values = {e["action_id"].split("-")[1]: quote(e["value"], safe="") for e in buttons}
    down = up.replace(values["up"].encode(), values["down"].encode())
    assert down != up
    try:
        with web.web() as http:
            now = int(time.time())
            signed_up = signature(up, now)
            assert http.post("/slack/actions", content=up, headers=signed_up).status_code == 200
            assert responses.got.get(timeout=10)["text"].startswith("Recorded 👍")
            later = signature(down, now + 1)  # the reader changes their mind
            assert http.post("/slack/actions", content=down, headers=later).status_code == 200
            assert responses.got.get(timeout=10)["text"].startswith("Recorded 👎")
            retry = {**signed_up, "X-Slack-Retry-Num": "1", "X-Slack-Retry-Reason": "http_timeout"}
            assert http.post("/slack/actions", content=up, headers=retry).status_code == 200
            assert http.post("/slack/actions", content=up, headers=signed_up).status_code == 401
            time.sleep(0.5)
            assert responses.got.empty()  # no third confirmation
    finally:
        responses.server.shutdown()
    (rated,) = ratings(web, capsys)
    assert (rated["vote"], rated["via"]) == ("down", "slack")  # the later click stands


def test_a_click_on_a_locked_database_is_answered_in_time_and_recorded_after(
    web: Project, capsys
) -> None:
    body = clicked(web, capsys)
    with web.web() as http:
        held = Held(web.state)  # another process holds the write lock longer than Slack waits
        try:
            answer = http.post(
                "/slack/actions", content=body, headers=signature(body, int(time.time()))
            )
            assert answer.status_code == 200  # answered while the write still waits
            assert ratings(web, capsys) == []
            # ... and on disk before the answer: a face killed now loses nothing
            (kept,) = Spool(Path(f"{web.state}.clicks")).load()
            assert kept["votes"][0][::2] == ["ana", "up"]
        finally:
            held.release()
        assert wait_for_ratings(web, capsys) == [("ana", "up", "slack")]
        deadline = time.monotonic() + 10
        while Spool(Path(f"{web.state}.clicks")).load() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert Spool(Path(f"{web.state}.clicks")).load() == []  # written: done there too


def test_a_click_whose_write_fails_after_the_answer_is_recorded_when_the_database_is_back(
    tmp_path: Path, capsys, postgres_cluster: Cluster
) -> None:
    direct = postgres_cluster.create_database()
    proxy = Cuttable(postgres_cluster.port)  # the web face's way to the server, cut below
    with project(tmp_path, state=proxy.url(direct)) as web:
        body = clicked(web, capsys)
        headers = signature(body, int(time.time()))
        with web.web() as http:
            held = Held(direct)
            try:
                assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
                held.wait_for_a_waiter()  # the write, after the answer, waits on the lock
                proxy.cut()  # and the server goes away under it
                logged = wait_for_log(capsys, "a Slack click is kept to be recorded later")
            finally:
                held.release()
            proxy.mend()  # the server is back
            assert wait_for_ratings(web, capsys) == [("ana", "up", "slack")]
            # The request was taken when it was written: the same one again records nothing.
            assert http.post("/slack/actions", content=body, headers=headers).status_code == 401
    assert SIGNING not in logged and "not-slack" not in logged  # nor the payload's response_url


@pytest.mark.parametrize("engine", ["sqlite", "postgres"])
def test_a_replay_to_another_web_replica_records_nothing(
    tmp_path: Path, capsys, monkeypatch, request, engine: str
) -> None:
    url = request.getfixturevalue("postgres_url") if engine == "postgres" else ""
    responses = Responses()
    monkeypatch.setattr(slack, "RESPONSE_HOSTS", {"127.0.0.1"})
    try:
        with project(tmp_path, state=url) as web:
            body = clicked(web, capsys, "up", responses.url)
            headers = signature(body, int(time.time()))
            with web.web() as one, web.web(port=free_port()) as two:
                assert one.post("/slack/actions", content=body, headers=headers).status_code == 200
                assert responses.got.get(timeout=10)["text"].startswith("Recorded 👍")
                assert two.post("/slack/actions", content=body, headers=headers).status_code == 401
                retry = {**headers, "X-Slack-Retry-Num": "1"}  # Slack's own retry: done, quietly
                assert two.post("/slack/actions", content=body, headers=retry).status_code == 200
                time.sleep(0.5)
                assert responses.got.empty()  # no second confirmation
            assert [r["via"] for r in ratings(web, capsys)] == ["slack"]
    finally:
        responses.server.shutdown()


def wait_for_ratings(p: Project, capsys: Any, seconds: float = 60) -> list[tuple[str, str, str]]:
    """The ratings once there are some (or after `seconds`): (subscriber, vote, via)."""
    deadline = time.monotonic() + seconds
    while not (found := ratings(p, capsys)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return [(r["subscriber"], r["vote"], r["via"]) for r in found]


def wait_for_log(capsys: Any, line: str, seconds: float = 30) -> str:
    """What was logged until `line` appeared (or `seconds` passed)."""
    seen = ""
    deadline = time.monotonic() + seconds
    while line not in seen and time.monotonic() < deadline:
        seen += capsys.readouterr().err
        time.sleep(0.05)
    assert line in seen, seen
    return seen


def test_a_click_kept_when_the_face_stops_is_recorded_by_the_next_face(
    web: Project, capsys, monkeypatch
) -> None:
    monkeypatch.setattr(engine, "BUSY_TIMEOUT", 1.0)  # SQLite gives up on a held lock sooner
    body = clicked(web, capsys)
    spool = Path(f"{web.state}.clicks")
    held = Held(web.state)  # the lock outlasts the first face
    try:
        with web.web() as http:
            headers = signature(body, int(time.time()))
            assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
            wait_for_log(capsys, "a Slack click is kept to be recorded later")
        assert f"left waiting in {spool}: a Slack click's votes" in wait_for_log(capsys, f"{spool}")
    finally:
        held.release()
    assert ratings(web, capsys) == [] and SIGNING not in spool.read_text(encoding="utf-8")
    with web.web():  # the next face on this state reads the click back and writes it
        assert wait_for_ratings(web, capsys) == [("ana", "up", "slack")]
    assert spool.read_text(encoding="utf-8") == ""  # nothing waits any more


def test_a_payload_nested_past_the_stack_is_refused_not_a_500() -> None:
    from urllib.parse import quote

    from digest.web.slack import votes

    deep = "[" * 100_000 + "]" * 100_000
    assert votes(f"payload={quote(deep)}".encode()) is None

"""Slack's button clicks at {base_url}/slack/actions: a block_actions payload signed with the app's
signing secret (v0, HMAC-SHA256 over `v0:{timestamp}:{body}`) is answered at once and its vote
recorded; a changed byte, another secret or a stale timestamp is refused and records nothing."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from web_project import MONDAY, SIGNING, Project, project


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def clicked(p: Project, capsys: Any, vote: str = "up") -> bytes:
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
        "response_url": "https://hooks.slack.com/actions/T1/1/abc",
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


def test_a_signed_click_is_answered_at_once_and_recorded(web: Project, capsys) -> None:
    body = clicked(web, capsys)
    with web.web() as http:
        started = time.monotonic()
        answer = http.post(
            "/slack/actions", content=body, headers=signature(body, int(time.time()))
        )
        took = time.monotonic() - started
        assert answer.status_code == 200 and took < 3.0  # Slack gives up after 3 s
        deadline = time.monotonic() + 5
        while not ratings(web, capsys) and time.monotonic() < deadline:
            time.sleep(0.05)  # recorded just after the answer went out
    (rated,) = ratings(web, capsys)
    assert (rated["subscriber"], rated["vote"], rated["via"]) == ("ana", "up", "slack")


def test_a_tampered_body_another_secret_or_a_stale_timestamp_is_refused(web: Project, capsys):
    body = clicked(web, capsys)
    now = int(time.time())
    tampered = body.replace(b"digest-up", b"digest-dn")
    attempts = [
        (tampered, signature(body, now)),  # the body changed after signing
        (body, signature(body, now, "another-signing-secret")),
        (body, signature(body, now - 301)),  # a replay from more than 5 minutes ago
        (body, signature(body, now + 301)),
        (body, {**signature(body, now), "X-Slack-Signature": "v1=00"}),
        (body, {"Content-Type": "application/x-www-form-urlencoded"}),
    ]
    with web.web() as http:
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

"""End to end, as an operator runs it: `digest run` in a subprocess delivering to real servers on
127.0.0.1 (Synapse, aiosmtpd, the Slack stand-in). Killed mid-delivery, then run again: every
digest arrives exactly once on Matrix and email, each Slack message at most once. Servers down,
then up: nothing lost. And no secret ever shows in output, logs or the state database."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channel_servers import (
    Hookshot,
    LoopbackSMTP,
    Mailbox,
    SlackWebhook,
    StallingProxy,
    free_port,
    password_check,
    self_signed,
)
from homeserver import Homeserver, shared
from sample_digests import INTERESTS, papers_jsonl

NOW = "2026-11-30T09:00:00+00:00"
LATER = "2026-11-30T11:00:00+00:00"
FROM = "Paper digest <digest@example.org>"


@pytest.fixture(scope="session")
def homeserver() -> Homeserver:
    return shared(relaxed=True)


def digest(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Any:
    """Run the real command in a subprocess; return the finished process (text output)."""
    return subprocess.run(
        [sys.executable, "-m", "digest", *args, "--config", str(tmp_path / "digest.toml")],
        cwd=tmp_path,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=120,
    )


def write_config(tmp_path: Path, smtp_port: int, channels: str, smtp_extra: str = "") -> None:
    (tmp_path / "papers.jsonl").write_text(papers_jsonl(120), encoding="utf-8")
    (tmp_path / "digest.toml").write_text(
        f"""
[state]
path = "state/digest.db"

[[sources]]
kind = "files"
path = "papers.jsonl"

[smtp]
host = "127.0.0.1"
port = {smtp_port}
from = "{FROM}"
{smtp_extra or 'security = "none"'}

[defaults]
schedule = "0 8 * * *"
timezone = "UTC"
min_score = 0.01

{channels}
""",
        encoding="utf-8",
    )


def channels(matrix_url: str, room: str) -> str:
    return f"""
[[subscribers]]
name = "ana"
interests = "{INTERESTS}"
top_k = 120

[[subscribers.channels]]
kind = "matrix"
homeserver = "{matrix_url}"
room = "{room}"
token = "${{MATRIX_TOKEN}}"

[[subscribers.channels]]
kind = "slack"
webhook = "${{SLACK_WEBHOOK}}"

[[subscribers.channels]]
kind = "email"
to = "ana@example.org"

[[subscribers]]
name = "ben"
interests = "partial participation and byzantine robustness"
top_k = 5

[[subscribers.channels]]
kind = "email"
to = ["ben@example.org", "Ben at home <ben@home.example>"]
"""


@pytest.fixture
def servers() -> Iterator[tuple[SlackWebhook, Mailbox, LoopbackSMTP]]:
    slack, mailbox = SlackWebhook(rate=100, burst=100), Mailbox()
    smtp = LoopbackSMTP(mailbox)
    smtp.start()
    yield slack, mailbox, smtp
    slack.release.set()
    mailbox.release.set()
    slack.stop()
    smtp.stop()


def headings(bodies: list[str]) -> Counter[str]:
    return Counter(body.split("\n", 1)[0] for body in bodies)


def parts(count: int) -> Counter[str]:
    """Each part of ana's 120-paper digest once (7 Slack messages: 10,000 characters of text
    each at most, two blocks a paper)."""
    return Counter(f"Paper digest for ana — 2026-11-30 ({n}/{count})" for n in range(1, count + 1))


def matrix_parts(events: list[dict[str, Any]]) -> tuple[Counter[str], int]:
    """The events' headings, and how many parts the first one says there are (64 KiB each)."""
    found = headings([e["content"]["body"] for e in events])
    count = int(min(found).rsplit("/", 1)[1].rstrip(")")) if found else 0
    return found, count


def test_a_run_killed_mid_delivery_then_run_again_delivers_everything_once(
    tmp_path: Path, homeserver: Homeserver, servers: Any
) -> None:
    slack, mailbox, smtp = servers
    token = homeserver.register("crashbot")
    room = homeserver.create_room(token)
    proxy = StallingProxy(homeserver.url)
    write_config(tmp_path, smtp.port, channels(proxy.url, room))
    env = {"MATRIX_TOKEN": token, "SLACK_WEBHOOK": slack.url()}
    # Each server takes one message, then holds the next: the run hangs mid-delivery.
    proxy.stall_after = slack.stall_after = mailbox.stall_after = 1
    run = subprocess.Popen(
        [sys.executable, "-m", "digest", "run", "--config", "digest.toml", "--now", NOW],
        cwd=tmp_path,
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for server in (proxy, slack, mailbox):
            assert server.stalled.wait(60), f"{type(server).__name__} never got its second message"
    finally:
        run.kill()  # SIGKILL: no cleanup, no last words
        run.wait()
    for server in (proxy, slack, mailbox):
        server.stall_after = None
        server.release.set()
    # Where the kill left things: Synapse took Matrix part 2 but its answer never came back;
    # Slack took part 2 (claimed before posting); the second mail never got its 250.
    assert len(homeserver.messages(token, room)) == 2
    assert len(slack.accepted) == 2 and len(mailbox.mails) == 1
    with sqlite3.connect(tmp_path / "state" / "digest.db") as db:
        rows = dict(db.execute("SELECT channel || ':' || status, parts_sent FROM outbox"))
    assert rows["matrix:pending"] == 1 and rows["slack:pending"] == 2
    try:
        again = digest(tmp_path, "run", "--now", NOW, env=env)
    finally:
        proxy.stop()
    assert again.returncode == 0, again.stdout + again.stderr
    found, count = matrix_parts(homeserver.messages(token, room))
    assert count >= 2 and found == parts(count)  # exactly once each
    slack_heads = [p["blocks"][0]["text"]["text"] for p in slack.accepted]
    assert Counter(slack_heads) == parts(7)  # at most once each; here none was lost
    mails = Counter(m.message["Subject"].split(":")[0] for m in mailbox.mails)
    assert mails == Counter(
        {"Paper digest for ana — 2026-11-30": 1, "Paper digest for ben — 2026-11-30": 1}
    )
    assert len({m.message["Message-ID"] for m in mailbox.mails}) == 2


def test_servers_down_then_up_lose_nothing(tmp_path: Path, homeserver: Homeserver) -> None:
    token = homeserver.register("patientbot")
    room = homeserver.create_room(token)
    ports = {name: free_port() for name in ("smtp", "slack", "matrix")}
    slack_url = (
        f"http://127.0.0.1:{ports['slack']}/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX"
    )
    write_config(tmp_path, ports["smtp"], channels(f"http://127.0.0.1:{ports['matrix']}", room))
    env = {"MATRIX_TOKEN": token, "SLACK_WEBHOOK": slack_url}
    down = digest(tmp_path, "run", "--now", NOW, env=env)
    assert down.returncode == 1
    assert "0 sent, 4 retrying" in down.stdout and "cannot reach" in down.stdout
    slack, mailbox = SlackWebhook(port=ports["slack"], rate=100, burst=100), Mailbox()
    slack.url()
    smtp = LoopbackSMTP(mailbox, port=ports["smtp"])
    smtp.start()
    proxy = StallingProxy(homeserver.url, port=ports["matrix"])
    try:
        early = digest(tmp_path, "run", "--now", NOW, env=env)
        up = digest(tmp_path, "run", "--now", LATER, env=env)
    finally:
        proxy.stop()
        slack.stop()
        smtp.stop()
    assert early.returncode == 1 and "0 sent, 0 retrying" in early.stdout  # the backoff holds
    assert up.returncode == 0, up.stdout + up.stderr
    assert "4 sent, 0 retrying, 0 dead now; 0 pending, 0 dead in all" in up.stdout
    found, count = matrix_parts(homeserver.messages(token, room))
    assert count >= 2 and found == parts(count)
    assert len(slack.accepted) == 7 and len(mailbox.mails) == 2


def test_a_dead_delivery_is_sent_by_digest_retry_once_fixed(tmp_path: Path, servers: Any) -> None:
    slack, mailbox, smtp = servers
    url = slack.url(state="channel_is_archived")
    write_config(
        tmp_path,
        smtp.port,
        f"""
[[subscribers]]
name = "ana"
interests = "{INTERESTS}"
[[subscribers.channels]]
kind = "slack"
webhook = "{url}"
""",
    )
    run = digest(tmp_path, "run", "--now", NOW)
    assert run.returncode == 1
    assert "dead ana/slack: slack answered 410 channel_is_archived: the channel is archived" in (
        run.stdout
    )
    still = digest(tmp_path, "retry", "--now", NOW)
    assert still.returncode == 1 and "1 dead delivery queued again; 0 sent" in still.stdout
    slack.hooks[url.split(str(slack.port), 1)[1]] = "ok"  # the operator unarchives the channel
    fixed = digest(tmp_path, "retry", "--now", NOW)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "1 sent" in fixed.stdout and len(slack.accepted) == 1
    assert digest(tmp_path, "run", "--now", NOW).returncode == 0  # nothing pending or dead


def test_no_secret_shows_in_output_logs_or_state(tmp_path: Path, homeserver: Homeserver) -> None:
    token = homeserver.register("secretbot")
    room = homeserver.create_room(token)
    cert, key = self_signed(tmp_path)
    import ssl

    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    password = "Tr0ub4dor&3-correct-horse"
    mailbox = Mailbox()
    smtp = LoopbackSMTP(
        mailbox,
        tls_context=context,
        require_starttls=True,
        authenticator=password_check("digest-mailer", password),
        auth_required=True,
    )
    smtp.start()
    slack, hookshot = SlackWebhook(rate=100, burst=100), Hookshot()
    good_hook = slack.url("q8RzT1vWx2Yz3Ab4Cd5Ef6Gh")
    archived_hook = slack.url("Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2", state="channel_is_archived")
    hook_url = hookshot.url("3f9c2a71-5b6d-4e8f-a0b1-c2d3e4f5a6b7")
    wrong_token = "syt_c2VjcmV0Ym90_WrOnGtOkEnWrOnGtOkEn_1a2b3c"
    secrets = [token, password, good_hook, archived_hook, hook_url, wrong_token]
    secrets += ["q8RzT1vWx2Yz3Ab4Cd5Ef6Gh", "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2", "3f9c2a71-5b6d-4e8f"]
    subscribers = f"""
[[subscribers]]
name = "ana"
interests = "{INTERESTS}"
[[subscribers.channels]]
kind = "matrix"
homeserver = "{homeserver.url}"
room = "{room}"
token = "${{MATRIX_TOKEN}}"
[[subscribers.channels]]
kind = "matrix"
homeserver = "{homeserver.url}"
room = "{room}"
token = "{wrong_token}"
[[subscribers.channels]]
kind = "slack"
webhook = "${{SLACK_GOOD}}"
[[subscribers.channels]]
kind = "slack"
webhook = "{archived_hook}"
[[subscribers.channels]]
kind = "matrix-hook"
url = "{hook_url}"
[[subscribers.channels]]
kind = "email"
to = "ana@example.org"
"""
    smtp_extra = (
        'security = "starttls"\nusername = "digest-mailer"\n'
        f'password = "${{SMTP_PASSWORD}}"\nca_file = "{cert}"'
    )
    write_config(tmp_path, smtp.port, subscribers, smtp_extra)
    env = {"MATRIX_TOKEN": token, "SLACK_GOOD": good_hook, "SMTP_PASSWORD": password}
    try:
        runs = [
            digest(tmp_path, "-vv", "run", "--now", NOW, env=env),
            digest(tmp_path, "-vv", "retry", "--now", NOW, env=env),
            digest(tmp_path, "-vv", "run", "--now", LATER, env=env),
            digest(tmp_path, "validate", env=env),
        ]
    finally:
        smtp.stop()
        slack.stop()
        hookshot.stop()
    # The secrets did their work: every good channel delivered.
    assert len(mailbox.mails) == 1 and mailbox.mails[0].login == "digest-mailer"
    assert len(slack.accepted) == 1 and len(hookshot.accepted) == 1
    assert len(homeserver.messages(token, room)) == 1
    assert "M_UNKNOWN_TOKEN" in runs[0].stdout and "channel_is_archived" in runs[0].stdout
    # A bad webhook in the file is refused without being shown.
    bad = tmp_path / "bad.toml"
    bad.write_text(
        (tmp_path / "digest.toml")
        .read_text()
        .replace("https", "http")
        .replace("${SLACK_GOOD}", "http://hooks.slack.com/services/T0/B0/q8RzT1vWx2Yz3Ab4Cd5Ef6Gh")
    )
    refused = subprocess.run(
        [sys.executable, "-m", "digest", "validate", "--config", str(bad)],
        cwd=tmp_path,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 2 and "webhook: must be https://" in refused.stderr
    seen = [r.stdout + r.stderr for r in [*runs, refused]]
    with sqlite3.connect(tmp_path / "state" / "digest.db") as db:
        seen += list(db.iterdump())
    seen += [p.read_bytes().decode("latin-1") for p in (tmp_path / "state").iterdir()]
    leaks = [s for s in secrets for text in seen if s in text]
    assert leaks == []

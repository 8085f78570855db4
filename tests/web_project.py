"""A project with [web] for the web face's tests: two readers over two topics, their digests by
e-mail to aiosmtpd on 127.0.0.1 and to files, and the web face itself running in a thread on a
free loopback port (uvicorn, as `digest serve` runs it); its state an SQLite file, or a PostgreSQL
database when a test gives its URL."""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from channel_servers import LoopbackSMTP, Mailbox, SlackWebhook, free_port

from digest import config
from digest.cli import main
from digest.web.server import Thread

MONDAY = "2026-11-30T09:00:00+00:00"
TUESDAY = "2026-12-01T09:00:00+00:00"
SECRET = "test-secret-0123456789abcdef"
SIGNING = "slack-signing-secret-for-tests"

GRAPHS = [
    ("g1", "Graph neural networks for molecule property prediction",
     "We train graph neural networks on molecular graphs to predict properties of molecules."),
    ("g2", "Message passing graph networks on molecular graphs",
     "A message passing graph neural network learns molecule properties from molecular graphs."),
    ("g3", "Equivariant graph networks for molecules",
     "Equivariant graph neural networks predict molecule energies from molecular graphs."),
]  # fmt: skip
IMAGES = [
    ("d1", "Diffusion models for image generation",
     "Deep diffusion models generate images by denoising; we study image generation quality."),
    ("d2", "Latent diffusion for fast image synthesis",
     "Latent diffusion models synthesize images quickly; deep image generation at scale."),
    ("d3", "Guided diffusion for text to image generation",
     "Classifier-free guided diffusion models generate images from text prompts."),
]  # fmt: skip


def papers_file(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    lines = [
        json.dumps(
            {"id": i, "title": t, "abstract": a, "authors": ["A. Author"], "categories": [],
             "published": "2026-11-29", "url": f"https://example.org/{i}"}
        )
        for i, t, a in rows
    ]  # fmt: skip
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@dataclass
class Project:
    root: Path
    port: int
    mailbox: Mailbox
    slack: SlackWebhook
    state: str

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def digest(self, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
        capsys.readouterr()
        code = main([args[0], "--config", str(self.root / "digest.toml"), *args[1:]])
        out, err = capsys.readouterr()
        return code, out, err

    def settings(self) -> Any:
        return config.load(self.root / "digest.toml")

    @contextmanager
    def web(self, port: int | None = None) -> Iterator[httpx.Client]:
        """The web face on self.port (or another: a second replica) over the project's state,
        and a client for it."""
        settings = self.settings()
        if port is not None:
            listen = {**settings.web, "listen": f"127.0.0.1:{port}"}
            settings = dataclasses.replace(settings, web=listen)
        face = Thread(settings, self.state)
        face.start()
        assert face.started(), "the web face did not start"
        try:
            base = f"http://127.0.0.1:{port or self.port}"
            with httpx.Client(base_url=base, timeout=10, trust_env=False) as http:
                yield http
        finally:
            face.stop()

    def mails(self, to: str) -> list[Any]:
        return [m.message for m in self.mailbox.mails if to in m.recipients]

    def html_of(self, mail: Any) -> str:
        return str(mail.get_body(("html",)).get_content())

    def links(self, html: str, label: str) -> list[str]:
        """The hrefs of the links whose text starts with `label` (e.g. "👍")."""
        found = re.findall(r'<a href="([^"]+)"[^>]*>\s*' + re.escape(label), html)
        return [h.replace("&amp;", "&") for h in found]


def write_config(
    root: Path, port: int, smtp_port: int, slack_url: str, web: bool = True, state: str = ""
) -> None:
    table = (
        f'[web]\nbase_url = "http://127.0.0.1:{port}"\nlisten = "127.0.0.1:{port}"\n'
        f'secret = "{SECRET}"\n\n'
        if web
        else ""
    )
    slack = (
        f'[[subscribers.channels]]\nkind = "slack"\nwebhook = "{slack_url}"\n'
        f'signing_secret = "{SIGNING}"\n\n'
        if web
        else ""
    )
    (root / "digest.toml").write_text(
        (f'[state]\nurl = "{state}"\n\n' if state else '[state]\npath = "state.db"\n\n')
        + f"{table}"
        f'[smtp]\nhost = "127.0.0.1"\nport = {smtp_port}\nsecurity = "none"\n'
        'from = "Digest <digest@example.org>"\n\n'
        '[[sources]]\nkind = "files"\npath = "feed"\n\n'
        '[defaults]\nschedule = "0 8 * * *"\ntimezone = "UTC"\ntop_k = 2\nmin_score = 0.0\n\n'
        '[[subscribers]]\nname = "ana"\n'
        'interests = "deep learning: graph neural networks, diffusion models, molecules, images"\n'
        '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n\n'
        f"{slack}"
        '[[subscribers]]\nname = "ben"\ninterests = "diffusion models for image generation"\n'
        '[[subscribers.channels]]\nkind = "email"\nto = "ben@example.org"\n',
        encoding="utf-8",
    )


@contextmanager
def project(root: Path, web: bool = True, state: str = "") -> Iterator[Project]:
    """The project in `root`; `state`: a PostgreSQL URL instead of the SQLite file."""
    (root / "feed").mkdir()
    papers_file(root / "feed" / "monday.jsonl", GRAPHS[:2] + IMAGES[:2])
    mailbox, slack = Mailbox(), SlackWebhook(rate=100, burst=100)
    smtp = LoopbackSMTP(mailbox)
    smtp.start()
    try:
        port = free_port()
        write_config(root, port, smtp.port, slack.url(), web, state)
        yield Project(root, port, mailbox, slack, state or str(root / "state.db"))
    finally:
        smtp.stop()
        slack.stop()


class Held:
    """A real lock on the state, held by another connection as a busy digest process would: the
    SQLite file's write lock (BEGIN IMMEDIATE), or PostgreSQL's exclusive lock on `ratings`."""

    def __init__(self, state: str) -> None:
        self.state = state
        if state.startswith("postgresql://"):
            import psycopg

            self.pg = psycopg.connect(state)
            self.pg.execute("LOCK TABLE ratings IN ACCESS EXCLUSIVE MODE")
        else:
            self.sqlite = sqlite3.connect(state, isolation_level=None)
            self.sqlite.execute("BEGIN IMMEDIATE")

    def wait_for_a_waiter(self) -> None:
        """Until a statement of the web face waits on this lock (PostgreSQL shows it; SQLite's
        busy wait shows nowhere, so the request is given a moment to reach it)."""
        if not self.state.startswith("postgresql://"):
            time.sleep(0.5)
            return
        import psycopg

        with psycopg.connect(self.state, autocommit=True) as look:
            for _ in range(200):
                waiting = look.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                    " AND datname = current_database()"
                ).fetchone()
                if waiting and waiting[0]:
                    return
                time.sleep(0.05)
        raise AssertionError("no statement waited on the lock")

    def release(self) -> None:
        if self.state.startswith("postgresql://"):
            self.pg.commit()
            self.pg.close()
        else:
            self.sqlite.execute("COMMIT")
            self.sqlite.close()

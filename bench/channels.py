"""Deliveries per second to each channel's local server (the test suite's servers, on 127.0.0.1),
and the outbox's delivery phase for many subscribers with email and Slack.

Run on demand (needs the test extra: aiosmtpd, Synapse):
    .venv/bin/python -m bench.channels [N]                  # each channel alone, N deliveries
    .venv/bin/python -m bench.channels --subscribers 1000   # the delivery phase, now and before

The second runs the phase twice in child processes, against aiosmtpd and the Slack stand-in in
processes of their own (as a real relay and Slack are elsewhere): first with the outbox and
channels of --baseline (a git ref: the code before connection reuse), then with this tree's.
Slack's own pace is kept (real sleeps; one message a second per webhook); a few long digests go
to Slack in two parts, so the closest two posts to one webhook show that pace.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from channel_servers import Hookshot, LoopbackSMTP, Mailbox, SlackWebhook  # noqa: E402
from sample_digests import delivery, message, paper  # noqa: E402

from digest.models import (  # noqa: E402
    ChannelConfig,
    Digest,
    Message,
    Profile,
    Scored,
    Settings,
    Subscriber,
)

NOW = datetime(2026, 11, 30, 8, tzinfo=UTC)
BASELINE = "3b4786a"  # the Layout commit: one SMTP connection and one HTTP client per message
LONG_EVERY = 100  # one subscriber in this many gets a 28-paper digest: two Slack posts


def rate(count: int, channel: Any, msg: Message, kind: str, options: dict[str, str]) -> float:
    start = time.perf_counter()
    for row in range(1, count + 1):
        channel.send(delivery(msg, kind, options, row))
    return count / (time.perf_counter() - start)


def each_channel(count: int) -> None:
    from homeserver import shared

    from digest.channels import CHANNELS

    msg = message(10)  # a ten-paper digest: about 5 KB of text and 14 KB of HTML
    mailbox, slack, hook = Mailbox(), SlackWebhook(rate=1e9, burst=1e9), Hookshot()
    smtp = LoopbackSMTP(mailbox)
    smtp.start()
    server = shared(relaxed=True)
    token = server.register("benchbot")
    room = server.create_room(token)
    mail = {"host": "127.0.0.1", "port": smtp.port, "from": "d <d@example.org>", "security": "none"}
    settings = Settings("bench", (), (), smtp=mail)
    targets = {
        "email": {"to": "ana@example.org"},
        "slack": {"webhook": slack.url()},
        "matrix": {"homeserver": server.url, "room": room, "token": token},
        "matrix-hook": {"url": hook.url()},
    }
    print(f"{count} deliveries of a 10-paper digest to each server, one after another:")
    try:
        for kind, options in targets.items():
            channel = CHANNELS[kind](ChannelConfig(kind, kind, options), settings)
            per_second = rate(count, channel, msg, kind, options)
            print(f"  {kind:<12} {per_second:7.1f} deliveries/s")
    finally:
        smtp.stop()
        slack.stop()
        hook.stop()


class _Arrivals:
    """What the servers took, by destination, with the monotonic time it arrived."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.times: dict[str, list[float]] = {}
        self.connections: set[object] = set()  # aiosmtpd's sessions, one per connection

    def add(self, destination: str, session: object = None) -> None:
        with self.lock:
            self.times.setdefault(destination, []).append(time.monotonic())
            if session is not None:
                self.connections.add(session)

    def clear(self) -> None:
        with self.lock:
            self.times.clear()
            self.connections.clear()


class _Mailbox(Mailbox):
    def __init__(self, arrivals: _Arrivals) -> None:
        super().__init__()
        self.arrivals = arrivals

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.arrivals.add("mail:" + ",".join(envelope.rcpt_tos), session)
        return "250 2.0.0 OK: queued"  # kept by no one: a thousand digests are a lot of memory


class _Slack(SlackWebhook):
    def __init__(self, arrivals: _Arrivals) -> None:
        super().__init__()  # Slack's documented pace: one a second per webhook, short bursts
        self.arrivals = arrivals

    def handle(
        self, method: str, path: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, str, dict[str, str]] | None:
        answer = super().handle(method, path, body, headers)
        if answer is not None and answer[0] == 200:
            self.arrivals.add("slack:" + path)
        self.accepted.clear()
        return answer


def phase(subscribers: int, smtp_port: int, slack_port: int, settings_json: str) -> None:
    """(In a child process.) Record a digest per subscriber for email and Slack, then time the
    outbox's delivery of all of them; prints one JSON line."""
    from digest import outbox
    from digest.state import Store

    mail = {"host": "127.0.0.1", "port": smtp_port, "from": "d <d@example.org>", "security": "none"}
    subs = tuple(
        Subscriber(
            f"s{n}",
            Profile("x"),
            (
                ChannelConfig("email", "email", {"to": f"s{n}@example.org"}),
                ChannelConfig(
                    "slack",
                    "slack",
                    {"webhook": f"http://127.0.0.1:{slack_port}/services/T0/B0/hook{n:05d}"},
                ),
            ),
        )
        for n in range(subscribers)
    )
    settings = Settings("bench", (), subs, smtp=mail, delivery=json.loads(settings_json))
    short, long = message(10), message(28)
    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "state.db")
        for n, sub in enumerate(subs):
            digest = Digest(sub.name, "P", NOW.date(), (Scored(paper(1), 0.5),), NOW)
            msg = long if n % LONG_EVERY == 0 else short
            store.record_digest(digest, 1, [("email", "email", msg), ("slack", "slack", msg)])
        started, cpu = time.monotonic(), time.process_time()
        result = outbox.deliver(store, settings, NOW)
        elapsed, cpu = time.monotonic() - started, time.process_time() - cpu
        store.close()
    problems = result.retrying + result.dead
    print(
        json.dumps(
            {
                "sent": len(result.sent),
                "seconds": elapsed,
                "started": started,
                "cpu": cpu,
                "problems": problems[:3],
            }
        )
    )


def _serve(kind: str, subscribers: int, pipe: Connection) -> None:
    """(In a process of its own, as a real relay and Slack are: one Python process serving both
    would hold them to one core and one GIL.) Serve, and answer "collect" with what arrived."""
    arrivals = _Arrivals()
    server: Any
    if kind == "smtp":
        server = LoopbackSMTP(_Mailbox(arrivals))
        server.start()
    else:
        server = _Slack(arrivals)
        for n in range(subscribers):
            server.hooks[f"/services/T0/B0/hook{n:05d}"] = "ok"
    pipe.send(server.port)
    while pipe.recv() == "collect":
        with arrivals.lock:
            pipe.send((dict(arrivals.times), len(arrivals.connections), time.process_time()))
        arrivals.clear()
        if kind == "slack":
            server.tokens.clear()
    server.stop()


def delivery_phase(subscribers: int, baseline: str, settings: dict[str, Any]) -> int:
    servers = {}
    for kind in ("smtp", "slack"):
        mine, theirs = multiprocessing.Pipe()
        process = multiprocessing.Process(target=_serve, args=(kind, subscribers, theirs))
        process.start()
        servers[kind] = (process, mine, mine.recv())
    rows = []
    try:
        with tempfile.TemporaryDirectory() as folder:
            trees = [("now", ROOT, settings)]
            if baseline != "none":
                trees.insert(0, ("before", _baseline_tree(Path(folder), baseline), {}))
            for label, tree, options in trees:
                serving = 0.0
                for _, pipe, _ in servers.values():
                    pipe.send("collect")  # forget what came before
                    serving -= pipe.recv()[2]
                command = [
                    sys.executable,
                    "-m",
                    "bench.channels",
                    "--phase",
                    "--subscribers",
                    str(subscribers),
                    "--smtp-port",
                    str(servers["smtp"][2]),
                    "--slack-port",
                    str(servers["slack"][2]),
                    "--settings",
                    json.dumps(options),
                ]
                env = {**os.environ, "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}"}
                done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
                if done.returncode:
                    raise SystemExit(f"{label}: the delivery phase failed: {done.stderr[-2000:]}")
                got = json.loads(done.stdout.strip().splitlines()[-1])
                times: dict[str, list[float]] = {}
                connections = 0
                for _, pipe, _ in servers.values():
                    pipe.send("collect")
                    theirs, count, cpu = pipe.recv()
                    times.update(theirs)
                    connections += count
                    serving += cpu
                got["servers_cpu"] = serving
                rows.append((label, got, _figures(times, connections, got["started"])))
    finally:
        for process, pipe, _ in servers.values():
            pipe.send("stop")
            process.join(10)
    print(f"delivery phase: {subscribers} subscribers x (email + Slack), loopback servers")
    print(
        f"  {'':7} {'messages':>8} {'seconds':>8} {'msg/s':>7} {'slowest dest. s':>16}"
        f" {'closest Slack gap s':>20} {'SMTP connections':>17} {'CPU s':>6} {'servers CPU s':>14}"
    )
    for label, got, fig in rows:
        print(
            f"  {label:7} {fig['messages']:8d} {got['seconds']:8.2f}"
            f" {fig['messages'] / got['seconds']:7.1f} {fig['slowest']:16.2f}"
            f" {fig['closest_gap']:20.2f} {fig['connections']:17d} {got['cpu']:6.1f}"
            f" {got['servers_cpu']:14.1f}"
        )
        if got["problems"] or got["sent"] != 2 * subscribers:
            print(f"  {label}: {got['sent']} rows sent; problems: {got['problems']}")
    return 0


def _figures(times: dict[str, list[float]], connections: int, started: float) -> dict[str, Any]:
    gaps = [b - a for t in times.values() for a, b in zip(t, t[1:], strict=False)]
    return {
        "messages": sum(len(t) for t in times.values()),
        # The destination served last: how long its reader waited after the phase began.
        "slowest": max((t[-1] - started for t in times.values()), default=0.0),
        # One Slack webhook's two posts (a split digest): Slack's pace says at least 1 s.
        "closest_gap": min(gaps, default=float("nan")),
        "connections": connections,
    }


def _baseline_tree(folder: Path, ref: str) -> Path:
    """This tree with the outbox and channels of `ref`: what delivery was before."""
    tree = folder / "baseline"
    shutil.copytree(ROOT / "digest", tree / "digest", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "templates").symlink_to(ROOT / "templates")
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", ref, "digest/channels", "digest/outbox.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    shutil.rmtree(tree / "digest" / "channels")
    (tree / "digest" / "channels").mkdir()
    for name in names:
        text = subprocess.run(
            ["git", "show", f"{ref}:{name}"], cwd=ROOT, capture_output=True, check=True
        ).stdout
        (tree / name).write_bytes(text)
    return tree


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("count", nargs="?", type=int, default=200)
    parser.add_argument("--subscribers", type=int, help="the delivery phase for this many")
    parser.add_argument(
        "--baseline", default=BASELINE, help="git ref of the code before ('none': skip it)"
    )
    parser.add_argument("--settings", default="{}", help="[delivery] settings, as JSON")
    parser.add_argument("--phase", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--smtp-port", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--slack-port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.phase:
        phase(args.subscribers, args.smtp_port, args.slack_port, args.settings)
        return 0
    if args.subscribers:
        return delivery_phase(args.subscribers, args.baseline, json.loads(args.settings))
    each_channel(args.count)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

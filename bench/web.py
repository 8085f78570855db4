"""The web face on loopback: requests per second (its home page, a rating link's confirm page, a
recorded vote, a digest page, the Atom feed) beside a bare starlette app under the same uvicorn
(the framework's floor), and the time from a vote's POST (a click) to the rating in the state.

Run on demand: `.venv/bin/python -m bench.web [SECONDS] [CLIENTS]` (defaults 3 s, 4 clients).
Each server runs in a process of its own (`digest web`); each measurement is a bounded loop.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx

from digest.cli import main
from digest.web.tokens import Signer

SECRET = "bench-secret-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def project(root: Path, port: int) -> None:
    lines = [
        json.dumps(
            {"id": f"p{i}", "title": f"Graph networks for molecules, study {i}",
             "abstract": f"Graph neural networks predict molecule property {i} from graphs.",
             "authors": ["A. Author"], "categories": [], "published": "2026-11-29",
             "url": f"https://example.org/p{i}"}
        )
        for i in range(40)
    ]  # fmt: skip
    (root / "feed").mkdir()
    (root / "feed" / "papers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (root / "digest.toml").write_text(
        f'[state]\npath = "state.db"\n\n[web]\nbase_url = "http://127.0.0.1:{port}"\n'
        f'listen = "127.0.0.1:{port}"\nsecret = "{SECRET}"\n\n'
        '[[sources]]\nkind = "files"\npath = "feed"\n\n'
        '[[subscribers]]\nname = "ana"\ninterests = "graph neural networks for molecules"\n'
        'top_k = 10\nmin_score = 0.0\n[[subscribers.channels]]\nkind = "file"\ndir = "out"\n',
        encoding="utf-8",
    )
    code = main(["run", "--config", str(root / "digest.toml"), "--now", "2026-11-30T09:00:00Z"])
    assert code == 0


def throughput(
    base: str, seconds: float, clients: int, request: Callable[[httpx.Client], int]
) -> float:
    """Requests per second over `seconds`, from `clients` keep-alive clients in threads."""
    counts = [0] * clients
    stop = time.monotonic() + seconds

    def work(n: int) -> None:
        with httpx.Client(base_url=base, trust_env=False, timeout=10) as http:
            while time.monotonic() < stop:
                assert request(http) < 400
                counts[n] += 1

    threads = [threading.Thread(target=work, args=(n,)) for n in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - started)


BARE = """
import sys, uvicorn
from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
app = Starlette(routes=[Route("/", lambda request: PlainTextResponse("ok"))])
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=False, log_level="warning")
"""


@contextlib.contextmanager
def process(args: list[str], base: str) -> Iterator[None]:
    """A server in a process of its own (so the clients here do not share its GIL)."""
    child = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(base + "/", trust_env=False, timeout=2)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline and child.poll() is None, "no server"
                time.sleep(0.05)
        yield
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(timeout=30)


def bare_floor(seconds: float, clients: int) -> float:
    """A starlette app that only says "ok", under uvicorn, for comparison."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with process([sys.executable, "-c", BARE, str(port)], base):
        return throughput(base, seconds, clients, lambda h: h.get("/").status_code)


def click_to_stored(base: str, db: Path, urls: list[str]) -> list[float]:
    """Milliseconds from sending a vote's POST to its row in the state, seen by another
    connection (as the next `digest run` would see it)."""
    taken = []
    with httpx.Client(trust_env=False, timeout=10) as http, sqlite3.connect(db) as reader:
        for url in urls:
            paper = Signer(SECRET).check(url.rsplit("/", 1)[1], "v", time.time())[1]  # type: ignore[index]
            reader.execute("DELETE FROM ratings WHERE paper_id = ?", (paper,))
            reader.commit()
            started = time.perf_counter()
            http.post(url)
            while not reader.execute(
                "SELECT 1 FROM ratings WHERE paper_id = ?", (paper,)
            ).fetchone():
                time.sleep(0.0005)
            taken.append((time.perf_counter() - started) * 1000)
    return taken


def main_bench(seconds: float, clients: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        os.chdir(root)  # the config's relative paths start from where digest runs
        port = free_port()
        project(root, port)
        base = f"http://127.0.0.1:{port}"
        floor = bare_floor(seconds, clients)
        face = process([sys.executable, "-m", "digest", "web", "--config", "digest.toml"], base)
        face.__enter__()
        out = (root / "out").glob("*/ana.html")
        html = next(out).read_text(encoding="utf-8")
        ups = [h for h in html.split('"') if h.startswith(f"{base}/r/")][::2]
        key = Signer(SECRET).archive_key("ana")
        with httpx.Client(base_url=base, trust_env=False) as http:
            index = http.get(f"/a/{key}/").text
        page = f"/a/{key}/" + index.split('href="')[1].split('"')[0]
        rows = {
            "bare starlette 'ok' (floor)": floor,
            "GET / (home)": throughput(base, seconds, clients, lambda h: h.get("/").status_code),
            "GET rating link (confirm page)": throughput(
                base, seconds, clients, lambda h: h.get(ups[0]).status_code
            ),
            "POST rating link (record + undo)": throughput(
                base, seconds, clients, lambda h: h.post(ups[1]).status_code
            ),
            "GET digest page (stored HTML + CSP hashes)": throughput(
                base, seconds, clients, lambda h: h.get(page).status_code
            ),
            "GET feed.atom (10 entries)": throughput(
                base, seconds, clients, lambda h: h.get(f"/a/{key}/feed.atom").status_code
            ),
        }
        clicks = click_to_stored(base, root / "state.db", ups * 5)
        face.__exit__(None, None, None)
    print(f"web face on loopback, {clients} keep-alive clients, {seconds:g} s each")
    for name, rps in rows.items():
        print(f"  {name:<44} {rps:8.0f} requests/s")
    print(
        f"  click (POST) to rating stored, {len(clicks)} votes: median "
        f"{statistics.median(clicks):.1f} ms, max {max(clicks):.1f} ms"
    )


if __name__ == "__main__":
    args = sys.argv[1:]
    main_bench(float(args[0]) if args else 3.0, int(args[1]) if len(args) > 1 else 4)

"""Fetch speed of the network sources: real papers of the shared corpus served on 127.0.0.1 as
arXiv API Atom pages, an RSS 2.0 feed and OpenReview API v2 JSON, read by `ingest` into a fresh
state database. Prints papers, calls and seconds per source. Run: python -m bench.sources
"""

from __future__ import annotations

import json
import sys
import tempfile
import threading
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit
from xml.sax.saxutils import escape

from bench import corpus as shared
from bench.corpus import papers
from digest.intake import ingest
from digest.models import Paper, Settings, SourceConfig
from digest.state import Store

ARXIV, RSS, OPENREVIEW = 1000, 300, 500  # papers per source; RSS repeats 100 of the arXiv ones
CALLS: dict[str, int] = {}


def atom(batch: list[Paper], total: int, start: int) -> bytes:
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/{p.id}v1</id><published>2025-09-01T00:00:00Z"
        f"</published><title>{escape(p.title)}</title><summary>{escape(p.abstract)}</summary>"
        + "".join(f"<author><name>{escape(a)}</name></author>" for a in p.authors)
        + f'<arxiv:primary_category term="{(p.categories or ("cs.LG",))[0]}"/></entry>'
        for p in batch
    )
    return (
        '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" '
        'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/" '
        'xmlns:arxiv="http://arxiv.org/schemas/atom"><title>q</title>'
        f"<opensearch:totalResults>{total}</opensearch:totalResults>"
        f"<opensearch:startIndex>{start}</opensearch:startIndex>{entries}</feed>"
    ).encode()


def rss(batch: list[Paper]) -> bytes:
    items = "".join(
        f"<item><title>{escape(p.title)}</title><link>https://arxiv.org/abs/{p.id}</link>"
        f"<description>{escape('<p>' + p.abstract + '</p>')}</description>"
        f"<guid>oai:arXiv.org:{p.id}v1</guid></item>"
        for p in batch
    )
    return (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>feed</title><link>x</link>'
        f"<description>x</description>{items}</channel></rss>"
    ).encode()


def notes(batch: list[Paper], total: int) -> bytes:
    wrapped = [
        {
            "id": f"F{p.id}",
            "forum": f"F{p.id}",
            "pdate": 1760000000000,
            "content": {
                "title": {"value": p.title},
                "abstract": {"value": p.abstract},
                "authors": {"value": list(p.authors)},
                "venue": {"value": "NeurIPS 2025 poster"},
            },
        }
        for p in batch
    ]
    return json.dumps({"notes": wrapped, "count": total}).encode()


def serve(corpus: list[Paper]) -> ThreadingHTTPServer:
    arxiv = corpus[:ARXIV]
    feed = corpus[ARXIV - 100 : ARXIV - 100 + RSS]
    forum = corpus[ARXIV + RSS : ARXIV + RSS + OPENREVIEW]

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            parts = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(parts.query).items()}
            CALLS[parts.path] = CALLS.get(parts.path, 0) + 1
            if parts.path == "/api/query":
                start, size = int(query["start"]), int(query["max_results"])
                body = atom(arxiv[start : start + size], len(arxiv), start)
            elif parts.path == "/rss":
                body = rss(feed)
            else:
                offset, limit = int(query["offset"]), int(query["limit"])
                body = notes(forum[offset : offset + limit], len(forum))
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shared.add_argument(parser)
    shared.use(parser.parse_args(argv).data)
    corpus = list(papers())
    httpd = serve(corpus)
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    sources = (
        SourceConfig(
            "arxiv", "arxiv", {"url": f"{url}/api/query", "categories": ["cs.LG"], "delay": 0}
        ),  # fmt: skip
        SourceConfig("rss", "rss", {"url": f"{url}/rss"}),
        SourceConfig(
            "openreview", "openreview", {"url": url, "venue": "NeurIPS.cc/2025/Conference"}
        ),
    )
    settings = Settings(path="bench", sources=sources, subscribers=())
    with tempfile.TemporaryDirectory() as folder, Store(f"{folder}/state.db") as store:
        reports, _ = ingest(settings, store, datetime.now(UTC))
    httpd.shutdown()
    print(f"{'source':<12}{'read':>6}{'new':>6}{'calls':>7}{'seconds':>9}")
    paths = {"arxiv": "/api/query", "rss": "/rss", "openreview": "/notes"}
    for report in reports:
        calls = CALLS.get(paths[report.name], 0)
        print(f"{report.name:<12}{report.read:>6}{report.new:>6}{calls:>7}{report.seconds:>9.2f}")
        if report.error:
            print(f"  failed: {report.error}", file=sys.stderr)
    print("(arxiv without its 3 s politeness delay; with it, add 3 s per call after the first)")


if __name__ == "__main__":
    main()

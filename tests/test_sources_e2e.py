"""End to end: `digest run` over a config that mixes the seed lists, an RSS feed, the arXiv API,
OpenReview and a JSONL library, all served by a real HTTP server on 127.0.0.1. A paper seen
twice is given once; a failing source stops no other; the summary says which thing happened."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from feedserver import Answer, FeedServer, serve
from test_sources_arxiv import entry, feed

from digest.cli import main

REPO = Path(__file__).resolve().parent.parent
MONDAY = "2026-11-30T09:00:00+01:00"
TUESDAY = "2026-12-01T09:00:00+01:00"
TITLE = "Tight Bounds for Private Federated Learning"

RSS = """<?xml version="1.0"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>cs.CR updates on arXiv.org</title><link>http://rss.arxiv.org/rss/cs.CR</link>
<description>cs.CR</description>
<item>
  <title>Federated Unlearning with Differential Privacy Guarantees</title>
  <link>https://arxiv.org/abs/2611.05555</link>
  <description>arXiv:2611.05555v1 Announce Type: new
Abstract: We remove a client's data from a &lt;b&gt;federated&lt;/b&gt; model under differential
privacy and bound the privacy loss of unlearning.</description>
  <guid isPermaLink="false">oai:arXiv.org:2611.05555v1</guid>
  <dc:creator>Grace Hopper, Alan Turing</dc:creator>
</item>
<item>
  <title>Tight Bounds for Private Federated Learning</title>
  <link>https://arxiv.org/abs/2611.01234</link>
  <description>arXiv:2611.01234v1 Announce Type: cross
Abstract: Cross-listed here from cs.LG.</description>
  <guid isPermaLink="false">oai:arXiv.org:2611.01234v1</guid>
</item>
</channel></rss>
"""
EMPTY_RSS = (
    '<?xml version="1.0"?><rss version="2.0"><channel><title>cs.CR</title>'
    "<link>https://example.org</link><description>quiet</description></channel></rss>"
)
ARXIV = feed(
    [
        entry(
            "2611.01234v2",
            TITLE,
            "We prove tight bounds for differentially private federated learning with "
            "heterogeneous clients and partial participation.",
        )
    ],
    1,
)
OPENREVIEW_NOTE = {
    "id": "Fx9",
    "forum": "Fx9",
    "pdate": 1764000000000,
    "content": {
        "title": {"value": "Tight bounds for private federated learning"},
        "abstract": {"value": "Camera-ready: tight bounds for private federated learning."},
        "authors": {"value": ["Ada Lovelace"]},
        "venue": {"value": "NeurIPS 2025 oral"},
        "code": {"value": "https://github.com/acme/tight"},
    },
}


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FeedServer) -> Path:
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    monkeypatch.chdir(tmp_path)
    for name in ("DIGEST_STATE", "DIGEST_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    liked = {
        "id": "2409.00001",
        "title": "Differentially private federated averaging",
        "abstract": "Client-level differential privacy for federated averaging.",
    }
    (tmp_path / "ana.jsonl").write_text(json.dumps(liked) + "\n", encoding="utf-8")
    (tmp_path / "digest.toml").write_text(
        f"""
[[sources]]
kind = "seeds"
path = "seeds"

[[sources]]
kind = "rss"
name = "cs.CR feed"
url = "{server.url}/rss/cs.CR"
timeout = 2
retries = 0

[[sources]]
kind = "arxiv"
url = "{server.url}/api/query"
categories = ["cs.LG"]
days = 2
delay = 0
timeout = 2
retries = 0

[[sources]]
kind = "openreview"
url = "{server.url}"
venue = "NeurIPS.cc/2025/Conference"
timeout = 2
retries = 0

[defaults]
schedule = "0 8 * * *"
timezone = "Europe/Berlin"
top_k = 10

[[subscribers]]
name = "ana"
interests = "tight bounds for differential privacy in federated learning; federated unlearning"
library = "ana.jsonl"
""",
        encoding="utf-8",
    )
    return tmp_path


def serve_all(
    server: FeedServer, *, notes: list[object], rss: str = RSS, closed: bool = False
) -> None:
    """closed: the feed without a length, ended by closing the connection (a cut looks whole)."""
    server.route("/rss/cs.CR", Answer(body=rss, content_type="application/rss+xml", closed=closed))
    server.route("/api/query", Answer(body=ARXIV))
    body = json.dumps({"notes": notes, "count": len(notes)})
    server.route("/notes", Answer(body=body, content_type="application/json"))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def sent(project: Path) -> list[str]:
    with sqlite3.connect(project / "state" / "digest.db") as db:
        return [r[0] for r in db.execute("SELECT paper_id FROM sent WHERE subscriber = 'ana'")]


def test_a_mixed_config_runs_end_to_end_and_a_paper_seen_three_times_is_given_once(
    project: Path, server: FeedServer, capsys
) -> None:
    serve_all(server, notes=[])
    code, out, err = run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    assert code == 0, out + err
    lines = out.splitlines()
    assert any(line.startswith("  source seeds: 57 read, 0 skipped, 57 new (") for line in lines)
    # The feed's cross-listed copy of the arXiv paper is the arXiv paper: 2 read, 2 new...
    assert "  source cs.CR feed: 2 read, 0 skipped, 2 new (" in out
    # ...so the API's record of it (version 2) is no longer new.
    assert "  source arxiv: 1 read, 0 skipped, 0 new: all seen before (" in out
    assert "  source openreview: 0 read, 0 skipped, 0 new: the source has no papers now" in out
    html = next((project / "out").glob("*/ana.html")).read_text(encoding="utf-8")
    assert html.count(TITLE) == 1
    assert "Federated Unlearning with Differential Privacy Guarantees" in html
    assert sorted(set(sent(project)) & {"2611.01234", "2611.05555"}) == [
        "2611.01234",
        "2611.05555",
    ]

    # Tuesday: the conference publishes the paper on OpenReview. It is the same paper.
    serve_all(server, notes=[OPENREVIEW_NOTE], rss=EMPTY_RSS)
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    assert code == 0
    assert "  source openreview: 1 read, 0 skipped, 0 new: all seen before (" in out
    assert "ana  nothing new: no paper arrived since the last digest" in out
    assert sent(project).count("2611.01234") == 1 and "openreview:Fx9" not in sent(project)
    with sqlite3.connect(project / "state" / "digest.db") as db:
        code_url, venue = db.execute(
            "SELECT code_url, venue FROM papers WHERE id = '2611.01234'"
        ).fetchone()
    assert (code_url, venue) == ("https://github.com/acme/tight", "NeurIPS 2025 oral")


def test_a_failing_source_is_named_with_its_reason_and_the_others_go_on(
    project: Path, server: FeedServer, capsys
) -> None:
    serve_all(server, notes=[])
    server.route("/notes", Answer(500, body="oops", content_type="text/plain"))
    server.route("/api/query", Answer(body="<html>down for maintenance</html>"))
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    assert code == 1  # needs attention
    assert (
        f"  source openreview: FAILED: openreview: HTTP 500 Internal Server Error from "
        f"{server.url}/notes (gave up after 1 try)"
    ) in out
    assert "  source arxiv: FAILED: arxiv: not an arXiv API answer" in out
    assert "  source cs.CR feed: 2 read, 0 skipped, 2 new (" in out
    assert list((project / "out").glob("*/ana.eml"))  # the digest was made from the others


def test_a_feed_that_redirects_forever_is_one_line_naming_it_and_no_traceback(
    project: Path, server: FeedServer, capsys
) -> None:
    serve_all(server, notes=[])
    server.route("/rss/cs.CR", Answer(302, headers={"Location": "/rss/cs.CR?again=1"}))
    code, out, err = run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    assert code == 1
    problem = f"cs.CR feed: too many redirects from {server.url}/rss/cs.CR"
    assert f"  source cs.CR feed: FAILED: {problem} (" in out
    assert f"digest: ERROR: source cs.CR feed failed after 0 papers: {problem}\n" in err
    assert "Traceback" not in err and err.count("\n") == 2  # the other: openreview's no notes
    assert list((project / "out").glob("*/ana.eml"))  # the other sources made the digest


def test_a_quiet_day_a_day_without_match_and_a_failed_day_read_differently(
    project: Path, server: FeedServer, capsys
) -> None:
    serve_all(server, notes=[])
    run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    # Tuesday: only a paper nobody here cares about arrives.
    off_topic = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>q-bio</title><link>x</link>'
        "<description>x</description><item><title>Protein folding kinetics of enzymes</title>"
        "<link>https://arxiv.org/abs/2612.00001</link><description>Enzyme kinetics in "
        "proteins measured by calorimetry.</description></item></channel></rss>"
    )
    serve_all(server, notes=[], rss=off_topic)
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    assert code == 0
    assert "ana  no match: new papers arrived, none scored above min_score" in out
    # Wednesday: every network source is down and the seeds are gone.
    shutil.rmtree(project / "seeds")
    for path in ("/rss/cs.CR", "/api/query", "/notes"):
        server.route(path, Answer(503))
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", "2026-12-02T09:00+01:00")
    assert code == 1
    assert out.count("FAILED") == 4
    assert "ana  waiting for sources: nothing new and a source failed; a later run makes it" in out


def test_nothing_new_while_one_source_failed_waits_for_it_and_its_papers_get_the_day(
    project: Path, server: FeedServer, capsys
) -> None:
    # The main feed down beside sources that answered with nothing new had closed the day as
    # "no new papers"; the feed's papers, back at noon, then waited for the next day's digest.
    serve_all(server, notes=[])
    run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    server.route("/rss/cs.CR", Answer(503))
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    assert code == 1 and out.count("FAILED") == 1
    assert "ana  waiting for sources: nothing new and a source failed; a later run makes it" in out
    back = RSS.replace("2611.", "2612.").replace("Tight", "Tighter")
    serve_all(server, notes=[], rss=back)
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", "2026-12-01T13:00+01:00")
    assert code == 0 and "  ana  " in out and "picked" in out
    assert len(list((project / "out").glob("2026-12-01/ana.eml"))) == 1


def terminated(project: Path, server: FeedServer) -> tuple[int, str, str, float]:
    """A run SIGTERMed a second after it first asked for the feed: its exit code, output and
    errors, and the seconds from the signal to its end (against minutes of waiting before)."""
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "digest", "run", "--config", "digest.toml", "--now", MONDAY]
    proc = subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)  # fmt: skip
    try:
        for _ in range(600):
            if server.hits("/rss/cs.CR"):
                break
            time.sleep(0.05)
        time.sleep(1.0)  # a few bytes into a drip, or into a wait
        began = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    return proc.returncode, out, err, time.monotonic() - began


def test_a_sigterm_ends_a_dripping_feeds_read_at_once(project: Path, server: FeedServer) -> None:
    # A feed sending a byte a second held a SIGTERMed run for five minutes (compose's grace is
    # two): the read in flight ends, and the run stops as it does for any SIGTERM.
    serve_all(server, notes=[])
    server.route("/rss/cs.CR", Answer(body=RSS, content_type="application/rss+xml", trickle=0.5))
    code, out, err, took = terminated(project, server)
    assert code == 143 and took < 20, err
    assert "stopped (SIGTERM) before the answer was read" in out + err
    assert "Traceback" not in err
    # No digest of half the reads: the next run reads the feed again and makes it.
    assert not list((project / "out").glob("*/ana.eml"))
    serve_all(server, notes=[])
    code = main(["run", "--config", str(project / "digest.toml"), "--now", MONDAY])
    assert code == 0 and list((project / "out").glob("*/ana.eml"))


def test_a_feed_cut_short_is_a_failed_source_that_keeps_its_whole_entries(
    project: Path, server: FeedServer, capsys
) -> None:
    # A body ended early (a connection closed without a length) had been a successful read: the
    # day closed as "nothing new", exit 0, and arXiv's daily feed had moved on by the next run.
    serve_all(server, notes=[])
    run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    tuesday = RSS.replace("2611.", "2612.").replace("Tight", "Tighter")
    serve_all(server, notes=[], rss=tuesday[: tuesday.index("We remove")], closed=True)
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    failed = "  source cs.CR feed: FAILED: cs.CR feed: feed cut short, before its document's end ("
    assert code == 1 and failed in out and f") from {server.url}/rss/cs.CR (" in out
    assert "ana  waiting for sources: nothing new and a source failed; a later run makes it" in out
    serve_all(server, notes=[], rss=tuesday[: tuesday.index("Cross-listed")], closed=True)
    code, out, _ = run(capsys, "run", "--config", "digest.toml", "--now", "2026-12-01T11:00+01:00")
    assert code == 1 and failed in out and "/rss/cs.CR (kept 1 read before) (" in out


def test_a_sigterm_ends_a_retry_after_wait_at_once(project: Path, server: FeedServer) -> None:
    # A 503 asking 2 minutes (5 are allowed) held a SIGTERMed run to the wait's end: past
    # systemd's 90 s stop timeout and Docker's 10 s, then SIGKILL.
    config = project / "digest.toml"
    config.write_text(config.read_text().replace("retries = 0", "retries = 1", 1))
    serve_all(server, notes=[])
    server.route("/rss/cs.CR", Answer(503, headers={"Retry-After": "120"}))
    code, out, err, took = terminated(project, server)
    assert code == 143 and took < 20, err
    assert f"stopped (SIGTERM) before asking {server.url}/rss/cs.CR again" in out + err
    assert "Traceback" not in err and len(server.hits("/rss/cs.CR")) == 1
    assert not list((project / "out").glob("*/ana.eml"))  # no digest of half the reads


@pytest.mark.parametrize(
    ("entry_toml", "message"),
    [
        (
            'kind = "arxiv"\ncategories = ["cs LG"]',
            "sources[0].categories[0]: 'cs LG' is not an arXiv category "
            "(e.g. 'cs.LG', 'hep-th', 'q-bio.NC')",
        ),
        ('kind = "arxiv"', "sources[0]: arxiv needs `categories` (e.g. ['cs.LG']) or a `query`"),
        ('kind = "rss"', "sources[0].url: missing; rss needs it (a string)"),
        ('kind = "rss"\nurl = "file:///etc/passwd"', "sources[0].url: must be an http(s) URL"),
        ('kind = "rss"\nurl = "http://127.0.0.1:99999/x"', "sources[0].url: is not a valid URL"),
        ('kind = "rss"\nurl = "http://127.0.0.1:abc/x"', "sources[0].url: is not a valid URL"),
        (
            'kind = "rss"\nurl = "http://127.0.0.1/x\\u0000"',
            "sources[0].url: must not hold control",
        ),
        (
            'kind = "openreview"\nvenue = "V"\nurl = "http://a b/x"',
            "sources[0].url: must not hold a",
        ),
        ('kind = "rss"\nurl = "https://x.org/rss"\nfeed = "y"', "sources[0].feed: unknown key"),
        ('kind = "openreview"\nvenue = ""', "sources[0].venue: must name a venue"),
        ('kind = "arxiv"\nquery = "x"\ndelay = -1', "sources[0].delay: must be between 0 and 600"),
        ('kind = "atom"\nurl = "https://x.org"', "sources[0].kind: unknown source kind 'atom'"),
    ],
)
def test_validate_explains_a_bad_source_entry_in_one_line(
    tmp_path: Path, capsys, entry_toml: str, message: str
) -> None:
    config = tmp_path / "bad.toml"
    config.write_text(
        f'[[sources]]\n{entry_toml}\n\n[[subscribers]]\nname = "a"\ninterests = "privacy"\n',
        encoding="utf-8",
    )
    code, out, err = run(capsys, "validate", "--config", str(config))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith(f"digest: {config}: {message}")


def test_validate_explains_a_bad_liked_id(tmp_path: Path, capsys) -> None:
    config = tmp_path / "bad.toml"
    likes = '["2501.01234", "Attention", "hepth/9711201", "1234.1234", "math.GT/0309136"]'
    config.write_text(f'[[subscribers]]\nname = "a"\nlike = {likes}\n')
    code, _, err = run(capsys, "validate", "--config", str(config))
    assert code == 2
    assert err == "".join(
        f"digest: {config}: subscribers.a.like[{i}]: {bad!r} is not an arXiv id"
        " (e.g. '2501.01234')\n"
        for i, bad in ((1, "Attention"), (2, "hepth/9711201"), (3, "1234.1234"))
    )


def test_a_feed_url_from_the_environment_never_shows(
    tmp_path: Path, server: FeedServer, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PRIVATE_FEED", f"{server.url}/feeds/s3cr3t-t0ken")
    server.route("/feeds/s3cr3t-t0ken", Answer(403, body="expired", content_type="text/plain"))
    (tmp_path / "digest.toml").write_text(
        '[[sources]]\nkind = "rss"\nname = "private"\nurl = "${PRIVATE_FEED}"\nretries = 0\n\n'
        '[[subscribers]]\nname = "a"\ninterests = "x"\n',
        encoding="utf-8",
    )
    code, out, err = run(capsys, "-v", "run", "--config", "digest.toml", "--now", MONDAY)
    assert code == 1
    assert "source private: FAILED: private: HTTP 403 Forbidden from [redacted]" in out
    with sqlite3.connect(tmp_path / "state" / "digest.db") as db:
        (summary,) = db.execute("SELECT summary FROM runs").fetchone()
    assert "FAILED" not in summary and "[redacted]" in summary
    assert "s3cr3t" not in out + err + summary


def test_a_token_in_a_feed_path_shows_nowhere_in_any_form(
    tmp_path: Path, server: FeedServer, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The URL is shown altered (host lower-cased, query dropped): the token must still go."""
    monkeypatch.chdir(tmp_path)
    host = server.url.replace("127.0.0.1", "LOCALHOST")
    monkeypatch.setenv("PRIVATE_FEED", f"{host}/feeds/tok-s3cr3t-77/atom.xml?key=qu3ry-s3cr3t")
    server.route(
        "/feeds/tok-s3cr3t-77/atom.xml", Answer(503, body="busy", headers={"Retry-After": "0"})
    )
    (tmp_path / "digest.toml").write_text(
        '[[sources]]\nkind = "rss"\nname = "private"\nurl = "${PRIVATE_FEED}"\nretries = 1\n\n'
        '[[subscribers]]\nname = "a"\ninterests = "x"\n',
        encoding="utf-8",
    )
    said = ""
    for args in (
        ["-vv", "run", "--now", MONDAY],
        ["status", "--now", MONDAY],
        ["-vv", "preview", "--subscriber", "a", "--now", MONDAY],
    ):
        main([*args[:-2], "--config", "digest.toml", *args[-2:]])
        out, err = capsys.readouterr()
        said += out + err
    assert "[redacted]" in said and "source private: FAILED" in said
    stored = b"".join(p.read_bytes() for p in (tmp_path / "state").iterdir())
    for secret in ("s3cr3t", "S3CR3T"):
        assert secret not in said and secret.encode() not in stored


GALAXIES = [  # (arXiv id, title as arXiv writes it, as a journal's feed writes it)
    (
        "2510.25950",
        "The UV Luminosity Function of galaxies from $z\\sim6$ to $z\\sim14$ in COSMOS-Web",
        "The UV Luminosity Function of galaxies from z∼6 to z∼14 in COSMOS-Web",
    ),
    (
        "",  # a record without an id: known by its title
        "Lyman-alpha emitting galaxies across $3 \\lesssim z < 7$ in COSMOS-Web",
        "Lyman-alpha emitting galaxies across 3 ≲ z < 7 in COSMOS-Web",
    ),
    (
        "2510.25024",
        "H I in COSMOS-Web galaxies at $\\boldsymbol{z\\approx 0.2}$-0.6",
        "H I in COSMOS-Web galaxies at z≈0.2-0.6",
    ),
]
GALAXY_TEXT = (
    "We measure the UV luminosity function of high-redshift galaxies in COSMOS-Web at $z>6$."
)


def test_a_paper_file_with_latex_titles_and_a_journals_feed_of_them_send_each_paper_once(
    tmp_path: Path, server: FeedServer, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Monday a paper file (arXiv's LaTeX), Tuesday a journal's feed of the same papers under
    DOIs, titles read as text: only Tuesday's one new paper is sent."""
    monkeypatch.chdir(tmp_path)
    records = [
        {"id": ident, "title": title, "abstract": f"{GALAXY_TEXT} ({n})", "authors": ["A Ng"]}
        for n, (ident, title, _) in enumerate(GALAXIES)
    ]
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "astro.jsonl").write_text(
        "".join(json.dumps({k: v for k, v in r.items() if v}) + "\n" for r in records)
    )
    (tmp_path / "digest.toml").write_text(
        f'[[sources]]\nkind = "files"\npath = "papers"\n\n[[sources]]\nkind = "rss"\n'
        f'name = "mnras"\nurl = "{server.url}/mnras"\nretries = 0\n\n'
        '[[subscribers]]\nname = "ana"\ninterests = "UV luminosity function of high-redshift '
        'galaxies in COSMOS-Web"\nschedule = "0 8 * * *"\ntimezone = "Europe/Berlin"\n',
        encoding="utf-8",
    )
    server.route("/mnras", Answer(body=EMPTY_RSS, content_type="application/rss+xml"))
    code, out, err = run(capsys, "run", "--config", "digest.toml", "--now", MONDAY)
    assert code == 0, out + err
    assert len(sent(tmp_path)) == 3
    items = "".join(
        f"<item><title>{read}</title><link>https://doi.org/10.1093/mnras/staf100{n}</link>"
        f"<description>{GALAXY_TEXT.replace('$z>6$', 'z&gt;6')} ({n})</description></item>"
        for n, (_, _, read) in enumerate([*GALAXIES, ("", "", "UV galaxies in COSMOS-Web")])
    )
    feed = EMPTY_RSS.replace("</channel>", f"{items}</channel>")
    server.route("/mnras", Answer(body=feed, content_type="application/rss+xml"))
    code, out, err = run(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    assert code == 0, out + err
    assert "  source mnras: 4 read, 0 skipped, 1 new (" in out
    assert len(sent(tmp_path)) == 4, sent(tmp_path)
    assert "10.1093/mnras/staf1003" in sent(tmp_path)

"""Each reader's archive behind a secret path: an index of past digests, each digest as the same
HTML as the e-mail with working rating links, and feed.atom (one entry per paper sent) that
feedparser reads without a complaint. Another reader's key, or a guessed one, shows nothing."""

from __future__ import annotations

import json
import re
import sqlite3
import xml.etree.ElementTree as ET
from contextlib import closing
from html import escape
from pathlib import Path
from typing import Any

import feedparser
import pytest
from web_project import GRAPHS, IMAGES, MONDAY, SECRET, TUESDAY, Project, papers_file, project

from digest.web.tokens import Signer


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def two_days(p: Project, capsys: Any) -> None:
    assert p.digest(capsys, "run", "--now", MONDAY)[0] == 0
    papers_file(p.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert p.digest(capsys, "run", "--now", TUESDAY)[0] == 0


def test_view_in_browser_shows_the_mail_as_it_was_sent(web: Project, capsys) -> None:
    two_days(web, capsys)
    mail = web.mails("ana@example.org")[-1]
    html = web.html_of(mail)
    (view,) = web.links(html, "view in browser")
    key = Signer(SECRET).archive_key("ana")
    assert view.startswith(f"{web.base}/a/{key}/d/")
    with web.web() as http:
        page = http.get(view)
        assert page.status_code == 200
        assert page.text.strip() == html.replace("\r\n", "\n").strip()  # the same HTML and links
        csp = page.headers["content-security-policy"]
        assert "'unsafe-hashes'" in csp and "'sha256-" in csp and "unsafe-inline" not in csp
        up = web.links(page.text, "👍")[0]
        assert http.post(up).status_code == 200  # its links work


def test_the_index_lists_each_digest_newest_first(web: Project, capsys) -> None:
    two_days(web, capsys)
    key = Signer(SECRET).archive_key("ana")
    with web.web() as http:
        index = http.get(f"/a/{key}/")
        assert index.status_code == 200
        days = re.findall(r">(2026-\d\d-\d\d)</a>", index.text)
        assert days == ["2026-12-01", "2026-11-30"]
        for href in re.findall(r'href="(d/[^"]+)"', index.text):
            assert http.get(f"/a/{key}/{href}").status_code == 200


def test_the_feed_is_valid_atom_with_one_entry_per_paper_sent(web: Project, capsys) -> None:
    two_days(web, capsys)
    key = Signer(SECRET).archive_key("ana")
    with web.web() as http:
        answer = http.get(f"/a/{key}/feed.atom")
    assert answer.headers["content-type"].startswith("application/atom+xml")
    feed = feedparser.parse(answer.content)
    assert feed.bozo == 0, feed.get("bozo_exception")
    assert feed.version == "atom10"
    sent = [m for m in web.mails("ana@example.org")]
    titles = [e.title for e in feed.entries]
    assert len(titles) == 4 == len(set(titles))  # two papers a day, each once
    assert all(e.link.startswith("https://example.org/") for e in feed.entries)
    assert all(e.summary.startswith("why: matched") for e in feed.entries)
    assert all(
        e.author == "A. Author" and e.published.startswith("2026-11-29") for e in feed.entries
    )
    assert len(sent) == 2


def test_a_link_with_characters_xml_or_a_reader_cannot_take_leaves_the_feed_valid(
    web: Project, capsys
) -> None:
    odd = {
        "g1": "https://example.org/a\ufffeb",
        "g2": "https://example.org/\u202etxt.exe",
        "d1": "https://example.org/\u2066x\u2069",
        "d2": "https://example.org/\x7f\ud800",
    }
    rows = [
        {"id": i, "title": t + "\ufffe", "abstract": a, "authors": ["A. Author"], "url": odd[i]}
        for i, t, a in GRAPHS[:2] + IMAGES[:2]
    ]
    feed = web.root / "feed" / "monday.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    key = Signer(SECRET).archive_key("ana")
    with web.web() as http:
        answer = http.get(f"/a/{key}/feed.atom")
    assert answer.status_code == 200
    root = ET.fromstring(answer.content)  # raises on anything XML 1.0 does not allow
    links = [e.get("href", "") for e in root.iter("{http://www.w3.org/2005/Atom}link")]
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == 2 and len(links) == 4
    assert not any(odd[i] in h for h in links for i in odd)
    # Ingest drops the characters (sources/common.clean), or the link gives way to the digest's
    # page: either way no link holds one.
    cleaned = {"https://example.org/ab", "https://example.org/txt.exe", "https://example.org/x"}
    assert all(h.startswith(f"{web.base}/a/{key}/") or h in cleaned for h in links), links
    assert feedparser.parse(answer.content).bozo == 0


def test_another_readers_key_or_a_guess_shows_nothing(web: Project, capsys) -> None:
    two_days(web, capsys)
    ana, ben = Signer(SECRET).archive_key("ana"), Signer(SECRET).archive_key("ben")
    with web.web() as http:
        ana_index = http.get(f"/a/{ana}/").text
        ben_index = http.get(f"/a/{ben}/").text
        assert "ana" in ana_index and "ben" not in ana_index and "ana" not in ben_index
        for path in (f"/a/{ana[:-1]}x/", "/a/ana/", f"/a/{ana}/d/nothing", "/a//feed.atom"):
            assert http.get(path).status_code == 404, path
        old = Signer("the-secret-before-rotation").archive_key("ana")
        assert http.get(f"/a/{old}/feed.atom").status_code == 404  # rotating voids old paths


def test_after_the_secret_rotates_an_old_digests_links_work_again(web: Project, capsys) -> None:
    """Served as stored, an old digest's 👍/👎 were 403, its "view in browser" 404, under the
    reader's new archive key: channels.md promises its working rating links."""
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    mailed = web.html_of(web.mails("ana@example.org")[0])
    config = web.root / "digest.toml"
    rotated = "rotated-secret-cccccccccccccccccccc"
    config.write_text(config.read_text(encoding="utf-8").replace(SECRET, rotated), "utf-8")
    key = Signer(rotated).archive_key("ana")
    with web.web() as http:
        (day,) = re.findall(r'href="(d/[^"]+)"', http.get(f"/a/{key}/").text)
        page = http.get(f"/a/{key}/{day}").text
        assert page != mailed and "no longer work" not in page
        up, down = web.links(page, "👍")[0], web.links(page, "👎")[0]
        for old in web.links(mailed, "👍"):
            assert http.post(old).status_code == 403 and old not in page  # the mail's: dead
        assert http.post(up).status_code == 200 and "Rating recorded" in http.post(down).text
        (view,) = web.links(page, "view in browser")
        (past,) = web.links(page, "Past digests")
        (unsubscribe,) = web.links(page, "unsubscribe")
        assert http.get(view).status_code == 200 and http.get(past).status_code == 200
        assert "Stop the e-mail digests" in http.get(unsubscribe).text
    (rated,) = json.loads(web.digest(capsys, "ratings", "--format", "json")[1])
    assert (rated["vote"], rated["via"]) == ("down", "web")


def test_rating_links_past_their_days_are_signed_anew_and_one_that_cannot_be_is_taken_out() -> None:
    """A digest older than VOTE_DAYS kept its expired 👍/👎 links. A link to the face that
    cannot be made again (no paper id for it) leaves the page, and a line says so."""
    from digest.models import Entry, Message
    from digest.web.archive import relinked
    from digest.web.tokens import VOTE_DAYS, Links

    signer, base, now = Signer(SECRET), "https://digest.example.org", 2_000_000_000.0
    then = Links(base, signer, "ana", 1)  # expired long ago
    period = "2026-11-30T08:00:00+00:00"
    up, lost = then.vote("g1", "up"), then.vote("g2", "up")
    page = (
        f'<html><body><p><a href="{then.digest_page(period)}">view in browser</a></p>'
        f'<a href="{up}" title="more">👍 more like this</a> <a href="{lost}">👍 more like this</a>'
        f' <a href="{then.archive()}feed.atom">feed</a> <a href="https://example.org/p">paper</a>'
        "</body></html>"
    )
    entries = (Entry(1, "A", up_url=up, paper_id="g1"), Entry(2, "B", up_url=lost))
    sent = {"view_url": then.digest_page(period), "unsubscribe_url": then.unsubscribe()}
    message = Message("s", "t", page, entries=entries, **sent)
    now_links = Links(base, signer, "ana", int(now) + VOTE_DAYS * 86400)
    served = relinked(message, period, now_links, now)
    (fresh,) = re.findall(r'href="([^"]*/r/[^"]*)"', served)
    assert signer.check(fresh.rsplit("/", 1)[1], "v", now) == ["ana", "g1", "up"]
    assert lost not in served and served.count("👍 more like this") == 2  # its text stays
    assert "Some links of this digest no longer work" in served.split("view in browser")[0]
    assert f'href="{then.archive()}feed.atom"' in served  # an archive link never expires
    assert 'href="https://example.org/p"' in served
    working = Links(base, signer, "ana", int(now) + 30 * 86400).vote("g1", "up")
    entry = Entry(1, "A", up_url=working, paper_id="g1")
    kept = Message("s", "t", f'<a href="{working}">👍</a>', entries=(entry,))
    assert relinked(kept, period, now_links, now) == kept.html  # as mailed, while it works


def test_the_feed_names_a_papers_first_ten_authors_then_et_al(web: Project, capsys) -> None:
    """A paper of 500,000 authors made a 22 MB feed.atom, and a GET of it cost the web face
    333 MB (four at once 1.2 GB, the scheduler's process under `digest serve`). Intake keeps a
    paper's first 5,000 names; the feed writes ten and "et al.", also for a paper stored whole
    before intake cut it."""
    # Names of letters alone: a digit after a name is an affiliation mark, which intake drops.
    many = [
        f"Ann Q{''.join(chr(97 + i // 26**k % 26) for k in range(4))}son" for i in range(20_000)
    ]
    rows = [
        {"id": i, "title": t, "abstract": a, "authors": many if i == "g1" else ["A. Author"],
         "published": "2026-11-29", "url": f"https://example.org/{i}"}
        for i, t, a in GRAPHS[:2] + IMAGES[:2]
    ]  # fmt: skip
    feed = web.root / "feed" / "monday.jsonl"
    feed.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    with closing(sqlite3.connect(web.state)) as db:
        stored = db.execute("SELECT authors FROM papers WHERE title = ?", (GRAPHS[0][1],))
        (authors,) = stored.fetchone()
    assert json.loads(authors) == many[:5_000]
    key = Signer(SECRET).archive_key("ana")

    def entries() -> tuple[int, dict[str, list[str]]]:
        with web.web() as http:
            answer = http.get(f"/a/{key}/feed.atom")
        names = {
            e.title: [a.name for a in e.authors] for e in feedparser.parse(answer.content).entries
        }
        return len(answer.content), names

    size, names = entries()
    assert names[GRAPHS[0][1]] == [*many[:10], "et al."]
    assert names[GRAPHS[1][1]] == ["A. Author"] and size < 20_000
    with closing(sqlite3.connect(web.state)) as db, db:  # as intake stored it before the cut
        half_a_million = json.dumps(many * 25)
        db.execute("UPDATE papers SET authors = ? WHERE title = ?", (half_a_million, GRAPHS[0][1]))
    assert entries() == (size, names)


def test_a_papers_words_naming_a_face_address_stay_on_its_page(web: Project, capsys) -> None:
    """Text that named {base_url}/r/..., /u/... or /a/... was cut out of the archive's page, under
    a false "links ... were taken out" line, and a paper's own link there lost its href. Only
    the digest's own links are made again; the paper reads as it was mailed."""
    title = f"Graph neural networks for molecules: see {web.base}/r/our-demo for results"
    abstract = (
        f"Graph neural networks on molecular graphs. Our site {web.base}/u/unsubscribe-howto"
        f" and {web.base}/a/archive-doc/ explain it."
    )
    row = {"id": "g9", "title": title, "abstract": abstract, "authors": ["A. Author"],
           "published": "2026-11-29", "url": f"{web.base}/r/the-papers-own-page"}  # fmt: skip
    (web.root / "feed" / "monday.jsonl").write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    mailed = web.html_of(web.mails("ana@example.org")[0])
    said = [title, f"{web.base}/u/unsubscribe-howto", f"{web.base}/a/archive-doc/"]
    own = f'<a href="{web.base}/r/the-papers-own-page"'
    assert all(escape(s) in mailed for s in said) and own in mailed
    (view,) = web.links(mailed, "view in browser")
    with web.web() as http:
        assert http.get(view).text.strip() == mailed.replace("\r\n", "\n").strip()
    config = web.root / "digest.toml"
    rotated = "rotated-secret-dddddddddddddddddddd"
    config.write_text(config.read_text(encoding="utf-8").replace(SECRET, rotated), "utf-8")
    key = Signer(rotated).archive_key("ana")
    with web.web() as http:
        (day,) = re.findall(r'href="(d/[^"]+)"', http.get(f"/a/{key}/").text)
        page = http.get(f"/a/{key}/{day}").text
        up = web.links(page, "👍")[0]
        assert http.post(up).status_code == 200  # the digest's own links: made again
    assert "no longer work" not in page and up not in mailed
    assert all(escape(s) in page for s in said) and own in page


WEDNESDAY = "2026-12-02T09:00:00+00:00"
THURSDAY = "2026-12-03T09:00:00+00:00"


def renamed_day(p: Project, capsys: Any, now: str, name: str, fresh: list[Any]) -> str:
    """ana's config name set to `name`, a run at `now` with `fresh` papers; the key its mail
    carries."""
    config = p.root / "digest.toml"
    text = re.sub(r'name = "ana\w*"', f'name = "{name}"', config.read_text(encoding="utf-8"))
    config.write_text(text, "utf-8")
    papers_file(p.root / "feed" / f"{now[:10]}.jsonl", fresh)
    assert p.digest(capsys, "run", "--now", now)[0] == 0
    (key,) = set(re.findall(r"/a/([^/\"]+)/", p.html_of(p.mails("ana@example.org")[-1])))
    return key


def days_of(http: Any, key: str) -> list[str]:
    answer = http.get(f"/a/{key}/")
    assert answer.status_code == 200, key
    return re.findall(r">(\d{4}-\d\d-\d\d)</a>", answer.text)


@pytest.mark.parametrize("names", [("ana2",), ("ana1", "ana2"), ("ana1", "ana")])
def test_a_renamed_readers_archive_and_its_old_mails_links_hold_all_its_digests(
    web: Project, capsys, names: tuple[str, ...]
) -> None:
    """web2 F1: after ana was renamed ana2, her archive and feed held the digests made under
    ana2 alone, and every older mail's "Past digests", "view in browser" and feed links were
    404. Each key of the reader (each of its names', a rename, two, or back) shows all of its
    digests, once, newest first; every older mail's links lead to them."""
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    days = [(TUESDAY, [GRAPHS[2], IMAGES[2]]), (WEDNESDAY, [("w1", "Graph molecules", "Graphs.")])]
    keys = [Signer(SECRET).archive_key("ana")]
    for name, (now, fresh) in zip(names, days, strict=False):
        keys.append(renamed_day(web, capsys, now, name, fresh))
    mails = web.mails("ana@example.org")
    made = ["2026-12-02", "2026-12-01", "2026-11-30"][-len(mails) :]
    with web.web() as http:
        for key in dict.fromkeys(keys):
            assert days_of(http, key) == made, key
            feed = feedparser.parse(http.get(f"/a/{key}/feed.atom").content)
            assert feed.bozo == 0 and len({e.title for e in feed.entries}) == len(feed.entries)
            assert len(feed.entries) == sum(len(web.links(web.html_of(m), "👍")) for m in mails)
        for mail in mails:
            html = web.html_of(mail)
            (view,), (past,) = web.links(html, "view in browser"), web.links(html, "Past digests")
            page = http.get(view)
            assert page.status_code == 200  # the mail's digest: its papers
            assert web.links(page.text, "paper") == web.links(html, "paper") != []
            (now_past,) = web.links(page.text, "Past digests")  # the key its mails carry now
            assert archive_of(now_past) == keys[-1]
            assert days_of(http, archive_of(past)) == made
            assert http.get(f"{past}feed.atom").status_code == 200
    config = web.root / "digest.toml"
    rotated = "rotated-secret-eeeeeeeeeeeeeeeeeeee"
    config.write_text(config.read_text(encoding="utf-8").replace(SECRET, rotated), "utf-8")
    with web.web() as http:  # the secret rotated: the reader's keys anew, all its digests
        for name in dict.fromkeys(("ana", *names)):
            assert days_of(http, Signer(rotated).archive_key(name)) == made


def archive_of(url: str) -> str:
    return url.split("/a/", 1)[1].split("/", 1)[0]

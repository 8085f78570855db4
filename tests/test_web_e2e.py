"""End to end in headless Chromium, as a reader meets it: a digest delivered to aiosmtpd, its 👍
link opened and clicked, the rating in `digest ratings` and moving the next `digest rank`; the
archive and the feed loaded in the same browser, their styles allowed by the page's own CSP; an
alert's 👍 naming a journal's copy folded since into the arXiv paper rates that paper."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from support_browser import expect
from web_project import GRAPHS, IMAGES, MONDAY, SECRET, Project, papers_file, project

from digest.web.tokens import Signer


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def ranked(p: Project, capsys: Any, papers: Path) -> dict[str, float]:
    code, out, err = p.digest(capsys, "rank", "--papers", str(papers), "--top", "10")
    assert code == 0, err
    return {item["id"]: item["score"] for item in json.loads(out)["ana"]}


def test_a_thumbs_up_clicked_in_the_browser_moves_the_next_rank(web: Project, capsys, browser_page):
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    (mail,) = web.mails("ana@example.org")
    html = web.html_of(mail)
    ups = web.links(html, "👍")
    ids = [i for i in ("g1", "g2", "d1", "d2") if f">{i}</code>" in html]
    tuesday = papers_file(web.root / "tuesday.jsonl", GRAPHS + IMAGES)
    before = ranked(web, capsys, tuesday)
    page = browser_page
    with web.web():
        page.goto(ups[0])
        expect(page.get_by_role("heading")).to_have_text("Rate this paper")
        assert json.loads(web.digest(capsys, "ratings", "--format", "json")[1]) == []
        started = time.monotonic()
        page.get_by_role("button", name="Record my rating").click()
        expect(page.get_by_role("heading")).to_have_text("Rating recorded")
        took = time.monotonic() - started
        expect(page.get_by_role("button", name="Undo")).to_be_visible()
    (rated,) = json.loads(web.digest(capsys, "ratings", "--format", "json")[1])
    assert (rated["subscriber"], rated["paper"], rated["vote"], rated["via"]) == (
        "ana", ids[0], "up", "web",
    )  # fmt: skip
    after = ranked(web, capsys, tuesday)
    assert ids[0] not in after  # a liked paper joins the library: never offered again
    topic = "g" if ids[0].startswith("g") else "d"
    same = [i for i in after if i.startswith(topic)]
    assert all(after[i] > before[i] for i in same)  # its topic rose
    print(f"click to rating stored (browser round trip): {took * 1000:.0f} ms")


def test_the_archive_and_feed_show_in_the_browser(web: Project, capsys, browser_page) -> None:
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    page = browser_page
    violations: list[str] = []
    page.on(
        "console", lambda m: violations.append(m.text) if "Content Security" in m.text else None
    )
    key = Signer(SECRET).archive_key("ana")
    with web.web():
        page.goto(f"{web.base}/a/{key}/")
        expect(page.get_by_role("heading")).to_have_text("Past digests for ana")
        page.get_by_role("link", name="2026-11-30").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("Paper digest for ana")
        size = page.evaluate("getComputedStyle(document.querySelector('h1')).fontSize")
        assert size == "22px"  # the mail's inline styles apply: the CSP hashes allow them
        assert page.get_by_role("link", name="👍 more like this").count() == 2
        answer = page.goto(f"{web.base}/a/{key}/feed.atom")
        assert answer.status == 200
        assert "Graph" in page.content() or "diffusion" in page.content().lower()
    assert violations == []


def test_an_alerts_thumbs_up_for_a_copy_folded_since_rates_the_arxiv_paper(
    web: Project, capsys, browser_page
) -> None:
    """The journal's copy the alert named was folded into the arXiv paper: its 👍 opened
    "Unknown paper", and the reader's vote was lost."""
    from test_web_app import ARXIV_TITLE, folded_alert

    up, _, _ = folded_alert(web, capsys)
    page = browser_page
    with web.web():
        page.goto(up)
        expect(page.get_by_role("heading")).to_have_text("Rate this paper")
        expect(page.get_by_text(ARXIV_TITLE)).to_be_visible()
        page.get_by_role("button", name="Record my rating").click()
        expect(page.get_by_role("heading")).to_have_text("Rating recorded")
        (rated,) = json.loads(web.digest(capsys, "ratings", "--format", "json")[1])
        assert (rated["paper"], rated["vote"], rated["via"]) == ("2599.00001", "up", "web")
        page.get_by_role("button", name="Undo").click()
        expect(page.get_by_role("heading")).to_have_text("Rating taken back")
    assert json.loads(web.digest(capsys, "ratings", "--format", "json")[1]) == []


def test_a_title_of_one_long_word_wraps_on_a_phone(browser_page) -> None:
    """The rating, recorded and undo pages ran 11,094 px wide at 390 for such a title."""
    from digest.web.pages import page

    title = "Federated unlearning " + "A" * 900
    browser_page.set_viewport_size({"width": 390, "height": 800})
    browser_page.set_content(page("Rate this paper", f"<p><strong>{title}</strong></p>"))
    assert browser_page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_older_mails_unsubscribe_after_its_name_was_reused_stops_the_reader_who_clicked(
    web: Project, capsys
) -> None:
    """ops22 F1, its history through `digest run` and the face on 127.0.0.1: ana renamed ana1
    and ben taken out, then ben back and a newcomer named ana at ana2@. The Monday mail's
    one-click (as a mail provider posts it) had stopped the newcomer, and ana@ was mailed on."""
    from test_web_app import NEWCOMER, mailed, unsubscribe_link

    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    (monday,) = web.mails("ana@example.org")
    config = web.root / "digest.toml"
    renamed = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"')
    config.write_text(renamed.split('[[subscribers]]\nname = "ben"')[0], "utf-8")  # ben out
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    assert web.digest(capsys, "run", "--now", "2026-12-01T09:00:00+00:00")[0] == 0
    config.write_text(renamed + NEWCOMER, "utf-8")  # ben back, and a newcomer named ana
    fresh = [("w1", "Graph transformers for molecules", "Graph transformers on graphs.")]
    papers_file(web.root / "feed" / "wednesday.jsonl", fresh)
    assert web.digest(capsys, "run", "--now", "2026-12-02T09:00:00+00:00")[0] == 0
    assert mailed(web, "ana@example.org") == 3 and mailed(web, "ana2@example.org") == 1
    with web.web() as http:
        done = http.post(unsubscribe_link(monday), content=b"List-Unsubscribe=One-Click")
        assert done.status_code == 200 and "No more e-mail digests go to ana1." in done.text
    out = web.digest(capsys, "status", "--now", "2026-12-03T09:00:00+00:00")[1]
    assert "ana1/email: email paused by the reader" in out and "ana/email" not in out
    fresh = [("t1", "Molecular graph generation", "Graph generation for molecules and images.")]
    papers_file(web.root / "feed" / "thursday.jsonl", fresh)
    assert web.digest(capsys, "run", "--now", "2026-12-03T09:00:00+00:00")[0] == 0
    assert mailed(web, "ana@example.org") == 3  # none after the click
    assert mailed(web, "ana2@example.org") == 2  # the newcomer never unsubscribed

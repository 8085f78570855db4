"""What the confirm pages say is in force, on a real face over a real state: a rating link's page
says whether and how the paper is rated, since when; the unsubscribe page, once the mail is
stopped, says since when and asks nothing more; an undo or rating link whose time is over says
so, names its paper and what to use instead. A GET changes nothing."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from test_web_app import first_links, ratings, strict, undo_of
from web_project import MONDAY, SECRET, TUESDAY, Project, project

from digest.web.standing import unsubscribe, when
from digest.web.tokens import Signer

GRAPH_TITLE = "Graph neural networks for molecule property prediction"


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def paper_of(link: str) -> str:
    fields = Signer(SECRET).check(link.rsplit("/", 1)[1], "v", 0)
    assert fields is not None
    return str(fields[1])


def test_a_time_is_shown_on_the_readers_clock() -> None:
    assert when("2026-12-06T10:14:00Z", "Europe/Berlin") == "2026-12-06 at 11:14 (Europe/Berlin)"
    assert when("2026-12-06T23:30:00Z", "Asia/Tokyo") == "2026-12-07 at 08:30 (Asia/Tokyo)"
    assert when("not a time", "UTC") == "not a time"  # shown as stored, never a 500


def test_a_rating_links_page_says_how_the_paper_is_rated_now(web: Project, capsys) -> None:
    """A 👍 link of a paper already rated 👍 asked again with no word that it was."""
    _, ups = first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    (down,) = [d for d in web.links(web.html_of(mail), "👎") if paper_of(d) == paper_of(ups[0])]
    with web.web() as http:
        assert "You have not rated this paper yet." in http.get(ups[0]).text
        done = http.post(ups[0])
        again = http.get(ups[0])
        assert again.status_code == 200 and "Record my rating" in again.text
        (rated,) = ratings(web, capsys)
        day, clock = rated["at"][:10], rated["at"][11:16]
        said = f"You rated this <strong>👍 more like this</strong> on {day} at {clock} (UTC)"
        assert f"{said}; recording it again changes nothing." in again.text
        other = http.get(down)  # the 👎 link says what it would change
        assert f"{said}." in other.text and "changes nothing" not in other.text
        assert f"{said}." in http.get(undo_of(done)).text  # the undo's page too
        assert ratings(web, capsys) == [rated]  # every GET only asked
        assert "taken back" in http.post(undo_of(done)).text
        undone = http.get(undo_of(done))
        assert "You have not rated this paper; there is nothing to take back." in undone.text
        strict(undone)


def test_the_unsubscribe_page_after_unsubscribing_says_since_when_and_asks_nothing(
    web: Project, capsys
) -> None:
    """After "Unsubscribed", Back or Reload asked again as if nothing had happened."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    url = mail["List-Unsubscribe"].strip().strip("<>")
    with web.web() as http:
        asked = http.get(url)
        assert "Stop the e-mail digests" in asked.text and "<form" in asked.text
        assert "stopped since" not in asked.text
        assert "No more e-mail" in http.post(url, content=b"List-Unsubscribe=One-Click").text
        again = http.get(url)
        assert again.status_code == 200 and "<form" not in again.text
        assert "E-mail digests for <strong>ana</strong> are stopped since 20" in again.text
        assert "digest resume" in again.text
        strict(again)
        assert http.head(url).status_code == 200
    toml = web.root / "digest.toml"  # a second address, added since: it still gets digests
    first = '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n'
    second = first + first.replace("ana@example.org", "ana@work.example")
    toml.write_text(toml.read_text(encoding="utf-8").replace(first, second), encoding="utf-8")
    with web.web() as http:
        partly = http.get(url)
        assert "are stopped since 20" in partly.text
        # The link names its mail's address alone: the one added since is not its to stop.
        assert "<form" not in partly.text
    code, out, _ = web.digest(capsys, "status", "--now", TUESDAY)
    assert "ana/email: email paused by the reader" in out and "email-2: email paused" not in out


def test_an_undo_after_its_day_says_so_names_the_paper_and_what_to_use(web: Project, capsys):
    """An undo clicked a day after its vote (a tab left open overnight) was told the link was
    damaged and that the next digest has fresh links: no digest carries an undo link."""
    _, ups = first_links(web, capsys)
    signer = Signer(SECRET)
    with web.web() as http:
        done = http.post(ups[0])
        undo = undo_of(done).rsplit("/", 1)[1]
        fields = signer.check(undo, "x", 0)
        assert fields is not None
        late = signer.sign("x", *fields, 1)  # its day over
        (rated,) = ratings(web, capsys)
        for method in ("GET", "POST"):
            answer = http.request(method, f"/r/{late}")
            assert answer.status_code == 403 and "Too late to undo" in answer.text
            assert "An undo works for a day" in answer.text and GRAPH_TITLE in answer.text
            assert "use its 👍 or 👎 link in the digest" in answer.text
            assert "You rated this <strong>👍 more like this</strong>" in answer.text
            assert "damaged" not in answer.text
            strict(answer)
    assert ratings(web, capsys) == [rated]  # nothing was taken back


def test_a_rating_link_past_its_180_days_says_so_and_names_its_paper(web: Project, capsys):
    _, ups = first_links(web, capsys)
    old = Signer(SECRET).sign("v", "ana", paper_of(ups[0]), "up", 1)
    with web.web() as http:
        for method in ("GET", "POST"):
            answer = http.request(method, f"/r/{old}")
            assert answer.status_code == 403 and "This link has expired" in answer.text
            assert GRAPH_TITLE in answer.text and "work for 180 days" in answer.text
            assert "You have not rated this paper." in answer.text
    assert ratings(web, capsys) == []
    assert json.loads(web.digest(capsys, "ratings", "--format", "json")[1]) == []


def test_a_digest_mailed_to_several_addresses_says_it_stops_for_all_of_them(
    web: Project, capsys
) -> None:
    """One co-recipient's unsubscribe stops the lab's digest for everyone: its page says so
    before anything is stopped (and the mail offers no one-click: tests/test_channels_email)."""
    toml = web.root / "digest.toml"
    one = 'to = "ana@example.org"\n'
    lab = 'to = ["ana@example.org", "colleague@example.org"]\n'
    toml.write_text(toml.read_text(encoding="utf-8").replace(one, lab, 1), encoding="utf-8")
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    assert mail["List-Unsubscribe-Post"] is None
    url = mail["List-Unsubscribe"].strip().strip("<>")
    with web.web() as http:
        asked = http.get(url)
    assert "go to 2 addresses in one mail: this stops them for all of them" in asked.text
    assert "<form" in asked.text


def test_an_old_link_after_a_rename_says_stopped_before_a_run_moved_the_pause(
    web: Project, capsys
) -> None:
    """Renamed (ana -> ana-lab) beside the reader's other subscription at the same address
    (ana-vision), with no run since: the old link's page asked "Stop the e-mail digests for
    ana-lab?" again, though the next run holds them; the pause is ana's until a run moves it."""
    toml = web.root / "digest.toml"
    vision = (
        '[[subscribers]]\nname = "ana-vision"\ninterests = "diffusion models for images"\n'
        '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n\n'
    )
    text = toml.read_text(encoding="utf-8")
    toml.write_text(
        text.replace('[[subscribers]]\nname = "ben"', vision + '[[subscribers]]\nname = "ben"'),
        "utf-8",
    )
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    (mail,) = [m for m in web.mails("ana@example.org") if "for ana " in str(m["Subject"])]
    url = mail["List-Unsubscribe"].strip().strip("<>")
    with web.web() as http:
        assert "No more e-mail digests go to ana." in http.post(url).text
    text = toml.read_text(encoding="utf-8").replace('name = "ana"\n', 'name = "ana-lab"\n')
    toml.write_text(text, "utf-8")
    with web.web() as http:
        again = http.get(url)
    assert "E-mail digests for <strong>ana-lab</strong> are stopped since 20" in again.text
    assert "<form" not in again.text and "ana-vision" not in again.text
    strict(again)


def test_the_unsubscribe_question_says_what_goes_on_after_it() -> None:
    """A fixed "Other channels go on." had been said to a reader with no other channel (web2
    F4): what goes on is said by name, or that nothing does; of channels not known, nothing."""
    button = "<form></form>"

    def asked(others: list[str], elsewhere: list[str] | None) -> str:
        _, body = unsubscribe(
            "lab", ["email"], None, "UTC", button, {"email": 1}, others, elsewhere
        )
        return body

    alone = asked([], [])
    assert "There is no other channel: after this, no digest goes to <strong>lab</strong>." in alone
    assert "go on" not in alone and "Still" not in alone
    assert "Still delivered after this: email-2, file, slack." in asked(
        ["email-2"], ["file", "slack"]
    )
    assert "Still delivered after this: file." in asked([], ["file"])
    assert "Still mailed after this: email-2." in asked(["email-2"], None)  # the others unknown
    unknown = asked([], None)
    assert "Stop the e-mail digests for <strong>lab</strong>?</p>" in unknown
    assert "channel" not in unknown.split("<form>")[0]
    for body in (alone, unknown):
        assert body.endswith(button)


def test_no_unsubscribe_page_says_other_channels_go_on_of_a_reader_with_none(
    web: Project, capsys
) -> None:
    """ben has one e-mail channel and nothing else: his page had said "Other channels go on."."""
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    with web.web() as http:
        for to in ("ben@example.org", "ana@example.org"):
            (mail,) = web.mails(to)
            asked = http.get(mail["List-Unsubscribe"].strip().strip("<>"))
            assert "Stop the e-mail digests for" in asked.text and "<form" in asked.text
            assert "Other channels go on" not in asked.text


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
# In TOML: a name with bidi controls (the config refuses C0 and C1), HTML-looking characters.
ODD_NAME = r"<img src=x>Zoë & \"Co\" 'x' \u202Eevil\u2066\u202A \u2067\u202Bred"
ODD_SHOWN = "<img src=x>Zoë & \"Co\" 'x' evil red"


def test_a_names_controls_leave_every_page_and_mail_chromium_shows(
    web: Project, capsys, browser_page
) -> None:
    """A name's U+202E had left the subject and text part but not the HTML mail, the archive
    or the unsubscribe page: Chromium showed "evil" as "live" (web2 F2)."""
    toml = web.root / "digest.toml"
    text = toml.read_text(encoding="utf-8")
    toml.write_text(text.replace('name = "ben"', f'name = "{ODD_NAME}"'), encoding="utf-8")
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    (mail,) = web.mails("ben@example.org")
    html = web.html_of(mail)
    (archive,) = re.findall(r'<a href="([^"]+)"[^>]*>Past digests', html)
    unsubscribe_url = mail["List-Unsubscribe"].strip().strip("<>")
    page = browser_page
    with web.web():
        page.set_content(html)
        shown = [page.title(), page.locator("body").inner_text()]
        page.goto(archive)
        shown += [page.title(), page.locator("body").inner_text()]
        page.get_by_role("link", name="2026-11-30").click()  # the digest's page in the archive
        shown += [page.title(), page.locator("body").inner_text()]
        titles = [
            t.split(". ", 1)[1] for t in page.get_by_role("heading", level=2).all_inner_texts()
        ]
        for title in titles:  # each vote link names its paper (web2 F3), here as in the mail
            for vote in ("👍 more like this", "👎 less like this"):
                assert page.get_by_role("link", name=f"{vote} {title}", exact=True).count() == 1
        assert len(titles) == 2
        page.goto(unsubscribe_url)  # its title is "Unsubscribe"
        shown += [page.locator("body").inner_text()]
    assert [t for t in shown if ODD_SHOWN not in t] == []
    assert [c for t in shown for c in t if c in BIDI] == []


def test_the_unsubscribe_page_names_what_goes_on_or_that_nothing_does(web: Project, capsys) -> None:
    """ben has one e-mail channel, ana a file and a Slack channel besides: each page had said
    "Other channels go on." (web2 F4)."""
    assert web.digest(capsys, "run", "--now", MONDAY)[0] == 0
    said = {}
    with web.web() as http:
        for who in ("ben", "ana"):
            (mail,) = web.mails(f"{who}@example.org")
            said[who] = http.get(mail["List-Unsubscribe"].strip().strip("<>")).text
    alone = "There is no other channel: after this, no digest goes to <strong>ben</strong>."
    assert alone in said["ben"] and "go on" not in said["ben"]
    assert "Still delivered after this: file, slack." in said["ana"]

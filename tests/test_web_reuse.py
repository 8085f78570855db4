"""A name reused (ana renamed ana1 at ana@, then a newcomer named ana at ana2@), as the web face
meets the links of both readers' mails: the earlier reader's 👍/👎 (and undo, and an expired
one's page) never rate for the newcomer, and each reader's archive key shows its own digests.
And the unsubscribe pages of a reader with several e-mail channels say which are stopped."""

from __future__ import annotations

import base64
import json
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_web_app import ratings, slack_click
from web_project import GRAPHS, IMAGES, MONDAY, SECRET, TUESDAY, Project, papers_file, project

from digest.state import Store
from digest.web.tokens import Signer, links_in

WEDNESDAY = "2026-12-02T09:00:00+00:00"
NEWCOMER = (
    '\n[[subscribers]]\nname = "ana"\ninterests = "graph neural networks for molecules"\n'
    '[[subscribers.channels]]\nkind = "email"\nto = "ana2@example.org"\n'
)


@pytest.fixture
def web(tmp_path: Path) -> Any:
    with project(tmp_path) as p:
        yield p


def run(p: Project, capsys: Any, now: str) -> None:
    code, _, err = p.digest(capsys, "run", "--now", now)
    assert code == 0, err


def monday(p: Project, capsys: Any) -> str:
    """The Monday digest to ana@; its html."""
    run(p, capsys, MONDAY)
    (mail,) = p.mails("ana@example.org")
    return p.html_of(mail)


def reuse(p: Project, capsys: Any, in_one_edit: bool) -> None:
    """ana renamed ana1 and the name given to a newcomer at ana2@: in one edit (Tuesday), or a
    run later (Wednesday); the newcomer's first digest goes out."""
    config = p.root / "digest.toml"
    renamed = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"')
    config.write_text(renamed + (NEWCOMER if in_one_edit else ""), "utf-8")
    papers_file(p.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    run(p, capsys, TUESDAY)
    if not in_one_edit:
        config.write_text(renamed + NEWCOMER, "utf-8")
        fresh = [("w1", "Graph transformers for molecules", "Graph transformers on graphs.")]
        papers_file(p.root / "feed" / "wednesday.jsonl", fresh)
        run(p, capsys, WEDNESDAY)
    assert len(p.mails("ana2@example.org")) == 1


def archive_key(url: str) -> str:
    return url.split("/a/", 1)[1].split("/", 1)[0]


@pytest.mark.parametrize("in_one_edit", [False, True])
def test_an_earlier_readers_votes_never_rate_for_the_newcomer_of_the_name(
    web: Project, capsys, in_one_edit: bool
) -> None:
    """ops25 F1: the Monday 👍 of ana, renamed ana1 since and the name given to a newcomer, was
    recorded as the newcomer's, and led the newcomer's next digest. It is an earlier
    subscription's link now, as after a rename alone; the newcomer's own links rate."""
    html = monday(web, capsys)
    ups = web.links(html, "👍")
    (payload,) = web.slack.accepted  # ana's Slack message: its buttons carry the same tokens
    reuse(web, capsys, in_one_edit)
    signer = Signer(SECRET)
    paper = json.loads(_payload(ups[0]))[2]
    undo = signer.sign("x", "ana", paper, "k", int(time.time()) + 3600)
    late = signer.sign("v", "ana", paper, "up", int(time.time()) - 60)
    with web.web() as http:
        for url in (ups[0], f"/r/{undo}"):
            for answer in (http.get(url), http.post(url)):
                assert answer.status_code == 410 and "earlier subscription" in answer.text
        expired = http.get(f"/r/{late}")
        assert expired.status_code == 410 and "You rated" not in expired.text
        actions = [b for b in payload["blocks"] if b["type"] == "actions"]
        up = next(e for e in actions[0]["elements"] if e["action_id"].startswith("digest-up"))
        body, headers = slack_click(up, actions[0]["block_id"])
        assert http.post("/slack/actions", content=body, headers=headers).status_code == 200
    assert ratings(web, capsys) == []
    (mail,) = web.mails("ana2@example.org")
    (own, *_) = web.links(web.html_of(mail), "👍")
    with web.web() as http:
        assert "for ana's next digests" in http.get(own).text
        assert http.post(own).status_code == 200
    (rated,) = ratings(web, capsys)
    assert rated["subscriber"] == "ana" and rated["paper"] in ("g3", "w1")


@pytest.mark.parametrize("in_one_edit", [False, True])
def test_the_earlier_readers_own_ratings_do_not_steer_the_newcomer_of_the_name(
    web: Project, capsys, in_one_edit: bool
) -> None:
    """Ratings are kept by name: ana's Monday 👍, given before she was renamed ana1 and the name
    went to a newcomer, had joined the newcomer's library at every run since."""
    from digest.corpus import rated

    html = monday(web, capsys)
    up = web.links(html, "👍")[0]
    with web.web() as http:
        assert http.post(up).status_code == 200  # ana's own vote, while she is ana
    paper = json.loads(_payload(up))[2]
    reuse(web, capsys, in_one_edit)
    settings = web.settings()
    with Store(web.state) as store:
        assert paper in {p.id for p in store.ratings.of("ana")[0]}  # kept, by name
        by_name = {s.name: s for s in rated(settings, store, settings.subscribers)}
    assert paper not in {p.id for p in by_name["ana"].profile.library}


def _payload(url: str) -> str:
    body = url.rsplit("/r/", 1)[1].split(".")[0]
    return base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()


@pytest.mark.parametrize("in_one_edit", [False, True])
def test_a_reused_names_present_reader_has_an_archive_key_of_its_own(
    web: Project, capsys, in_one_edit: bool
) -> None:
    """ops25 F2: the key was the secret and the name, so the newcomer's mails carried the
    earlier reader's key and each read the other's digests. The name's key, which the earlier
    reader's mails carry, shows the digests before the reuse; the newcomer's is keyed with the
    run of its first digest. A name never reused keeps its key."""
    signer = Signer(SECRET)
    html = monday(web, capsys)
    (old,) = set(re.findall(r"/a/([^/\"]+)/", html))
    assert old == signer.archive_key("ana")  # never reused: the key as it always was
    reuse(web, capsys, in_one_edit)
    newest = "2026-12-01" if in_one_edit else "2026-12-02"
    hers = (
        ["2026-12-01", "2026-11-30"] if in_one_edit else ["2026-12-02", "2026-12-01", "2026-11-30"]
    )
    with web.web() as http:  # the earlier reader's key: hers, as ana and ana1, not his
        assert listed(http, old) == hers  # web2 F1: ana1's had been left out
    settings = web.settings()
    by_name = {s.name: s for s in settings.subscribers}
    newcomer = by_name["ana"]
    with Store(web.state) as store:
        links = links_in(settings, store, newcomer, datetime.now(UTC))
        ben = links_in(settings, store, by_name["ben"], datetime.now(UTC))
    assert links is not None and ben is not None
    new = archive_key(links.archive())
    assert new != old and archive_key(ben.archive()) == signer.archive_key("ben")
    (mail,) = web.mails("ana2@example.org")  # the newcomer's mail carries its own key
    assert set(re.findall(r"/a/([^/\"]+)/", web.html_of(mail))) == {new}
    with web.web() as http:
        present = http.get(f"/a/{new}/")
        assert present.status_code == 200 and newest in present.text
        assert "2026-11-30" not in present.text
        feed = http.get(f"/a/{new}/feed.atom").text
        assert f"/a/{new}/" in feed and f"/a/{old}/" not in feed
        (period,) = _periods(present.text)
        her_page = http.get(f"/a/{old}/d/{period}").text  # ana1's digest of that day, not his
        assert f"/a/{new}/" not in her_page and "for ana1" in her_page
        page = http.get(f"/a/{new}/d/{period}")
        assert page.status_code == 200 and f"/a/{new}/" in page.text
        assert http.get(f"/a/{signer.archive_key('ana', 'x')}/").status_code == 404


def _periods(index: str) -> list[str]:
    from urllib.parse import unquote

    return [unquote(p) for p in re.findall(r'href="d/([^"]+)"', index)]


HOME = '\n[[subscribers.channels]]\nkind = "email"\nto = "ana.home@example.net"\n'
MAIL = '[[subscribers.channels]]\nkind = "email"\nto = "ana@example.org"\n'


def test_two_e_mail_channels_are_not_one_mail_of_two_addresses(web: Project, capsys) -> None:
    """ops25 F3 (A): ana's two e-mail channels, two mails, were "2 addresses in one mail"; a
    channel of two addresses beside one of its own is named."""
    config = web.root / "digest.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(MAIL, MAIL + HOME), "utf-8")
    monday(web, capsys)
    (mail,) = web.mails("ana@example.org")
    link = str(mail["List-Unsubscribe"]).strip().strip("<>")
    with web.web() as http:
        asked = http.get(link)
        assert asked.status_code == 200 and "Stop the e-mail digests for" in asked.text
        assert "in one mail" not in asked.text
    two = MAIL.replace('"ana@example.org"', '["ana@example.org", "lab@example.org"]')
    config.write_text(config.read_text(encoding="utf-8").replace(MAIL, two), "utf-8")
    with web.web() as http:
        asked = http.get(link)
        assert "The digests on email go to 2 addresses in one mail" in asked.text
        assert "email-2 go to" not in asked.text


def test_the_page_reloaded_after_a_one_click_names_the_channels_stopped_and_mailed(
    web: Project, capsys
) -> None:
    """ops25 F3 (B): after the click, Back or Reload said "E-mail digests for ana are stopped"
    while her other e-mail channel, added since the mail, was mailed on."""
    monday(web, capsys)
    (mail,) = web.mails("ana@example.org")
    link = str(mail["List-Unsubscribe"]).strip().strip("<>")
    config = web.root / "digest.toml"
    config.write_text(config.read_text(encoding="utf-8").replace(MAIL, MAIL + HOME), "utf-8")
    with web.web() as http:
        done = http.post(link, content=b"List-Unsubscribe=One-Click")
        assert "on email; still mailed: email-2" in done.text
        again = http.get(link)
        assert again.status_code == 200 and "Nothing more to do here" in again.text
        assert " on email; still mailed: email-2." in again.text, again.text


def test_the_newcomers_key_rendered_in_its_first_run_is_the_key_the_face_honours(
    web: Project, capsys
) -> None:
    """A run renders its digests before its delivery pass records the newcomer's stints: the
    key is the same then (the run in progress) as after."""
    monday(web, capsys)
    config = web.root / "digest.toml"
    renamed = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"')
    config.write_text(renamed + NEWCOMER, "utf-8")
    settings = web.settings()
    newcomer = next(s for s in settings.subscribers if s.name == "ana")
    tuesday = datetime.fromisoformat(TUESDAY)
    with Store(web.state) as store:
        assert links_in(settings, store, newcomer, tuesday).since == ""  # no run since: none
        run_id = store.start_run(datetime.now(UTC), tuesday)  # as `digest run` renders
        rendered = links_in(settings, store, newcomer, tuesday)
        store.finish_run(run_id, datetime.now(UTC), "ok", {})
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    run(web, capsys, TUESDAY)  # its digest made, then its pass records the stints
    with Store(web.state) as store:
        after = links_in(settings, store, newcomer, tuesday)
    assert rendered is not None and after is not None
    assert rendered.archive() == after.archive() != Signer(SECRET).archive_key("ana")


THURSDAY = "2026-12-03T09:00:00+00:00"
FRIDAY = "2026-12-04T09:00:00+00:00"


def day(p: Project, capsys: Any, now: str, config: str, fresh: list[tuple[str, str, str]]) -> None:
    """A run at `now` over `config`, with `fresh` papers of that day; begun in a second of its
    own (runs are stamped to the second: reuses.cut)."""
    time.sleep(1.01 - time.time() % 1)
    (p.root / "digest.toml").write_text(config, "utf-8")
    papers_file(p.root / "feed" / f"{now[:10]}.jsonl", fresh)
    run(p, capsys, now)


def newest_key(p: Project, to: str) -> str:
    (key,) = set(re.findall(r"/a/([^/\"]+)/", p.html_of(p.mails(to)[-1])))
    return key


def listed(http: Any, key: str) -> list[str]:
    answer = http.get(f"/a/{key}/")
    return [] if answer.status_code == 404 else re.findall(r">(\d{4}-\d\d-\d\d)<", answer.text)


def voted(p: Project, capsys: Any, settings: Any, papers: set[str]) -> None:
    """None of `papers` (the newcomer's votes, kept under the name) leads ana's digests."""
    from digest.corpus import rated

    with Store(p.state) as store:
        assert papers <= {r.id for r in store.ratings.of("ana")[0]}  # kept, by name
        (ana,) = [s for s in rated(settings, store, settings.subscribers) if s.name == "ana"]
    assert not papers & {p.id for p in ana.profile.library}


def _own_ups(p: Project, to: str) -> list[str]:
    return p.links(p.html_of(p.mails(to)[-1]), "👍")


@pytest.mark.parametrize("mailed_again", [False, True])
def test_a_name_back_with_its_earlier_reader_is_not_the_newcomers_who_held_it_between(
    web: Project, capsys, mailed_again: bool
) -> None:
    """ops26 F1, F2 (H, A): ana renamed ana1, a newcomer named ana, then the newcomer taken out
    and ana1 renamed back. Her stint at ana@ was her first (kept, schema 18), the name read as
    never reused: the newcomer's 👍 (given, and his mails' links after) rated for her and led
    her digests, and the name's key showed his digests. Each reads its own."""
    original = (web.root / "digest.toml").read_text(encoding="utf-8")
    monday(web, capsys)
    reuse(web, capsys, in_one_edit=True)
    his = newest_key(web, "ana2@example.org")
    if mailed_again:
        config = (web.root / "digest.toml").read_text(encoding="utf-8")
        day(web, capsys, WEDNESDAY, config, [("w1", "Graph networks of molecules", "Graphs.")])
    first, *rest = _own_ups(web, "ana2@example.org")
    with web.web() as http:
        assert http.post(first).status_code == 200  # his, while he is ana
    back = THURSDAY if mailed_again else WEDNESDAY
    day(web, capsys, back, original, [("t1", "Graph networks for molecules", "Molecules.")])
    settings = web.settings()
    voted(web, capsys, settings, {json.loads(_payload(first))[2]})
    with web.web() as http:
        for url in (first, *rest):
            for answer in (http.get(url), http.post(url)):
                assert answer.status_code == 410 and "earlier subscription" in answer.text
        (own, *_) = _own_ups(web, "ana@example.org")  # hers, back: rates for her
        assert "for ana's next digests" in http.get(own).text
        hers = listed(http, Signer(SECRET).archive_key("ana"))
        assert newest_key(web, "ana@example.org") == Signer(SECRET).archive_key("ana")
        between = ["2026-12-01", "2026-12-02"][: 1 + mailed_again]
        assert hers == [back[:10], "2026-11-30"]
        assert listed(http, his) == between[::-1]


def test_a_reader_deleted_and_put_back_at_her_address_is_not_the_newcomer_between(
    web: Project, capsys
) -> None:
    """ops26 F1, F2 (E): ana taken out, a run later a newcomer named ana at ana2@, then ana
    back at ana@ (the newcomer taken out): his 👍 rated for her and his digests were under the
    name's key, and his own key was 404."""
    original = (web.root / "digest.toml").read_text(encoding="utf-8")
    monday(web, capsys)
    start = original.index('[[subscribers]]\nname = "ana"')
    without = original[:start] + original[original.index('[[subscribers]]\nname = "ben"') :]
    day(web, capsys, TUESDAY, without, [("u1", "Diffusion for images", "Image diffusion.")])
    day(web, capsys, WEDNESDAY, without + NEWCOMER, [("w1", "Graph molecules", "Graphs.")])
    his = newest_key(web, "ana2@example.org")
    first, *rest = _own_ups(web, "ana2@example.org")
    with web.web() as http:
        assert http.post(first).status_code == 200
    day(web, capsys, THURSDAY, original, [("t1", "Graph networks for molecules", "Molecules.")])
    voted(web, capsys, web.settings(), {json.loads(_payload(first))[2]})
    with web.web() as http:
        for url in (first, *rest):
            assert http.post(url).status_code == 410
        assert listed(http, Signer(SECRET).archive_key("ana")) == ["2026-12-03", "2026-11-30"]
        assert listed(http, his) == ["2026-12-02"]


def test_a_name_reused_twice_keeps_each_readers_digests_under_its_own_key(
    web: Project, capsys
) -> None:
    """ops26 F2 (C): ana renamed ana1 and a newcomer named ana, then the newcomer renamed and a
    second newcomer named ana: the name's key showed the first newcomer's digest, and his own
    key (his mail's) was 404."""
    monday(web, capsys)
    reuse(web, capsys, in_one_edit=True)
    first = newest_key(web, "ana2@example.org")
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    second = NEWCOMER.replace("ana2@", "ana3@").replace("graph neural", "diffusion")
    renamed = config.replace(NEWCOMER, NEWCOMER.replace('"ana"', '"ana2"')) + second
    day(web, capsys, WEDNESDAY, renamed, [("w1", "Diffusion of images", "Images diffused.")])
    day(web, capsys, THURSDAY, renamed, [("t1", "Latent image diffusion", "Images.")])
    newest = newest_key(web, "ana3@example.org")
    with web.web() as http:
        # web2 F1: each reader's under each of its names (ana1; ana2, whose own had no paper)
        days = ["2026-12-03", "2026-12-02", "2026-12-01", "2026-11-30"]
        assert listed(http, Signer(SECRET).archive_key("ana")) == days
        assert listed(http, first) == ["2026-12-01"]
        assert "Past digests for ana2" in http.get(f"/a/{first}/").text
        assert listed(http, newest) == ["2026-12-03", "2026-12-02"]
        (up, *_) = web.links(web.html_of(web.mails("ana2@example.org")[0]), "👍")
        assert http.post(up).status_code == 410


def _subjects(p: Project, to: str) -> list[str]:
    return [str(m["Subject"]) for m in p.mails(to)]


def _down(p: Project, capsys: Any, now: str, refused: str) -> None:
    """A run at `now` whose mail to `refused` the relay defers (451 at RCPT): left pending."""
    p.mailbox.rcpt_script[refused] = ["451 4.3.0 Try again later"]
    code, _, err = p.digest(capsys, "run", "--now", now)
    assert code == 1 and "Traceback" not in err
    assert not p.mails(refused)


def _dead_for_an_earlier_reader(p: Project, capsys: Any) -> None:
    """`digest status` says so, as of a row whose name was renamed: dead, and why."""
    _, out, _ = p.digest(capsys, "status")
    (line,) = [x for x in out.splitlines() if x.strip().startswith("dead ")]
    assert "ana/email" in line and "made for an earlier reader of the name" in line


@pytest.mark.parametrize("command", ["run", "retry"])
@pytest.mark.parametrize("notice", [False, True])
def test_a_mail_left_pending_when_its_name_is_reused_never_goes_to_the_newcomer(
    web: Project, capsys, command: str, notice: bool
) -> None:
    """ops27 F1: ana's Monday digest (or quiet-period notice) left pending, the relay down;
    then ana renamed ana1 and a newcomer named ana at ana2@: the next run mailed her digest,
    her archive key and an unsubscribe link that stops ana1, to him. It is dead, as after the
    rename alone (its name gone from the config), and the newcomer's own mail still goes."""
    config = web.root / "digest.toml"
    if notice:  # a quiet Monday: nothing new
        papers_file(web.root / "feed" / "monday.jsonl", [])
        text = config.read_text(encoding="utf-8")
        config.write_text(text.replace('name = "ana"\n', 'name = "ana"\non_empty = "notify"\n'))
    _down(web, capsys, MONDAY, "ana@example.org")
    time.sleep(1.01 - time.time() % 1)  # runs are stamped to the second (reuses.cut)
    renamed = config.read_text(encoding="utf-8").replace('name = "ana"', 'name = "ana1"')
    config.write_text(renamed + NEWCOMER, "utf-8")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    args = ("run", "--now", TUESDAY) if command == "run" else ("retry",)
    code, _, err = web.digest(capsys, *args)
    assert not [s for s in _subjects(web, "ana2@example.org") if "2026-11-30" in s]
    assert len(web.mails("ana2@example.org")) == (command == "run")  # his own Tuesday digest
    assert not [s for s in _subjects(web, "ana@example.org") if "2026-11-30" in s]
    assert code == 1 and "Traceback" not in err  # dead, as after a rename
    _dead_for_an_earlier_reader(web, capsys)


def test_a_newcomers_pending_mail_never_goes_to_the_earlier_reader_back_at_the_name(
    web: Project, capsys
) -> None:
    """The other way (ops27 F1): the newcomer's Tuesday digest left pending, then he is taken
    out and ana1 renamed back to ana: his digest is not hers."""
    original = (web.root / "digest.toml").read_text(encoding="utf-8")
    monday(web, capsys)
    time.sleep(1.01 - time.time() % 1)
    renamed = original.replace('name = "ana"', 'name = "ana1"')
    (web.root / "digest.toml").write_text(renamed + NEWCOMER, "utf-8")
    papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    _down(web, capsys, TUESDAY, "ana2@example.org")
    time.sleep(1.01 - time.time() % 1)
    (web.root / "digest.toml").write_text(original, "utf-8")
    papers_file(web.root / "feed" / "wednesday.jsonl", [("w1", "Graph molecules", "Graphs.")])
    code, _, err = web.digest(capsys, "run", "--now", WEDNESDAY)
    theirs = [s for s in _subjects(web, "ana@example.org") if "for ana " in s]
    assert [re.findall(r"\d{4}-\d\d-\d\d", s) for s in theirs] == [["2026-11-30"], ["2026-12-02"]]
    assert not web.mails("ana2@example.org")
    assert code == 1 and "Traceback" not in err
    _dead_for_an_earlier_reader(web, capsys)


def _read_only_from(p: Project, http: Any, key: str, to: str) -> list[str]:
    """The days `key` lists, each page one of the digests mailed to `to` (its papers)."""
    mailed = [p.links(p.html_of(m), "paper") for m in p.mails(to)]
    index = http.get(f"/a/{key}/").text
    for period in _periods(index):
        page = http.get(f"/a/{key}/d/{period}")
        assert page.status_code == 200 and p.links(page.text, "paper") in mailed, (key, period)
    return listed(http, key)


@pytest.mark.parametrize("his_rename", [False, True])
def test_a_renamed_reader_and_the_newcomer_of_her_old_name_each_read_their_own(
    web: Project, capsys, his_rename: bool
) -> None:
    """web2 F1: ana renamed ana1, a newcomer named ana (and later renamed nico himself): ana1's
    key showed none of her digests as ana. Each reader's keys show its digests under each of
    its names, never one of the other's, whichever name's key an older mail carries."""
    monday(web, capsys)
    reuse(web, capsys, in_one_edit=True)
    his = newest_key(web, "ana2@example.org")
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    if his_rename:
        config = config.replace(NEWCOMER, NEWCOMER.replace('"ana"', '"nico"'))
    day(web, capsys, WEDNESDAY, config, [("w1", "Graph transformers for molecules", "Graphs.")])
    signer = Signer(SECRET)
    keys = [signer.archive_key("ana"), signer.archive_key("ana1")]
    with web.web() as http:
        hers = [_read_only_from(web, http, key, "ana@example.org") for key in keys]
        assert hers[0] == hers[1] and hers[0][-2:] == ["2026-12-01", "2026-11-30"]
        mine = [his, newest_key(web, "ana2@example.org")]
        mine += [signer.archive_key("nico")] if his_rename else []
        listings = {tuple(_read_only_from(web, http, key, "ana2@example.org")) for key in mine}
        assert len(listings) == 1 and "2026-11-30" not in listings.pop()


def test_two_readers_who_swap_names_each_keep_their_own_archive(web: Project, capsys) -> None:
    """ana and ben swap addresses (ana at ben@, ben at ana@): no rename the runs follow, so each
    name's keys show the digests of the reader at its address then, none of the other's."""
    monday(web, capsys)
    config = (web.root / "digest.toml").read_text(encoding="utf-8")
    swapped = config.replace("ana@example.org", "x@").replace("ben@example.org", "ana@example.org")
    day(web, capsys, TUESDAY, swapped.replace("x@", "ben@example.org"), [GRAPHS[2], IMAGES[2]])
    signer = Signer(SECRET)
    with web.web() as http:
        for name, to in (("ana", "ana@example.org"), ("ben", "ben@example.org")):
            first = _read_only_from(web, http, signer.archive_key(name), to)
            assert first == ["2026-11-30"]
            assert newest_key(web, to) != signer.archive_key(name)
            assert _read_only_from(web, http, newest_key(web, to), to) == ["2026-12-01"]

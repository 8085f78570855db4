"""The openreview source against a real server on 127.0.0.1 answering in OpenReview's API v2
JSON: values wrapped as {"value": ...}, paging by offset and count, the forum link, the public
decision, submissions by invitation, and the API's own error messages."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest
from feedserver import Answer, FeedServer, serve

from digest.models import Paper, SourceConfig, SourceError
from digest.sources.openreview import OpenReviewSource, markdown, plain, web_base
from digest.sources.web import Policy

VENUE = "NeurIPS.cc/2025/Conference"
PDATE = 1760000000000  # 2025-10-09 in milliseconds, as the API writes times


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


def note(forum: str, title: str, **content: Any) -> dict[str, Any]:
    """A note as API v2 returns it: every content field wrapped in {"value": ...}."""
    fields = {
        "title": title,
        "abstract": f"{title} is studied at length.",
        "authors": ["Ada Lovelace", "Alan Turing"],
        "keywords": ["federated learning", "privacy"],
        "venue": "NeurIPS 2025 poster",
        "venueid": VENUE,
        "pdf": f"/pdf/{forum}.pdf",
        **content,
    }
    return {
        "id": forum,
        "forum": forum,
        "number": 1,
        "cdate": PDATE - 10**9,
        "pdate": PDATE,
        "invitations": [f"{VENUE}/-/Submission", f"{VENUE}/-/Post_Submission"],
        "content": {k: {"value": v} for k, v in fields.items()},
    }


NOTES = [note(f"F{i:03d}abc", f"Paper number {i} on private federated learning") for i in range(5)]


def paged(query: dict[str, str]) -> Answer:
    offset, limit = int(query["offset"]), int(query["limit"])
    body = {"notes": NOTES[offset : offset + limit], "count": len(NOTES)}
    return Answer(body=json.dumps(body), content_type="application/json")


def fetch(server: FeedServer, venue: str = VENUE, page: int = 2) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    config = SourceConfig("openreview", "neurips", {"url": server.url, "venue": venue})
    source = OpenReviewSource(Policy(timeout=2, retries=0), page=page)
    return list(source.fetch(config, warnings.append)), warnings


def test_a_venues_notes_are_read_page_by_page(server: FeedServer) -> None:
    server.route("/notes", paged)
    papers, warnings = fetch(server)
    assert [p.id for p in papers] == [f"openreview:F{i:03d}abc" for i in range(5)]
    assert warnings == []
    requests = server.hits("/notes")
    assert [(r.query["offset"], r.query["limit"]) for r in requests] == [
        ("0", "2"),
        ("2", "2"),
        ("4", "2"),
    ]
    assert requests[0].query["content.venueid"] == VENUE


def test_a_note_becomes_a_paper_with_its_forum_link_and_decision(server: FeedServer) -> None:
    oral = note(
        "Xy12AbCd",
        "Tight   bounds for private\nfederated learning",
        venue="NeurIPS 2025 oral",
        code="https://github.com/acme/tight",
    )
    server.route("/notes", Answer(body=json.dumps({"notes": [oral], "count": 1})))
    (paper,), _ = fetch(server)
    assert paper.id == "openreview:Xy12AbCd"
    assert paper.title == "Tight bounds for private federated learning"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.categories == ("federated learning", "privacy")
    assert paper.venue == "NeurIPS 2025 oral"
    assert paper.url == f"{server.url}/forum?id=Xy12AbCd"
    assert paper.code_url == "https://github.com/acme/tight"
    assert paper.published == date(2025, 10, 9)
    assert paper.source == "openreview"


def test_a_decision_reply_is_read_when_the_api_includes_it(server: FeedServer) -> None:
    submitted = note("Q1", "Reviewed but not yet published here", venue="Submitted to ICLR 2026")
    submitted["details"] = {
        "directReplies": [
            {"invitations": ["ICLR.cc/2026/Conference/Submission1/-/Official_Review"]},
            {
                "invitations": ["ICLR.cc/2026/Conference/Submission1/-/Decision"],
                "content": {"decision": {"value": "Accept (spotlight)"}},
            },
        ]
    }
    server.route("/notes", Answer(body=json.dumps({"notes": [submitted], "count": 1})))
    (paper,), _ = fetch(server, venue="ICLR.cc/2026/Conference/-/Submission")
    assert paper.venue == "Submitted to ICLR 2026 (Accept (spotlight))"
    # An invitation asks for submissions, a venue id for published papers.
    assert server.hits("/notes")[0].query["invitation"] == "ICLR.cc/2026/Conference/-/Submission"


def test_api_v1_style_plain_values_and_hidden_authors_are_read(server: FeedServer) -> None:
    plain = {
        "id": "P1",
        "forum": "P1",
        "content": {"title": "Anonymous submission on graph learning", "abstract": "Graphs."},
    }
    bare = {"id": "P2", "forum": "P2", "content": {"pdf": {"value": "/pdf/x.pdf"}}}
    server.route("/notes", Answer(body=json.dumps({"notes": [plain, bare], "count": 2})))
    (paper,), warnings = fetch(server)
    assert (paper.title, paper.authors, paper.venue) == (
        "Anonymous submission on graph learning",
        (),
        VENUE,
    )
    assert warnings == ["neurips: note 2 has no forum, title or abstract"]


ICLR = "ICLR.cc/2026/Conference"


def test_withdrawn_and_desk_rejected_submissions_are_left_out_each_a_skip(
    server: FeedServer,
) -> None:
    """A reader following a venue's submissions got the ones their authors withdrew and the
    ones the venue rejected unreviewed, ranked as any other."""
    notes = [
        note("S1", "Open submission on graph learning", venueid=f"{ICLR}/Submission"),
        note(  # API v2: the venueid says it
            "S2",
            "Withdrawn submission on graph learning",
            venue="ICLR 2026 Conference Withdrawn Submission",
            venueid=f"{ICLR}/Withdrawn_Submission",
        ),
        note("S3", "Desk rejected on graph learning", venueid=f"{ICLR}/Desk_Rejected_Submission"),
        {  # API v1: the note moved to an invitation of its own, plain values
            "id": "S4",
            "forum": "S4",
            "invitation": "ICLR.cc/2022/Conference/-/Withdrawn_Submission",
            "content": {"title": "A v1 withdrawn submission", "abstract": "Graphs."},
        },
        {  # API v1: only the venue says it
            "id": "S5",
            "forum": "S5",
            "content": {
                "title": "T",
                "abstract": "A.",
                "venue": "ICLR 2022 Desk Rejected Submission",
            },
        },
    ]
    server.route("/notes", Answer(body=json.dumps({"notes": notes, "count": len(notes)})))
    papers, warnings = fetch(server, venue=f"{ICLR}/-/Submission")
    assert [p.id for p in papers] == ["openreview:S1"]
    assert warnings == [
        "neurips: note 2 is a withdrawn submission, skipped",
        "neurips: note 3 is a desk rejected submission, skipped",
        "neurips: note 4 is a withdrawn submission, skipped",
        "neurips: note 5 is a desk rejected submission, skipped",
    ]
    # Asked for by name, they are what the reader wants.
    papers, warnings = fetch(server, venue=f"{ICLR}/Withdrawn_Submission")
    assert len(papers) == 5 and warnings == []


@pytest.mark.parametrize(
    "keywords",
    ["privacy, federated learning;  unlearning", ["privacy", "federated learning", "unlearning"]],
)
def test_keywords_given_as_one_string_are_each_a_keyword(
    server: FeedServer, keywords: object
) -> None:
    server.route(
        "/notes",
        Answer(
            body=json.dumps(
                {"notes": [note("K1", "Keywords paper", keywords=keywords)], "count": 1}
            )
        ),
    )
    (paper,), _ = fetch(server)
    assert paper.categories == ("privacy", "federated learning", "unlearning")


def test_without_a_count_pages_are_asked_for_while_they_come_back_full(
    server: FeedServer,
) -> None:
    def untold(query: dict[str, str]) -> Answer:
        offset, limit = int(query["offset"]), int(query["limit"])
        body = {"notes": NOTES[offset : offset + limit]}
        return Answer(body=json.dumps(body), content_type="application/json")

    server.route("/notes", untold)
    papers, warnings = fetch(server)
    assert [p.id for p in papers] == [f"openreview:F{i:03d}abc" for i in range(5)]
    assert warnings == []
    assert [r.query["offset"] for r in server.hits("/notes")] == ["0", "2", "4"]


def test_the_cap_on_notes_holds_whatever_count_the_server_gives(
    server: FeedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A count of 10**12 with fresh notes on every page was read for good: a million notes and
    # 500 MB of state in 150 s, the run lock held, no digest for anyone.
    from digest.sources import openreview

    monkeypatch.setattr(openreview, "MAX_NOTES", 2)
    server.route("/notes", paged)  # with the count
    papers, warnings = fetch(server)
    assert len(papers) == 2
    assert warnings == ["neurips: the venue counts 5 notes; the first 2 are read"]

    def untold(query: dict[str, str]) -> Answer:
        offset, limit = int(query["offset"]), int(query["limit"])
        return Answer(body=json.dumps({"notes": NOTES[offset : offset + limit]}))

    server.route("/notes", untold)
    assert len(fetch(server)[0]) == 2


def test_an_empty_page_short_of_the_count_is_asked_again_once_then_fails_the_source(
    server: FeedServer,
) -> None:
    """It had stopped there quietly, as a success, with 1,000 of 2,500 notes read; then with a
    warning, still a success, the day's digest made without the rest."""
    calls: list[int] = []

    def short(query: dict[str, str]) -> Answer:
        offset, limit = int(query["offset"]), int(query["limit"])
        calls.append(offset)
        notes = NOTES[offset : offset + limit] if offset < 2 else []
        return Answer(body=json.dumps({"notes": notes, "count": len(NOTES)}))

    server.route("/notes", short)
    papers: list[Paper] = []
    warnings: list[str] = []
    config = SourceConfig("openreview", "neurips", {"url": server.url, "venue": VENUE})
    source = OpenReviewSource(Policy(timeout=2, retries=0), page=2)
    with pytest.raises(SourceError) as info:
        for paper in source.fetch(config, warnings.append):
            papers.append(paper)
    assert len(papers) == 2 and calls == [0, 2, 2] and warnings == []
    assert str(info.value) == (
        f"neurips: listing cut short: empty page at 2 of {len(NOTES)}, twice, from {server.url}"
    )
    # So too the first page: a venue counting notes and giving none is no empty venue.
    server.route("/notes", Answer(body=json.dumps({"notes": [], "count": 5})))
    with pytest.raises(SourceError, match="empty page at 0 of 5, twice"):
        list(source.fetch(config, warnings.append))


def test_a_page_empty_once_is_asked_again_each_time(server: FeedServer) -> None:
    """Asked again once per page, not once per venue: a second page empty once had failed."""
    asked: list[int] = []

    def flaky(query: dict[str, str]) -> Answer:
        offset = int(query["offset"])
        empty = offset in (2, 4) and offset not in asked
        asked.append(offset)
        return paged(query) if not empty else Answer(body=json.dumps({"notes": [], "count": 5}))

    server.route("/notes", flaky)
    papers, warnings = fetch(server)
    assert len(papers) == 5 and warnings == [] and asked == [0, 2, 2, 4, 4]


def test_a_server_that_ignores_the_offset_is_read_once(server: FeedServer) -> None:
    body = json.dumps({"notes": NOTES[:2]})
    server.route("/notes", Answer(body=body, content_type="application/json"))
    papers, _ = fetch(server)
    assert len(papers) == 2 and len(server.hits("/notes")) == 2


def test_an_unknown_venue_is_no_papers(
    server: FeedServer, caplog: pytest.LogCaptureFixture
) -> None:
    server.route("/notes", Answer(body=json.dumps({"notes": [], "count": 0})))
    assert fetch(server, venue="Nowhere.cc/2025") == ([], [])
    assert "no notes for venue 'Nowhere.cc/2025'" in caplog.text


def test_the_apis_error_message_is_shown(server: FeedServer) -> None:
    error = {"name": "ForbiddenError", "message": "Too many requests from this IP", "status": 403}
    server.route("/notes", Answer(403, body=json.dumps(error), content_type="application/json"))
    with pytest.raises(SourceError) as info:
        fetch(server)
    assert str(info.value) == (
        f"neurips: HTTP 403 Forbidden: Too many requests from this IP from {server.url}/notes"
    )


def test_a_servers_message_is_shown_without_what_a_terminal_or_database_would_choke_on(
    server: FeedServer,
) -> None:
    """A lone surrogate (valid JSON) had failed every run at the journal's write; an escape
    sequence would reach the terminal through the progress bar."""
    body = '{"message": "venue \\ud800 not \\u001b]0;PWNED\\u0007found"}'  # JSON escapes
    server.route("/notes", Answer(400, body=body, content_type="application/json"))
    with pytest.raises(SourceError) as info:
        fetch(server)
    said = str(info.value)
    said.encode("utf-8")  # storable
    assert "HTTP 400 Bad Request: venue not ]0;PWNEDfound from" in said


@pytest.mark.parametrize("body", ["<html>down</html>", '{"error": "x"}'])
def test_an_answer_without_notes_fails_the_source(server: FeedServer, body: str) -> None:
    server.route("/notes", Answer(body=body, content_type="application/json"))
    with pytest.raises(SourceError, match="neurips: the OpenReview answer"):
        fetch(server)


def test_forum_links_point_at_the_site_people_read() -> None:
    assert web_base("https://api2.openreview.net") == "https://openreview.net"
    assert web_base("https://api.openreview.net/") == "https://openreview.net"
    assert web_base("http://127.0.0.1:8080") == "http://127.0.0.1:8080"


def test_a_venue_is_required() -> None:
    source = OpenReviewSource()
    assert source.check({"venue": " "}) == (
        "venue",
        "must name a venue, e.g. 'NeurIPS.cc/2025/Conference'",
    )
    assert source.check({"venue": VENUE, "url": "https://api2.openreview.net"}) is None


def serve_notes(server: FeedServer, *notes: dict[str, Any]) -> None:
    body = json.dumps({"notes": list(notes), "count": len(notes)})
    server.route("/notes", Answer(body=body, content_type="application/json"))


def test_html_and_latex_in_titles_and_abstracts_read_as_plain_text(server: FeedServer) -> None:
    serve_notes(
        server,
        note(
            "L1",
            "Radix-2\\(^\\mboxk\\) FFTs at 2.1$\\mu$W &amp; <i>beyond</i>",
            abstract="<p>We model $\\textCFT_1$ in H$_2$O &lt;fast&gt;.</p>"
            "<p>It costs $5 million.</p>",
        ),
    )
    (paper,), _ = fetch(server)
    assert paper.title == "Radix-2ᵏ FFTs at 2.1μW & beyond"
    assert paper.abstract == "We model CFT₁ in H₂O <fast>. It costs $5 million."


def test_text_mode_latex_in_a_form_reads_as_printed() -> None:
    """``quoted'', Hartree--Fock and Fig.~1 had reached readers as the authors typed them."""
    written = "The ``quantum'' regime of Hartree--Fock (Fig.~1), code at \\url{https://a.org/x--y}"
    assert (
        plain(written)
        == "The “quantum” regime of Hartree–Fock (Fig. 1), code at https://a.org/x--y"
    )
    assert plain("run --help at ~10 K") == "run --help at ~10 K"


def test_a_markdown_code_span_stays_as_written() -> None:
    """feeds23 F3: a code span's `a--b` had been shown "a–b", its `x~y` "x y"."""
    written = "Run `a--b` and `x~y` -- ``q`` as `f(x)~1`, Fig.~1"
    assert plain(markdown(written)) == "Run a--b and x~y – q as f(x)~1, Fig. 1"


def test_a_note_with_an_abstract_and_no_title_is_titled_from_its_text(server: FeedServer) -> None:
    # Stored with title '' it had been mailed under an empty heading, an invisible link in HTML.
    untitled = note("N2", "", abstract="We propose CellNet, a model of cells and proteins.")
    del untitled["content"]["title"]
    serve_notes(server, untitled, note("N3", "", abstract="Only an abstract about cells, here."))
    first, second = fetch(server)[0]
    assert (first.id, first.title) == ("openreview:N2", "CellNet: a model of cells and proteins")
    assert second.title == "Only an abstract about cells, here"


@pytest.mark.parametrize(
    "title", [["Private", "federated learning"], {"value": "Private federated learning"}]
)
def test_a_title_given_as_a_list_or_wrapped_twice_is_text(
    server: FeedServer, title: object
) -> None:
    serve_notes(server, note("T1", title))  # type: ignore[arg-type]
    (paper,), _ = fetch(server)
    assert paper.title == "Private federated learning"


def test_authors_written_as_one_string_or_last_first_are_whole_names(server: FeedServer) -> None:
    serve_notes(
        server,
        note("A1", "One", authors="Ada Lovelace, Alan Turing"),
        note("A2", "Two", authors=["Reagle, Jr., Joseph M.", "Grace Hopper"]),
    )
    (one, two), _ = fetch(server)
    assert one.authors == ("Ada Lovelace", "Alan Turing")
    assert two.authors == ("Joseph M. Reagle Jr.", "Grace Hopper")


def fetch_from(url: str) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    config = SourceConfig("openreview", "neurips", {"url": url, "venue": VENUE})
    source = OpenReviewSource(Policy(timeout=2, retries=0))
    return list(source.fetch(config, warnings.append)), warnings


def test_credentials_in_the_api_address_never_reach_a_forum_link(server: FeedServer) -> None:
    serve_notes(server, NOTES[0])
    host = server.url.removeprefix("http://")
    (paper,), _ = fetch_from(f"http://user:ORPASS@{host}")
    assert paper.url == f"{server.url}/forum?id=F000abc"
    assert "ORPASS" not in repr(paper)
    assert web_base("https://u:p@api2.openreview.net:443/x?token=t") == "https://openreview.net:443"
    assert web_base("http://u:p@[::1]:8080/api") == "http://[::1]:8080"


def test_the_query_of_the_api_address_is_kept_and_notes_is_joined_to_its_path(
    server: FeedServer,
) -> None:
    body = json.dumps({"notes": [NOTES[0]], "count": 1})
    server.route("/or2/notes", Answer(body=body, content_type="application/json"))
    (paper,), _ = fetch_from(f"{server.url}/or2/?token=S3CRET")
    (request,) = server.requests
    assert request.path == "/or2/notes"
    assert request.query["token"] == "S3CRET"
    assert request.query["content.venueid"] == VENUE and request.query["offset"] == "0"
    assert paper.url == f"{server.url}/forum?id=F000abc"  # the site, not the API's path


def test_an_api_message_with_line_breaks_stays_one_line(server: FeedServer) -> None:
    error = {"message": "Token SECRETTOKEN is invalid\nline two\r\n\tthree", "status": 403}
    server.route("/notes", Answer(403, body=json.dumps(error), content_type="application/json"))
    with pytest.raises(SourceError) as info:
        fetch(server)
    assert str(info.value) == (
        f"neurips: HTTP 403 Forbidden: Token SECRETTOKEN is invalid line two three"
        f" from {server.url}/notes"
    )


def test_a_note_nested_too_deeply_is_one_warning_and_the_others_are_read(
    server: FeedServer,
) -> None:
    # 900 lists within lists: json reads them, a recursive walk through them overflows.
    deep = json.dumps(note("Deep1", "x")).replace('"x"', "[" * 900 + '"deep"' + "]" * 900, 1)
    text = f'{{"notes": [{json.dumps(NOTES[0])}, {deep}, {json.dumps(NOTES[1])}], "count": 3}}'
    server.route("/notes", Answer(body=text, content_type="application/json"))
    papers, warnings = fetch(server, page=1000)
    assert [p.id for p in papers] == [
        "openreview:F000abc",
        "openreview:Deep1",
        "openreview:F001abc",
    ]
    assert papers[1].title == "deep"
    assert warnings == []


def test_an_answer_nested_deeper_than_the_parser_goes_is_not_json_naming_the_address(
    server: FeedServer,
) -> None:
    body = '{"notes": [' + "[" * 100_000 + "]" * 100_000 + "]}"
    server.route("/notes", Answer(body=body, content_type="application/json"))
    with pytest.raises(SourceError) as info:
        fetch(server)
    assert str(info.value) == (
        f"neurips: the OpenReview answer is not JSON (nested too deeply to read) from {server.url}"
    )


def test_a_note_that_cannot_be_read_costs_that_note_not_the_venue(
    server: FeedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from digest.sources import openreview

    reading = openreview.to_paper

    def odd(note: dict[str, Any], *args: Any) -> Paper | None:
        if note.get("id") == "F001abc":
            raise ValueError("a value of no known shape")
        return reading(note, *args)

    monkeypatch.setattr(openreview, "to_paper", odd)
    server.route("/notes", paged)
    papers, warnings = fetch(server)
    assert len(papers) == 4 and "openreview:F001abc" not in {p.id for p in papers}
    assert warnings == ["neurips: note 2 cannot be read (ValueError), skipped"]


def test_a_compressed_page_cut_short_fails_as_cut_short_keeping_the_pages_before(
    server: FeedServer,
) -> None:
    """A gzip page whose stream stops before its end: cut short, not "not JSON (Unterminated
    string ...)", and the whole pages before it are kept."""
    import gzip

    def second_cut(query: dict[str, str]) -> Answer:
        if int(query["offset"]) == 0:
            return paged(query)
        packed = gzip.compress(paged(query).body.encode())
        return Answer(body=packed[: len(packed) * 6 // 10], headers={"Content-Encoding": "gzip"})

    server.route("/notes", second_cut)
    papers: list[Paper] = []
    config = SourceConfig("openreview", "neurips", {"url": server.url, "venue": VENUE})
    source = OpenReviewSource(Policy(timeout=2, retries=0), page=2)
    with pytest.raises(SourceError) as info:
        for paper in source.fetch(config, lambda _: None):
            papers.append(paper)
    assert len(papers) == 2
    assert str(info.value).startswith("neurips: answer cut short (its compressed stream stops")


def test_an_abstracts_markdown_reads_as_the_text_openreview_shows(server: FeedServer) -> None:
    """feeds21 F5: readers were mailed "We study **medicine** ... ## Results - item one - item
    two with [link](https://x.org)"; OpenReview renders an abstract as Markdown. A title is one
    line of plain text there, and stays as written."""
    abstract = (
        "We study **medicine** with _machine learning_.\n\n## Results\n- item one\n"
        "- item two with [link](https://github.com/acme/med)"
    )
    serve_notes(server, note("M1", "A **bold** claim on p_value", abstract=abstract))
    (paper,), _ = fetch(server)
    assert paper.abstract == (
        "We study medicine with machine learning. Results item one item two with link"
    )
    assert paper.title == "A **bold** claim on p_value"
    assert paper.code_url == "https://github.com/acme/med"  # the link's address still counts


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("**strong** and __strong__, *em* and _em_, ***both*** and **_both_**", "strong and"
         " strong, em and em, both and both"),
        ("# Heading #\nText\n===\n* one\n+ two\n\n---\n1. first", "Heading Text one two 1. first"),
        ("See [the code](https://x.org/a_b \"title\") and ![a figure](f.png).", "See the code"
         " and a figure."),
        ("Mail <mailto:a@b.org> or <https://x.org/q?a=1>.", "Mail mailto:a@b.org or"
         " https://x.org/q?a=1."),
        ("Run `make **all**` or ``a ` b``.", "Run make **all** or a ` b."),
        ("```python\nx = 1\n```", "x = 1"),
        ("~~old~~ new, a *span\nover lines*", "old new, a span over lines"),
        ("**not\n\nacross paragraphs**", "**not across paragraphs**"),
    ],
)  # fmt: skip
def test_markdown_marks_go_and_their_text_stays(written: str, shown: str) -> None:
    assert plain(markdown(written)) == shown


@pytest.mark.parametrize(
    "text",
    [
        "the p_value and snake_case_name of x_i",
        "2*3*4 = 24 and x**2 + y**2 and a * b * c",
        "k<n and m>2 with p<0.05",
        "stars mark significance: (*) p<0.05 and (**) p<0.01",
        "#1 ranked on #hashtags",
        "an escaped \\*star\\* stays",
        "- 5 C is not a list item in a line of text",
    ],
)
def test_what_is_no_markdown_stays_as_written(text: str) -> None:
    assert markdown(text) == text


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("We bound $a_b * c_d$ and $x**2$ tightly.", "$a_b * c_d$ and $x**2$"),
        ("Display $$\\sum_i x_i * y_i$$ here", "$$\\sum_i x_i * y_i$$"),
        ("Inline \\(a_b * c\\) and \\[x^{**}_i\\] too", "\\(a_b * c\\) and \\[x^{**}_i\\]"),
        ("**Bold $x_1$ and $y_2$** here", "Bold $x_1$ and $y_2$ here"),
    ],
)  # fmt: skip
def test_a_formulas_marks_are_latex_not_markdown(written: str, shown: str) -> None:
    assert shown in markdown(written)


def test_a_markdown_table_and_reference_links_read_as_text(server: FeedServer) -> None:
    """reg35 F6: a pipe table, a link whose address holds "(...)", and a reference link with its
    definition line had been mailed as typed."""
    abstract = (
        "We compare.\n\n| Model | Acc |\n|-------|-----|\n| Ours  | 91.2 |\n| Base  | 88.0 |\n\n"
        "See [wiki](https://en.wikipedia.org/wiki/Foo_(bar)) and [the paper][1].\n\n"
        "[1]: https://arxiv.org/abs/2501.00001"
    )
    serve_notes(server, note("T1", "Tables", abstract=abstract))
    (paper,), _ = fetch(server)
    assert paper.abstract == "We compare. Model Acc; Ours 91.2; Base 88.0 See wiki and the paper."


@pytest.mark.parametrize(
    ("written", "shown"),
    [
        ("Model | Acc\n:--|--:\nOurs | $|x|$\n\nAfter", "Model Acc; Ours |x| After"),
        ("| a | b |\n| --- | :-: |\n| | c \\| d |\nnext line", "a b; c | d next line"),
        ("| One |\n|-----|\n| row |", "One; row"),
        ("A [link](<https://x.org/a b>) and [wiki](https://x.org/F_(b)_(c) 'T').", "A link and"
         " wiki."),
        ("[Ref]: https://x.org \"A title\"\n[two]: <https://y.org>\n\nSee [ref], [The  Paper]"
         "[two], [two][] and ![a figure][ref].", "See ref, The Paper, two and a figure."),
    ],
)  # fmt: skip
def test_tables_and_links_of_every_form_read_as_text(written: str, shown: str) -> None:
    assert plain(markdown(written)) == shown


@pytest.mark.parametrize(
    "text",
    [
        "as shown in [1] and [2, 3], where [a][b] is undefined",
        "We model p(y|x) and |x| < 1 over a|b.\n-- | done",
        "Results, with no pipe above\n|---|---|",
        "a | b\n--- | --- | ---",  # a delimiter row of more cells than the row above: no table
        "A paragraph's [1]\n[1]: https://x.org",  # a definition opens a paragraph, or is none
        "[1]: a definition has one address, not several words",
    ],
)
def test_what_is_no_table_nor_reference_stays_as_written(text: str) -> None:
    assert markdown(text) == text

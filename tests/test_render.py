"""digest.render: a Digest becomes a subject, a plain-text and an HTML body via real templates."""

from __future__ import annotations

import json
import re
from dataclasses import replace as dataclass_replace
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from digest.channels import matrix, slack
from digest.models import ConfigError, Digest, Held, Message, Paper, Scored
from digest.render import (
    BUILTIN_TEMPLATES,
    check_templates,
    make_environment,
    pdf_url,
    render_alert,
    render_digest,
    render_notice,
    unloadable,
)
from digest.web.tokens import links_for

DAY = date(2026, 11, 30)

FEDHET = Paper(
    id="2401.00001",
    title="FedHet: Federated Learning under Client Heterogeneity",
    abstract=(
        "Federated learning trains models across many clients. Client heterogeneity slows "
        "convergence. We propose FedHet. It wins on five benchmarks."
    ),
    authors=("Ada Lovelace", "Alan Turing", "Grace Hopper", "Edsger Dijkstra"),
    venue="NeurIPS 2026",
    url="https://arxiv.org/abs/2401.00001",
    code_url="https://github.com/example/fedhet",
)
DPLORA = Paper(
    id="2401.00002",
    title="Differentially Private LoRA Fine-Tuning",
    abstract="We study differential privacy for parameter-efficient fine-tuning.",
    authors=("J. Doe",),
    venue="ICLR 2027",
    url="https://openreview.net/forum?id=abc",
    code_url="https://github.com/example/dplora",
)


def make_digest(*items: Scored, subscriber: str = "alice") -> Digest:
    return Digest(
        subscriber=subscriber,
        period="2026-11-30T08:00:00+01:00",
        day=DAY,
        items=items,
        made_at=datetime(2026, 11, 30, 7, 0, tzinfo=UTC),
    )


def two_items() -> Digest:
    return make_digest(
        Scored(FEDHET, 0.4567, ("federated", "heterogeneity"), "closest to: FedProx"),
        Scored(DPLORA, 0.2, ("privacy", "lora"), "closest to: DP-SGD"),
    )


def render(digest: Digest, folder: str | None = None):
    return render_digest(digest, make_environment(folder))


# --- subject ------------------------------------------------------------------------------------


def test_subject_names_subscriber_date_and_count() -> None:
    assert render(two_items()).subject == "Paper digest for alice — 2026-11-30: 2 papers"


def test_subject_is_singular_for_one_paper() -> None:
    subject = render(make_digest(Scored(FEDHET, 0.5))).subject
    assert subject.endswith(": 1 paper")


def test_subject_is_one_line_even_with_a_newline_in_the_name() -> None:
    subject = render(make_digest(subscriber="eve\r\nBcc: victim@example.org")).subject
    assert "\n" not in subject and "\r" not in subject
    assert "eve Bcc: victim@example.org" in subject


# --- bodies -------------------------------------------------------------------------------------


@pytest.mark.parametrize("body", ["text", "html"])
def test_each_item_shows_title_venue_score_terms_snippet_and_links(body: str) -> None:
    # The reader sees the text of each <bdi>, the isolate an untrusted field is shown in.
    out = getattr(render(two_items()), body).replace("<bdi>", "").replace("</bdi>", "")
    for paper, score, terms, because in [
        (FEDHET, "0.46", "federated, heterogeneity", "closest to: FedProx"),
        (DPLORA, "0.20", "privacy, lora", "closest to: DP-SGD"),
    ]:
        assert paper.title in out
        assert paper.venue in out
        assert f"score {score}" in out
        assert f"matched {terms}" in out
        assert because in out
        assert paper.code_url in out
    unwrapped = out.replace("\n    ", " ")
    assert "Federated learning trains models across many clients." in unwrapped
    assert DPLORA.abstract in unwrapped
    assert "Ada Lovelace, Alan Turing, Grace Hopper et al." in out
    assert out.index(FEDHET.title) < out.index(DPLORA.title)


def test_every_line_of_the_text_part_is_wrapped_near_78_columns_the_venue_too() -> None:
    """A proceedings name of 113 characters gave a 150-character line among 78-column ones."""
    venue = (
        "Proceedings of the 62nd Annual Meeting of the Association for Computational"
        " Linguistics (Volume 1: Long Papers)"
    )
    env = make_environment(None)
    for pad in range(24):  # wherever the line's end falls, the id stays whole
        paper = dataclass_replace(FEDHET, id="hep-th/9901001", venue=venue + " " + "X" * pad)
        scored = Scored(paper, 0.6, ("federated",), "")
        digest = render(make_digest(scored)).text
        alert = render_alert("alice", DAY, scored, ["a keyword"], env).text
        for text in (digest, alert):
            assert max(map(len, text.splitlines())) <= 78, text
            words = " ".join(text.split())
            assert "Linguistics (Volume 1: Long Papers)" in words and "score 0.60" in words
            assert "id hep-th/9901001" in words  # whole, as `digest feedback` takes it


def test_html_links_title_paper_and_code() -> None:
    html = render(two_items()).html
    assert f'<a href="{FEDHET.url}"' in html
    assert f'<a href="{FEDHET.code_url}"' in html
    assert ">code</a>" in html and ">paper</a>" in html
    assert "max-width:680px" in html


def test_text_numbers_items_and_names_the_ranking_in_the_footer() -> None:
    text = render(two_items()).text
    assert " 1. FedHet" in text and " 2. Differentially" in text
    assert "Generated by digest" in text and "TF-IDF" in text and "alice" in text


def test_untrusted_abstract_and_title_are_escaped_in_html_only() -> None:
    hostile = Paper(
        id="x",
        title="Fast <b>bold</b> & robust",
        abstract="We attack <script>alert(1)</script> the reviewers. Then we win.",
        url="https://example.org/?a=1&b=2",
    )
    message = render(make_digest(Scored(hostile, 0.9)))
    assert "<script>" not in message.html
    assert "&lt;script&gt;" in message.html
    assert "<b>bold</b>" not in message.html
    assert "Fast &lt;b&gt;bold&lt;/b&gt; &amp; robust" in message.html
    assert 'href="https://example.org/?a=1&amp;b=2"' in message.html
    # Plain text is not HTML: escaping it would show "&amp;" to the reader.
    assert "Fast <b>bold</b> & robust" in message.text
    assert "<script>alert(1)</script>" in message.text


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        " JavaScript:alert(1)",
        "javascript://example.org/%0Aalert(1)",
        "data:text/html,x",
        "java\nscript:x",
        "ftp://example.org/paper.pdf",
    ],
)
def test_only_http_urls_become_links(url: str) -> None:
    paper = Paper(id="x", title="Sneaky", abstract="Nothing.", url=url, code_url=url)
    message = render(make_digest(Scored(paper, 0.9)))
    assert "href" not in message.html
    assert "script:" not in message.html.lower() and "data:" not in message.html
    assert "ftp:" not in message.html
    assert "paper:" not in message.text and "code:" not in message.text
    assert "Sneaky" in message.html


@pytest.mark.parametrize("bad", ["\ufffe", "\u202e", "\u2066", "\x85", "\x7f"])
def test_a_link_with_a_bidi_control_or_a_character_xml_cannot_hold_is_no_link(bad: str) -> None:
    url = f"https://example.org/{bad}txt.exe"
    paper = Paper(id="x", title="Sneaky", abstract="Nothing.", url=url, code_url=url)
    message = render(make_digest(Scored(paper, 0.9)))
    assert "example.org" not in message.html and "example.org" not in message.text


def channel_views(message: Message) -> dict[str, str]:
    """What each channel family shows of a message: the mail's HTML and text parts (the file
    channel's .eml and .html too), Slack's blocks (mrkdwn links) and Matrix's events."""
    return {
        "html": message.html,
        "text": message.text,
        "slack": json.dumps(slack.messages(message, buttons=True), ensure_ascii=False),
        "matrix": json.dumps(matrix.events(message), ensure_ascii=False),
    }


@pytest.mark.parametrize(
    "masked",
    [
        "https://arxiv.org@evil.example/abs/2401.00009",
        "http://arxiv.org:abs@evil.example:18805/abs/2401.00009",
        "https://@evil.example/abs/2401.00009",
        "https://arxiv.org\\@evil.example/abs/2401.00009",
        "HTTPS://github.com%2Fexample@evil.example/fedhet",
        "https://evil.example\\.arxiv.org/abs/2401.00009",  # a browser reads "\\" as "/"
    ],
)
@pytest.mark.parametrize("view", ["html", "text", "slack", "matrix"])
def test_a_link_that_reads_as_one_host_and_opens_another_is_no_link(masked: str, view: str) -> None:
    """A link with user info shows arxiv.org in the plain text, the Slack and Matrix messages and
    the feed, and a browser opens evil.example: it is dropped as `javascript:` is."""
    sneaky = Paper(id="x", title="Sneaky", abstract="Nothing.", url=masked, code_url=masked)
    message = render(make_digest(Scored(FEDHET, 0.9), Scored(sneaky, 0.8)))
    assert [e.url for e in message.entries] == [FEDHET.url, ""]
    shown = channel_views(message)[view]
    assert "evil.example" not in shown and "Sneaky" in shown
    assert FEDHET.url in shown and FEDHET.code_url in shown  # a plain link stays a link


def test_zero_items_render_a_friendly_note() -> None:
    message = render(make_digest())
    assert message.subject.endswith(": 0 papers")
    for body in (message.text, message.html):
        assert "No new papers matched your interests today." in body
        assert "Generated by digest" in body


# --- snippet ------------------------------------------------------------------------------------


def test_user_folder_overrides_one_template_and_falls_back_for_the_rest(tmp_path: Path) -> None:
    (tmp_path / "digest.subject.txt").write_text("[{{ subscriber }}] {{ count }} new\n")
    message = render(two_items(), str(tmp_path))
    assert message.subject == "[alice] 2 new"
    built_in = render(two_items())
    assert message.text == built_in.text
    assert message.html == built_in.html


def test_a_missing_user_folder_is_a_config_error_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(ConfigError, match="nope"):
        make_environment(str(missing))


def test_a_syntax_error_names_the_users_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "digest.txt").write_text("Hello\n{% for item in items %}\n{{ item.title }\n")
    with pytest.raises(ConfigError) as caught:
        render(two_items(), str(tmp_path))
    message = str(caught.value)
    assert str(tmp_path / "digest.txt") in message
    assert "line 3" in message
    assert "\n" not in message


def test_an_undefined_variable_names_the_users_file_and_line(tmp_path: Path) -> None:
    (tmp_path / "digest.html").write_text("<p>\n{{ subscribr }}\n</p>\n")
    with pytest.raises(ConfigError) as caught:
        render(two_items(), str(tmp_path))
    message = str(caught.value)
    assert str(tmp_path / "digest.html") in message
    assert "line 2" in message and "subscribr" in message


def test_check_templates_passes_the_built_in_set() -> None:
    check_templates(make_environment())


def test_check_templates_catches_a_typo_before_any_digest_is_made(tmp_path: Path) -> None:
    (tmp_path / "digest.txt").write_text("{% for item in items %}{{ item.titel }}{% endfor %}\n")
    with pytest.raises(ConfigError, match="digest.txt, line 1: .*titel"):
        check_templates(make_environment(str(tmp_path)))


def test_every_template_that_cannot_load_is_named_not_only_the_first(tmp_path: Path) -> None:
    # validate promised every mistake a line each, and named only digest.subject.txt's.
    (tmp_path / "digest.subject.txt").write_text("{{ subject \n")
    (tmp_path / "digest.txt").write_text("{% for x in items %}\n")
    found = unloadable(make_environment(str(tmp_path)))
    assert len(found) == 2
    assert found[0].startswith(f"template {tmp_path / 'digest.subject.txt'}, line 1: ")
    assert found[1].startswith(f"template {tmp_path / 'digest.txt'}, line ")
    assert unloadable(make_environment()) == []


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (b"Caf\xe9 {{ subject }}\n", "digest.txt cannot be read as UTF-8 text"),
        (b"{{ 1 / 0 }}\n", "digest.txt, line 1: division by zero"),
        (b"{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}\n", "digest.txt.*recursion"),
    ],
)
def test_a_template_that_fails_as_it_renders_is_one_config_error(
    tmp_path: Path, text: bytes, problem: str
) -> None:
    (tmp_path / "digest.txt").write_bytes(text)
    with pytest.raises(ConfigError, match=problem):
        check_templates(make_environment(str(tmp_path)))


def test_builtin_templates_live_in_the_repos_templates_folder() -> None:
    names = {p.name for p in BUILTIN_TEMPLATES.iterdir()}
    assert {"digest.subject.txt", "digest.txt", "digest.html"} <= names


# --- ids and the web face's links ---------------------------------------------------------------


def test_without_web_every_paper_shows_its_id_and_pdf_but_no_rating_link() -> None:
    message = render(two_items())
    assert "id 2401.00001" in message.text and ">2401.00002</code>" in message.html
    assert "https://arxiv.org/pdf/2401.00001" in message.text  # arXiv papers have a PDF
    openreview = Paper("openreview:xyz", "T", "A.", url="https://openreview.net/forum?id=xyz")
    assert pdf_url(openreview) == ""  # a paper without an arXiv id has no known PDF
    assert "👍" not in message.html and "unsubscribe" not in message.html.lower()
    assert message.view_url == message.unsubscribe_url == ""
    assert [e.paper_id for e in message.entries] == ["2401.00001", "2401.00002"]
    assert all(not e.up_url for e in message.entries)


def test_with_web_each_paper_gets_signed_votes_and_the_digest_its_page_and_unsubscribe() -> None:
    from digest.web.tokens import Signer, links_for

    web = {"base_url": "https://digest.example.org", "secret": "x" * 32}
    links = links_for(web, "alice", datetime(2026, 11, 30, 7, tzinfo=UTC))
    message = render_digest(two_items(), make_environment(), links)
    first = message.entries[0]
    signer = Signer(web["secret"])
    now = datetime(2026, 11, 30, 7, tzinfo=UTC).timestamp()
    assert signer.check(first.up_url.rsplit("/", 1)[1], "v", now) == ["alice", "2401.00001", "up"]
    assert signer.check(first.down_url.rsplit("/", 1)[1], "v", now)[2] == "down"
    assert f'href="{first.up_url}"' in message.html and first.down_url in message.text
    assert message.view_url.startswith("https://digest.example.org/a/")
    assert "view in browser" in message.html and message.unsubscribe_url in message.html
    assert message.unsubscribe_url.startswith("https://digest.example.org/u/")


def test_check_templates_renders_with_and_without_links(tmp_path: Path) -> None:
    (tmp_path / "digest.html").write_text("{{ items[0].up_url | upper }}{{ view_urll }}")
    with pytest.raises(ConfigError, match="view_urll"):
        check_templates(make_environment(str(tmp_path)))


def test_a_quiet_period_notice_carries_the_archive_and_one_click_unsubscribe_with_web() -> None:
    web = {"base_url": "https://digest.example.org", "secret": "s" * 32}
    links = links_for(web, "ana", datetime(2026, 11, 30, 9, tzinfo=UTC))
    env = make_environment(None)
    line = "No new papers since the last digest."
    notice = render_notice("ana", DAY, "no new papers", line, env, links)
    assert notice.unsubscribe_url.startswith("https://digest.example.org/u/")
    assert notice.unsubscribe_url in notice.text
    assert "Past digests" in notice.html and "unsubscribe</a>" in notice.html
    plain = render_notice("ana", DAY, "no new papers", line, env)
    assert plain.unsubscribe_url == "" and "Unsubscribe" not in plain.text
    assert "Past digests" not in plain.html


# ESC sequences (a window title, colours, a link, a cleared screen), BEL, NUL, CR and C1's CSI.
CONTROLS = "\x1b]0;PWNED\x07\x1b[2J\x1b[31m\x1b]8;;http://evil.example\x07\x00\r\x9b\x7f"
HOSTILE = Paper(
    id="2401.00003",
    title=f"Terminal {CONTROLS}red title",
    abstract=f"Differential privacy {CONTROLS}for everyone. Second sentence.",
    authors=(f"Eve {CONTROLS}Blink",),
    venue=f"Venue {CONTROLS}2026",
)


def control_characters(text: str) -> list[str]:
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F]


def test_no_text_of_a_message_carries_a_control_character() -> None:
    scored = Scored(HOSTILE, 0.5, (f"pri{CONTROLS}vacy",), f"closest to: {CONTROLS}FedProx")
    env = make_environment()
    digest = render_digest(make_digest(scored), env)
    alert = render_alert("alice", DAY, scored, ["a keyword"], env)
    for message in (digest, alert):
        entry = message.entries[0]
        shown = [message.subject, message.text, message.html, entry.title, entry.authors]
        shown += [entry.venue, entry.because, entry.snippet, *entry.terms]
        assert [control_characters(text) for text in shown] == [[]] * len(shown)
        assert "Terminal ]0;PWNED[2J[31m]8;;http://evil.example red title" in message.text


BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"


def test_bidi_controls_leave_every_text_and_untrusted_fields_are_isolated_in_html() -> None:
    turned = Paper(
        id="2401.00004",
        title="Alert \u202eRLO left open",
        abstract="We \u2067isolate nothing. Second sentence.",
        authors=("\u202bEve Embed",),
        venue="NeurIPS \u202d2026",
    )
    scored = Scored(turned, 0.9, ("isolate",), "closest to: \u2066FedProx")
    env = make_environment()
    for message in (
        render_digest(make_digest(scored), env),
        render_alert("alice", DAY, scored, ["by \u202eEve, whom you follow"], env),
    ):
        entry = message.entries[0]
        shown = [message.subject, message.text, message.html, message.footer, entry.title]
        shown += [entry.authors, entry.venue, entry.because, entry.snippet]
        assert [c for text in shown for c in text if c in BIDI] == []
        html = message.html
        assert re.search(r'<bdi id="title(-1)?">Alert RLO left open</bdi>', html)
        assert "<bdi>Eve Embed</bdi>" in html
        assert "<bdi>NeurIPS 2026</bdi> · score 0.90 · id <bdi><code" in html
        assert "<bdi>We isolate nothing. Second sentence.</bdi>" in html


# --- held alerts --------------------------------------------------------------------------------

HELD_WHY = ("mentions “LoRA”", "held: the daily cap of 5 alerts was reached")


def with_held(*held: Held, picks: tuple[Scored, ...] = ()) -> Digest:
    return Digest("alice", "2026-11-30T08:00:00+01:00", DAY, picks, datetime(2026, 11, 30), held)


def held_and_picked() -> Digest:
    return with_held(
        Held(Scored(DPLORA, 0.01, ("lora",)), HELD_WHY),
        picks=(Scored(FEDHET, 0.4567, ("federated",), "closest to: FedProx"),),
    )


@pytest.mark.parametrize("body", ["text", "html"])
def test_held_alerts_come_first_in_a_section_of_their_own_and_the_ranks_run_on(body: str) -> None:
    out = re.sub(r"<[^>]+>", "", getattr(render(held_and_picked()), body))  # as a reader sees it
    held = out.index("Held alerts: 1 paper that matched your alert rules")
    assert held < out.index(DPLORA.title) < out.index("Ranked picks: 1 new paper")
    assert out.index("Ranked picks: 1 new paper") < out.index(FEDHET.title)
    assert "These do not count against your picks" in out
    assert "alert: mentions “LoRA”; held: the daily cap of 5 alerts was reached" in out
    assert "1 held alert, then 1 new paper" in out


def test_held_alerts_are_numbered_before_the_picks_for_every_channel() -> None:
    message = render(held_and_picked())
    assert " 1. Differentially Private LoRA" in message.text and " 2. FedHet" in message.text
    assert [(e.rank, e.paper_id) for e in message.entries] == [(1, DPLORA.id), (2, FEDHET.id)]
    assert [e.section for e in message.entries] == [
        "Held alerts: 1 paper that matched your alert rules, held for this digest",
        "Ranked picks: 1 new paper",
    ]
    assert message.entries[0].because == "alert: " + "; ".join(HELD_WHY)
    assert message.subject == "Paper digest for alice — 2026-11-30: 1 held alert, 1 paper"
    assert message.footer.startswith("digest · 1 held alert, 1 new paper · ranked by TF-IDF")


def test_a_digest_without_held_alerts_has_no_sections() -> None:
    message = render(two_items())
    assert "Held alerts" not in message.text + message.html
    assert "Ranked picks" not in message.text + message.html
    assert [e.section for e in message.entries] == ["", ""]


def test_a_digest_of_held_alerts_only_says_so() -> None:
    message = render(with_held(Held(Scored(DPLORA, 0.01), HELD_WHY)))
    assert message.subject == "Paper digest for alice — 2026-11-30: 1 held alert"
    assert "No other new paper matched your interests closely enough." in message.text
    assert "Ranked picks" not in message.text and "No new papers matched" not in message.text
    assert [e.section for e in message.entries] == [
        "Held alerts: 1 paper that matched your alert rules, held for this digest"
    ]


def test_a_held_alerts_reasons_are_escaped_in_html_and_cleaned_everywhere() -> None:
    why = (f"by <b>Eve</b> & {CONTROLS}\u202eMallory, whom you follow",)
    message = render(with_held(Held(Scored(HOSTILE, 0.3), why)))
    assert "by &lt;b&gt;Eve&lt;/b&gt; &amp; " in message.html and "<b>Eve" not in message.html
    assert "by <b>Eve</b> & " in message.text  # plain text shows it as written
    entry = message.entries[0]
    for text in (message.text, message.html, entry.because, entry.section):
        assert control_characters(text) == [] and not any(c in BIDI for c in text)


def test_a_users_template_written_before_held_alerts_still_lists_every_paper(
    tmp_path: Path,
) -> None:
    (tmp_path / "digest.txt").write_text(
        "{{ count }} papers\n{% for item in items %}{{ item.rank }}. {{ item.id }}\n{% endfor %}"
    )
    text = render(held_and_picked(), str(tmp_path)).text
    assert text == f"2 papers\n1. {DPLORA.id}\n2. {FEDHET.id}\n"


def test_check_templates_catches_a_typo_in_the_held_alerts_section(tmp_path: Path) -> None:
    (tmp_path / "digest.txt").write_text("{% for item in held %}{{ item.reasonz }}{% endfor %}\n")
    with pytest.raises(ConfigError, match="digest.txt, line 1: .*reasonz"):
        check_templates(make_environment(str(tmp_path)))


def test_a_score_a_hair_below_zero_reads_0_00_not_minus_zero() -> None:
    # A held alert by a followed author may share no word and score -0.0004 against the centroid.
    message = render(make_digest(Scored(FEDHET, -0.0004, (), "")))
    assert "score 0.00" in message.text and "-0.00" not in message.text + message.html


def test_a_held_alert_of_a_followed_author_says_so_once_on_every_channel() -> None:
    """The alert's reason and the ranking's own explanation both said "by X, whom you follow":
    two lines in the mail, one doubled line on Slack and Matrix."""
    follow = "by Graham Neubig, whom you follow"
    scored = Scored(DPLORA, 0.15, ("lora",), f"closest to: Some liked paper; {follow}")
    message = render(with_held(Held(scored, (follow,))))
    for text in (message.text, message.html, message.entries[0].because):
        assert text.count("whom you follow") == 1, text
    assert "closest to: Some liked paper" in message.entries[0].because


@pytest.mark.parametrize("body", ["text", "html"])
def test_held_alerts_left_out_are_said_in_every_channel(body: str) -> None:
    """A digest carries the best 100 held alerts (alerts.HELD_MOST): the rest are counted, not
    claimed to be all there."""
    digest = dataclass_replace(held_and_picked(), held_left=42)
    message = render(digest)
    out = " ".join(re.sub(r"<[^>]+>", "", getattr(message, body)).split())
    assert "The best 1 are here; 42 more were left out, and not among your picks either" in out
    assert message.entries[0].section.endswith("held for this digest (the best; 42 more left out)")


# --- a subscriber's name, and each link's name --------------------------------------------------

# Every control plain() takes out, in a name whose HTML-looking characters the HTML escapes:
# each bidi control, C0 (ESC, BEL, CR), DEL and C1's CSI.
NAMED = "<img src=x>Zoë & \"Co\" 'x' \u202eevil" + BIDI + " \x1b[31m\x07\r\x7f\x9bred"
SHOWN = "<img src=x>Zoë & \"Co\" 'x' evil [31m red"


def every_message_of(name: str) -> list[Message]:
    env, scored = make_environment(), Scored(FEDHET, 0.5, ("federated",))
    links = links_for({"base_url": "https://d.example", "secret": "n" * 32}, name, datetime.now())
    digest = render_digest(make_digest(scored, subscriber=name), env, links)
    alert = render_alert(name, DAY, scored, ["a keyword"], env, links)
    return [digest, alert, render_notice(name, DAY, "quiet", "No new papers.", env, links)]


def test_a_subscriber_names_controls_leave_every_text_of_every_message() -> None:
    """The subject and text part had lost the name's U+202E, the HTML's <title> and <h1> kept
    it (web2 F2)."""
    for message in every_message_of(NAMED):
        shown = [message.subject, message.text, message.html, message.heading, message.footer]
        assert [c for text in shown for c in text if c in BIDI] == []
        assert [control_characters(text) for text in shown] == [[]] * len(shown)
        assert "&lt;img src=x&gt;Zoë &amp;" in message.html and "<img" not in message.html
    digest = every_message_of(NAMED)[0]
    assert digest.heading == f"Paper digest for {SHOWN} — 2026-11-30"
    assert digest.footer.endswith(f"similarity to {SHOWN}'s interests")


def test_chromium_shows_a_names_text_in_the_order_it_was_written(browser_page) -> None:
    """Chromium had shown the <h1>'s "evil" as "live", and the <title> turned around."""
    page = browser_page
    for message in every_message_of(NAMED):
        page.set_content(message.html)
        text = page.locator("body").inner_text()
        assert SHOWN in page.title() and f"for {SHOWN}" in text
        assert not set(page.title() + text) & set(BIDI)


PAPER_LINKS = ["paper", "PDF", "code", "👍 more like this", "👎 less like this"]


def test_each_link_of_a_paper_is_named_with_its_title_in_chromium(browser_page) -> None:
    """Eight papers gave eight links named "👍 more like this" and eight "👎 less": a screen
    reader's list of links could not tell which paper a vote rated (web2 F3). Each is named by
    its words and the paper's title (aria-labelledby, which the CSS inlining leaves alone); the
    👎 link's words are those of its title."""
    web = {"base_url": "https://d.example", "secret": "n" * 32}
    links = links_for(web, "alice", datetime(2026, 11, 30, 7, tzinfo=UTC))
    env, page = make_environment(), browser_page
    alert = render_alert("alice", DAY, Scored(FEDHET, 0.5), ["a keyword"], env, links)
    no_pdf = [label for label in PAPER_LINKS if label != "PDF"]  # DPLORA has no arXiv id
    for html, named in (
        (render_digest(two_items(), env, links).html, {FEDHET: PAPER_LINKS, DPLORA: no_pdf}),
        (alert.html, {FEDHET: PAPER_LINKS[1:]}),  # its heading is the paper's link
    ):
        page.set_content(html)
        for paper, labels in named.items():
            for label in labels:
                link = page.get_by_role("link", name=f"{label} {paper.title}", exact=True)
                assert link.count() == 1, (label, paper.title)
        for label in PAPER_LINKS:  # none is named by its words alone
            assert page.get_by_role("link", name=label, exact=True).count() == 0
        down = page.locator("a[title='less like this']")
        assert down.count() == len(named) and down.first.inner_text() == "👎 less like this"

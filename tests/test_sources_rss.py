"""The rss source against a real server on 127.0.0.1: RSS 2.0 as arXiv writes it, RSS 1.0
(RDF) as journals write it, Atom; HTML reduced to text, ids found where each feed keeps them;
malformed, empty and non-feeds."""

from __future__ import annotations

import bz2
import gzip
import html
import lzma
import subprocess
import sys
from collections.abc import Iterator
from datetime import date

import pytest
from feedserver import Answer, FeedServer, serve

from digest.models import Paper, SourceConfig, SourceError
from digest.models.identity import abstract_id, keys
from digest.sources.rss import RssSource, html_text
from digest.sources.titles import derive_title
from digest.sources.web import Policy


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


ARXIV_RSS = """<?xml version='1.0' encoding='UTF-8'?>
<rss xmlns:arxiv="http://arxiv.org/schemas/atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     version="2.0">
  <channel>
    <title>cs.LG updates on arXiv.org</title>
    <link>http://rss.arxiv.org/rss/cs.LG</link>
    <description>cs.LG updates on the arXiv.org e-print archive.</description>
    <language>en-us</language>
    <lastBuildDate>Mon, 30 Nov 2026 00:00:00 -0500</lastBuildDate>
    <item>
      <title>Private Federated Learning with Heterogeneous Clients</title>
      <link>https://arxiv.org/abs/2611.01234</link>
      <description>arXiv:2611.01234v1 Announce Type: new
Abstract: We study &lt;em&gt;differential privacy&lt;/em&gt; in federated learning &amp;amp; show
&lt;b&gt;tight&lt;/b&gt; bounds. Code: &lt;a href="https://github.com/acme/pfl"&gt;github.com/acme/pfl&lt;/a&gt;</description>
      <guid isPermaLink="false">oai:arXiv.org:2611.01234v1</guid>
      <category>cs.LG</category>
      <category>cs.CR</category>
      <pubDate>Mon, 30 Nov 2026 00:00:00 -0500</pubDate>
      <arxiv:announce_type>new</arxiv:announce_type>
      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>
      <dc:creator>Ada Lovelace, Alan Turing, Grace Hopper</dc:creator>
    </item>
    <item>
      <title>Machine Unlearning for Large Language Models</title>
      <link>https://arxiv.org/abs/2610.04321</link>
      <description>arXiv:2610.04321v2 Announce Type: replace
Abstract: Unlearning removes data.</description>
      <guid isPermaLink="false">oai:arXiv.org:2610.04321v2</guid>
      <pubDate>Mon, 30 Nov 2026 00:00:00 -0500</pubDate>
      <dc:creator>Emmy Noether</dc:creator>
    </item>
  </channel>
</rss>
"""

JOURNAL_RDF = """<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
  <channel rdf:about="https://www.journal.example/rss">
    <title>Journal of Examples: Latest Articles</title>
    <link>https://www.journal.example</link>
    <description>Latest articles</description>
    <items><rdf:Seq><rdf:li rdf:resource="https://www.journal.example/articles/s1"/></rdf:Seq></items>
  </channel>
  <item rdf:about="https://www.journal.example/articles/s1">
    <title>Protein structure prediction with equivariant networks</title>
    <link>https://www.journal.example/articles/s1</link>
    <description>&lt;p&gt;Proteins fold.&lt;/p&gt;&lt;p&gt;We predict how.&lt;/p&gt;</description>
    <dc:creator>Rosalind Franklin</dc:creator>
    <dc:creator>Linus Pauling</dc:creator>
    <dc:identifier>doi:10.1038/S41586-026-00001-X</dc:identifier>
    <prism:doi>10.1038/s41586-026-00001-x</prism:doi>
    <dc:date>2026-11-25</dc:date>
  </item>
</rdf:RDF>
"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>bioRxiv: Bioinformatics</title>
  <id>https://www.biorxiv.example/bioinformatics</id>
  <updated>2026-11-29T00:00:00Z</updated>
  <entry>
    <title type="html">Single-cell atlases &lt;i&gt;at scale&lt;/i&gt;</title>
    <id>https://doi.org/10.1101/2026.11.20.123456</id>
    <link href="https://www.biorxiv.example/content/10.1101/2026.11.20.123456v1"/>
    <updated>2026-11-28T00:00:00Z</updated>
    <author><name>Barbara McClintock</name></author>
    <content type="html">&lt;script&gt;track()&lt;/script&gt;
      &lt;p&gt;We map cells&amp;nbsp;fast.&lt;/p&gt;</content>
  </entry>
  <entry>
    <title>An entry with neither id nor link about graph neural networks</title>
    <summary>Graphs everywhere.</summary>
  </entry>
  <entry><title></title><summary></summary></entry>
</feed>
"""

EMPTY_RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Quiet</title>
<link>https://example.org</link><description>nothing today</description></channel></rss>"""


def fetch(server: FeedServer, path: str, **options: object) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    config = SourceConfig("rss", "feed", {"url": f"{server.url}{path}", **options})
    papers = list(RssSource(Policy(timeout=2, retries=0)).fetch(config, warnings.append))
    return papers, warnings


def test_arxivs_rss_gives_bare_ids_clean_abstracts_and_each_author(server: FeedServer) -> None:
    server.route("/rss/cs.LG", Answer(body=ARXIV_RSS, content_type="application/rss+xml"))
    (new, replaced), warnings = fetch(server, "/rss/cs.LG")
    assert warnings == []
    assert (new.id, replaced.id) == ("2611.01234", "2610.04321")
    assert new.abstract == (
        "We study differential privacy in federated learning & show tight bounds. "
        "Code: github.com/acme/pfl"
    )
    assert new.authors == ("Ada Lovelace", "Alan Turing", "Grace Hopper")
    assert new.code_url == "https://github.com/acme/pfl"
    assert new.categories == ("cs.LG", "cs.CR")
    assert new.venue == "cs.LG updates on arXiv.org" and new.source == "rss:feed"
    assert new.published == date(2026, 11, 30)
    assert replaced.abstract == "Unlearning removes data." and replaced.authors == ("Emmy Noether",)


def test_a_journals_rss_1_0_feed_gives_dois(server: FeedServer) -> None:
    server.route("/rss", Answer(body=JOURNAL_RDF, content_type="application/rdf+xml"))
    (paper,), warnings = fetch(server, "/rss")
    assert warnings == []
    assert paper.id == "10.1038/s41586-026-00001-x"
    assert paper.abstract == "Proteins fold. We predict how."
    assert paper.authors == ("Rosalind Franklin", "Linus Pauling")
    assert paper.published == date(2026, 11, 25)
    assert paper.venue == "Journal of Examples: Latest Articles"


PUBLISHERS_RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Publishers</title><link>https://example.org</link><description>d</description>
<item><title>Error correction below threshold</title>
<link>https://www.nature.com/articles/s41586-026-01234-5</link>
<content:encoded><![CDATA[<p>Nature, Published online: 02 December 2026; <a href="https://www.
nature.com/articles/s41586-026-01234-5">doi:10.1038/s41586-026-01234-5</a></p>We demonstrate
error correction.]]></content:encoded></item>
<item><title>A dissipative time crystal</title><link>https://journals.aps.org/prl/x</link>
<description>Author(s): Xiaoling Wu, Zhuqing Wang, and Fan Yang&lt;br /&gt;&lt;p&gt;We report a
time crystal.&lt;/p&gt;&lt;br/&gt;[Phys. Rev. Lett. 137, 230601] Published Tue Dec 01, 2026
</description></item>
<item><title>Graph networks for optimization: a survey</title>
<link>https://www.sciencedirect.com/science/article/pii/S0004370226001234</link>
<description><![CDATA[<p>Publication date: February 2027</p><p><b>Source:</b> Artificial
Intelligence, Volume 333</p><p>Author(s): Maria Garcia, Li Wei</p>]]></description></item>
</channel></rss>"""


def test_a_publishers_wrapping_is_no_abstract_and_its_doi_and_authors_are_kept(
    server: FeedServer,
) -> None:
    # Nature's "Published online" line, APS's byline and tail, ScienceDirect's lines: they were
    # the abstract's first words (or all of it), and followed authors never matched.
    server.route("/rss", Answer(body=PUBLISHERS_RSS, content_type="application/rss+xml"))
    (nature, aps, sd), warnings = fetch(server, "/rss")
    assert warnings == []
    assert nature.id == "10.1038/s41586-026-01234-5"
    assert nature.abstract == "We demonstrate error correction."
    assert aps.abstract == "We report a time crystal." and aps.authors == (
        "Xiaoling Wu",
        "Zhuqing Wang",
        "Fan Yang",
    )
    assert sd.abstract == "" and sd.authors == ("Maria Garcia", "Li Wei")


def test_an_atom_feed_loses_its_markup_and_scripts(server: FeedServer) -> None:
    server.route("/atom", Answer(body=ATOM))
    (cells, graphs), warnings = fetch(server, "/atom")
    assert cells.id == "10.1101/2026.11.20.123456"
    assert cells.title == "Single-cell atlases at scale"
    assert cells.abstract == "We map cells fast."  # the script is gone, &nbsp; is a space
    assert cells.url == "https://www.biorxiv.example/content/10.1101/2026.11.20.123456v1"
    # No id anywhere: the normalized title is the identity.
    assert graphs.id.startswith("t:") and graphs.abstract == "Graphs everywhere."
    assert warnings == ["feed: entry 3 has neither title nor abstract, skipped"]


def test_an_empty_feed_is_no_papers_and_no_error(server: FeedServer) -> None:
    server.route("/quiet", Answer(body=EMPTY_RSS, content_type="application/rss+xml"))
    assert fetch(server, "/quiet") == ([], [])


def until_failure(server: FeedServer, path: str) -> tuple[list[Paper], list[str], str]:
    """The papers a source gives before it fails, its warnings and its failure."""
    papers: list[Paper] = []
    warnings: list[str] = []
    config = SourceConfig("rss", "feed", {"url": f"{server.url}{path}"})
    with pytest.raises(SourceError) as failure:
        for paper in RssSource(Policy(timeout=2, retries=0)).fetch(config, warnings.append):
            papers.append(paper)
    return papers, warnings, str(failure.value)


def test_a_feed_cut_short_keeps_its_whole_entries_and_fails_the_source(server: FeedServer) -> None:
    """A connection closed early (HTTP/1.0 style, no length) had been a successful read: the run
    closed the day on the entries before the cut, and arXiv's daily feed had moved on by the
    next run, the rest of the day's papers never read."""
    broken = ARXIV_RSS[: ARXIV_RSS.index("<item>", ARXIV_RSS.index("</item>")) + 30]
    server.route("/broken", Answer(body=broken, content_type="application/rss+xml", closed=True))
    papers, warnings, failure = until_failure(server, "/broken")
    assert [p.id for p in papers] == ["2611.01234"] and warnings == []
    assert failure.startswith("feed: feed cut short, before its document's end (<unknown>:")
    assert failure.endswith(f") from {server.url}/broken")


def test_the_entry_a_cut_feed_ends_in_is_no_paper(server: FeedServer) -> None:
    """Kept as it stood, it was a paper with no abstract, DOI or date; the whole of it, read
    the next day, was "seen before" and never sent."""
    cut = JOURNAL_RDF[: JOURNAL_RDF.index("<dc:creator>")]
    server.route("/cut", Answer(body=cut, content_type="application/rdf+xml", closed=True))
    papers, _, failure = until_failure(server, "/cut")
    assert papers == [] and "feed cut short" in failure
    whole = JOURNAL_RDF.replace("</rdf:RDF>", "</rdf:RDF>\n\n")
    server.route("/whole", Answer(body=whole, content_type="application/rdf+xml"))
    assert len(fetch(server, "/whole")[0]) == 1


def test_a_feed_cut_short_after_another_error_fails_too(server: FeedServer) -> None:
    """Expat stops at a document's first error: after an undeclared &nbsp;, or whitespace before
    the XML declaration, it never reached the cut, and the entry cut in two was a paper."""
    items = ARXIV_RSS.replace("federated learning &amp;amp;", "federated&nbsp;learning")
    for body in (items, "\n  " + ARXIV_RSS):
        server.route("/cut", Answer(body=body[: body.index("Unlearning removes")], closed=True))
        papers, _, failure = until_failure(server, "/cut")
        assert [p.id for p in papers] == ["2611.01234"]
        assert "feed cut short, before its document's end (no </rss> at its end) from" in failure


def test_a_feed_that_never_closes_served_with_its_length_is_whole_as_served(
    server: FeedServer,
) -> None:
    """A length the client read in full is the publisher's feed, the same on every read: it had
    failed the source on every run. Its entries are kept, but one its body ends within."""
    unclosed = ARXIV_RSS[: ARXIV_RSS.index("</channel>")]
    server.route("/unclosed", Answer(body=unclosed, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/unclosed")
    assert len(papers) == 2 and len(warnings) == 1 and "malformed feed" in warnings[0]
    cut = ARXIV_RSS[: ARXIV_RSS.index("Unlearning removes")]
    server.route("/cut", Answer(body=cut, content_type="application/rss+xml", chunked=True))
    papers, warnings = fetch(server, "/cut")
    assert [p.id for p in papers] == ["2611.01234"] and len(warnings) == 1


CNKI_RSS = """<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>学报</title>
<item><title>基于图神经网络的蛋白质结构预测方法研究</title><description>暂无摘要</description></item>
<item><title>面向量子材料的机器学习优化算法</title><description>暂无摘要</description></item>
<item><title>大语言模型</title><description>暂无摘要</description></item>
</channel></rss>"""


def test_chinese_titles_tell_papers_with_one_placeholder_abstract_apart(
    server: FeedServer,
) -> None:
    """Split on spaces, a Chinese title was one word, too few to tell papers apart: each fell
    back to its abstract, and three papers of one placeholder were one."""
    server.route("/cnki", Answer(body=CNKI_RSS, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/cnki")
    assert len({p.id for p in papers}) == 3 and not warnings
    assert [p.id[:2] for p in papers] == ["t:", "t:", "t:"]
    # The abstract hash it was stored under before is one of its keys, as its own title is.
    assert abstract_id("暂无摘要") in keys(papers[0])


def test_an_entry_that_cannot_be_read_costs_that_entry_not_the_feed(
    server: FeedServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One item's text raised (a RecursionError in its LaTeX) and the feed's good items were
    # lost with it: the source failed.
    from digest.sources import rss

    reading = rss.to_paper

    def odd(entry: dict[str, object], *args: object) -> Paper | None:
        if entry.get("id") == "oai:arXiv.org:2611.01234v1":
            raise RecursionError("maximum recursion depth exceeded")
        return reading(entry, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(rss, "to_paper", odd)
    server.route("/feed", Answer(body=ARXIV_RSS, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/feed")
    assert papers and "2611.01234" not in {p.id for p in papers}
    assert warnings == ["feed: entry 1 cannot be read (RecursionError), skipped"]


@pytest.mark.parametrize(
    "body", ["<html><head><title>Sign in</title></head><body>Login</body></html>", "", "{}"]
)
def test_a_page_that_is_no_feed_fails_the_source(server: FeedServer, body: str) -> None:
    server.route("/login", Answer(body=body, content_type="text/html"))
    with pytest.raises(SourceError, match="feed: not an RSS or Atom feed") as info:
        fetch(server, "/login?token=s3cr3t")
    message = str(info.value)
    assert message.endswith(f") from {server.url}/login")  # the address, without its query
    assert "s3cr3t" not in message and "\n" not in message


def test_a_web_page_given_as_a_feed_names_the_feed_it_links_to(server: FeedServer) -> None:
    page = (
        '<html><head><link rel="alternate" type="application/rss+xml" href="/journal/rss.xml">'
        "</head><body>The journal</body></html>"
    )
    server.route("/journal", Answer(body=page, content_type="text/html"))
    with pytest.raises(SourceError) as info:
        fetch(server, "/journal")
    assert str(info.value).endswith(f"; the page names its feed: {server.url}/journal/rss.xml")


def test_a_missing_feed_fails_the_source_with_the_status(server: FeedServer) -> None:
    with pytest.raises(SourceError, match=f"HTTP 404 Not Found from {server.url}/gone"):
        fetch(server, "/gone")


RELATIVE_RSS = """<?xml version="1.0"?><rss version="2.0"><channel><title>Lab news</title>
<link>/</link><description>papers</description>
<item><title>Site-relative link to a paper on privacy</title><link>/a/2</link></item>
<item><title>Page-relative link to a paper on privacy</title><link>papers/3.html</link></item>
<item><title>Absolute link to a paper on privacy</title><link>https://x.org/p/4</link></item>
<item><title>A paper on privacy without any link</title></item>
</channel></rss>"""


def test_site_relative_links_are_resolved_against_the_site_the_feed_came_from(
    server: FeedServer,
) -> None:
    server.route("/old/feed.xml", Answer(301, headers={"Location": "/lab/feed.xml?key=t0ken"}))
    server.route("/lab/feed.xml", Answer(body=RELATIVE_RSS, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/old/feed.xml")
    assert [p.url for p in papers] == [
        f"{server.url}/a/2",
        "papers/3.html",  # not joined to the feed's path, which may be its token: no link
        "https://x.org/p/4",
        "",
    ]
    assert warnings == []


def test_credentials_in_the_feeds_address_never_reach_a_link(server: FeedServer) -> None:
    """user:password@ of the address (or of a redirect's) is not part of the site's links."""
    server.route("/priv", Answer(body=RELATIVE_RSS, content_type="application/rss+xml"))
    host = server.url.removeprefix("http://")
    server.route("/moved", Answer(302, headers={"Location": f"http://u:R3DIRPASS@{host}/priv"}))
    for url in (f"http://user:S3CRETPASS@{host}/priv?token=QTOKEN", f"{server.url}/moved"):
        config = SourceConfig("rss", "feed", {"url": url})
        papers = list(RssSource(Policy(timeout=2, retries=0)).fetch(config, print))
        assert papers[0].url == f"{server.url}/a/2"
        text = repr(papers)
        assert "PASS" not in text and "QTOKEN" not in text and "@" not in text


def test_an_items_own_link_never_carries_a_user_or_password(server: FeedServer) -> None:
    """A feed generator that builds absolute links from the address it was asked on puts the
    operator's credentials in every item: a reader's link never needs them."""
    host = server.url.removeprefix("http://")
    body = RELATIVE_RSS.replace("https://x.org/p/4", f"http://feeduser:F33DPASS@{host}/item/2")
    server.route("/creds", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/creds")
    assert papers[2].url == f"{server.url}/item/2"


def test_a_reference_to_a_character_xml_forbids_costs_that_character_not_the_feed(
    server: FeedServer,
) -> None:
    """feedparser's loose parser failed the whole feed on one &#xD800; (every item lost)."""
    body = RELATIVE_RSS.replace("Site-relative link", "Site&#xD800;-relative&#0; link&#1114112;")
    server.route("/refs", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/refs")
    assert len(papers) == 4 and papers[0].title.startswith("Site-relative link to a paper")


def test_a_content_location_header_does_not_resolve_links_against_the_feeds_path(
    server: FeedServer,
) -> None:
    for where in ("/feeds/TOKEN123/rss", f"{server.url}/feeds/TOKEN123/rss"):
        headers = {"Content-Location": where}
        server.route(
            "/feeds/TOKEN123/rss",
            Answer(body=RELATIVE_RSS, content_type="application/rss+xml", headers=headers),
        )
        papers, _ = fetch(server, "/feeds/TOKEN123/rss")
        assert [p.url for p in papers] == [
            f"{server.url}/a/2",
            "papers/3.html",  # as without the header: relative to the secret path, no link
            "https://x.org/p/4",
            "",
        ]


def test_an_item_with_a_description_and_no_title_gets_a_title_from_its_text(
    server: FeedServer,
) -> None:
    text = "We propose WidgetNet, a graph model that predicts widget failures from sensor logs."
    body = (
        '<?xml version="1.0"?><rss version="2.0"><channel><title>Lab</title>'
        f"<item><description>{text}</description><link>https://x.org/1</link></item>"
        "</channel></rss>"
    )
    server.route("/untitled", Answer(body=body, content_type="application/rss+xml"))
    (paper,), warnings = fetch(server, "/untitled")
    assert warnings == []
    assert paper.title == derive_title(text) != ""
    assert paper.id == abstract_id(text)  # a derived title is no identity
    assert keys(paper) == [abstract_id(text)]


def test_html_becomes_readable_text() -> None:
    assert html_text("<p>a &amp; b</p><p>c<br/>d</p><style>p{}</style>") == "a & b c d"
    assert html_text("plain  text\n here") == "plain text here"
    assert html_text("x &lt; y &#8212; z") == "x < y — z"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("Sharp bounds for $k<n$ sparse recovery when $m>2$", None),
        ("We compute <psi|H|psi> for the ground state |0> of the chain.", None),
        ("if x<y then a<b and c>d.", None),
        ("MoS<sub>2</sub> films", "MoS₂ films"),  # a subscript stays lowered (markup.py)
        ('<jats:p>Abstract</jats:p> <a href="x">link</a>', "Abstract link"),
        ("<!-- a comment --> kept", "kept"),
    ],
)
def test_a_less_than_sign_that_opens_no_tag_is_text(text: str, shown: str | None) -> None:
    """Parsed as HTML, "$k<n$ ... $m>2$" had lost all between its < and >: the title was
    "Sharp bounds for k2", which then no longer matched the same paper from arXiv."""
    assert html_text(text) == (shown or text)


def test_a_feeds_own_text_keeps_its_less_than_signs(server: FeedServer) -> None:
    """feedparser's sanitizer parsed arXiv's escaped abstracts as HTML before html_text did."""
    body = ARXIV_RSS.replace(
        "Unlearning removes data.", "For all $k&lt;n$ and $m&gt;2$ unlearning removes data."
    )
    server.route("/lt", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/lt")
    assert papers[1].abstract == "For all k<n and m>2 unlearning removes data."  # math as text


def test_arxivs_feed_gives_a_published_papers_doi_and_journal(server: FeedServer) -> None:
    body = ARXIV_RSS.replace(
        "<dc:creator>Emmy Noether</dc:creator>",
        "<dc:creator>Emmy Noether</dc:creator><arxiv:DOI>10.1103/PhysRevLett.137.230601"
        " 10.1103/PhysRevLett.137.230602</arxiv:DOI>"
        "<arxiv:journal_reference>Phys. Rev. Lett. 137, 230601 (2026)</arxiv:journal_reference>",
    )
    server.route("/doi", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/doi")
    assert papers[1].id == "2610.04321" and "10.1103/physrevlett.137.230601" in papers[1].aliases
    assert papers[1].venue == "Phys. Rev. Lett. 137, 230601 (2026)"


def test_the_abstract_is_the_longer_of_description_and_content(server: FeedServer) -> None:
    """Wiley's description is "Journal, EarlyView." and its abstract is in content:encoded."""
    body = RELATIVE_RSS.replace(
        "<title>Absolute link to a paper on privacy</title>",
        "<title>Absolute link to a paper on privacy</title>"
        "<description>Angewandte Chemie, EarlyView.</description>"
        "<content:encoded><![CDATA[<p>We make catalysts private and fast.</p>]]></content:encoded>",
    ).replace(
        "<rss version", '<rss xmlns:content="http://purl.org/rss/1.0/modules/content/" version'
    )
    server.route("/wiley", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/wiley")
    assert papers[2].abstract == "We make catalysts private and fast."


# --- replacements: new versions of older papers -------------------------------------------------

OLD_ARXIV_RDF = """<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="http://arxiv.org/rss/hep-ex">
    <title>hep-ex updates on arXiv.org</title>
    <link>http://arxiv.org/</link>
    <description>High Energy Physics - Experiment (hep-ex) updates</description>
  </channel>
  <item rdf:about="http://arxiv.org/abs/1805.09166">
    <title>Measurement of the W boson mass. (arXiv:1805.09166v1 [hep-ex] CROSS LISTED)</title>
    <link>http://arxiv.org/abs/1805.09166</link>
    <description rdf:parseType="Literal">&lt;p&gt;We measure the W mass.&lt;/p&gt;</description>
    <dc:creator> &lt;a href="http://arxiv.org/find/hep-ex/1/au:+Adamczyk_L/0/1/0/all/0/1"&gt;L.
 Adamczyk&lt;/a&gt;, &lt;a href="http://arxiv.org/find/hep-ex/1/au:+Adkins_J/0/1/0/all/0/1"&gt;J. K.
 Adkins&lt;/a&gt; (STAR Collaboration)</dc:creator>
  </item>
  <item rdf:about="http://arxiv.org/abs/1704.01234">
    <title>Jet quenching at RHIC. (arXiv:1704.01234v3 [nucl-ex] UPDATED)</title>
    <link>http://arxiv.org/abs/1704.01234</link>
    <description rdf:parseType="Literal">&lt;p&gt;Jets lose energy.&lt;/p&gt;</description>
    <dc:creator>&lt;a href="http://arxiv.org/a/x"&gt;Grace Hopper&lt;/a&gt;</dc:creator>
  </item>
</rdf:RDF>
"""


def test_arxivs_replace_entries_are_marked_and_carry_no_listing_date(server: FeedServer) -> None:
    server.route("/rss/cs.LG", Answer(body=ARXIV_RSS, content_type="application/rss+xml"))
    (new, replaced), _ = fetch(server, "/rss/cs.LG")
    assert not new.replacement and new.published == date(2026, 11, 30)
    # The feed's pubDate is the day the new version was listed, not the paper's date.
    assert replaced.replacement and replaced.published is None


def test_a_source_opts_in_to_replacements_as_new_papers(server: FeedServer) -> None:
    server.route("/rss/cs.LG", Answer(body=ARXIV_RSS, content_type="application/rss+xml"))
    (_, replaced), _ = fetch(server, "/rss/cs.LG", replacements=True)
    assert not replaced.replacement and replaced.published is None


def test_the_announce_type_element_alone_marks_a_replace_cross(server: FeedServer) -> None:
    body = ARXIV_RSS.replace("Announce Type: replace\n", "").replace(
        "<dc:creator>Emmy Noether",
        "<arxiv:announce_type>replace-cross</arxiv:announce_type><dc:creator>Emmy Noether",
    )
    server.route("/rss/cs.LG", Answer(body=body, content_type="application/rss+xml"))
    (new, replaced), _ = fetch(server, "/rss/cs.LG")
    assert replaced.replacement and not new.replacement


def test_an_atom_replacement_keeps_its_original_date(server: FeedServer) -> None:
    body = ATOM.replace(
        "<updated>2026-11-28T00:00:00Z</updated>",
        "<published>2026-03-02T00:00:00Z</published><updated>2026-11-28T00:00:00Z</updated>"
        "<summary>arXiv:2603.00001v2 Announce Type: replace Abstract: We map cells.</summary>",
    )
    server.route("/atom", Answer(body=body, content_type="application/atom+xml"))
    (cells, _), _ = fetch(server, "/atom")
    assert cells.replacement and cells.published == date(2026, 3, 2)


def test_old_arxiv_rdf_titles_lose_the_listing_and_updated_items_are_replacements(
    server: FeedServer,
) -> None:
    server.route("/rss/hep-ex", Answer(body=OLD_ARXIV_RDF, content_type="application/rdf+xml"))
    (crossed, updated), warnings = fetch(server, "/rss/hep-ex")
    assert warnings == []
    assert (crossed.id, crossed.title) == ("1805.09166", "Measurement of the W boson mass")
    assert crossed.authors == ("L. Adamczyk", "J. K. Adkins", "STAR Collaboration")
    assert not crossed.replacement  # a cross-listing is new to this category
    assert (updated.id, updated.title) == ("1704.01234", "Jet quenching at RHIC")
    assert updated.replacement and updated.authors == ("Grace Hopper",)


def test_a_biorxiv_creator_string_of_surnames_and_initials_is_each_author(
    server: FeedServer,
) -> None:
    body = JOURNAL_RDF.replace(
        "<dc:creator>Rosalind Franklin</dc:creator>\n    <dc:creator>Linus Pauling</dc:creator>",
        "<dc:creator>Kukla, D., Crampton, A., Wood, D., Khetani, S.</dc:creator>",
    )
    server.route("/rss", Answer(body=body, content_type="application/rdf+xml"))
    (paper,), _ = fetch(server, "/rss")
    assert paper.authors == ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani")


def test_latex_in_a_feed_reads_as_text_and_dollar_amounts_stay(server: FeedServer) -> None:
    body = ARXIV_RSS.replace(
        "Private Federated Learning with Heterogeneous Clients",
        "Private learning at 2.1$\\mu$W for $5 million",
    )
    server.route("/rss/cs.LG", Answer(body=body, content_type="application/rss+xml"))
    (new, _), _ = fetch(server, "/rss/cs.LG")
    assert new.title == "Private learning at 2.1μW for $5 million"


def test_ingest_keeps_a_replacement_only_of_a_paper_the_store_has(
    server: FeedServer, tmp_path
) -> None:
    from datetime import UTC, datetime

    from digest.intake import ingest
    from digest.models import Settings
    from digest.state import Store

    now = datetime(2026, 11, 30, 9, tzinfo=UTC)
    url = f"{server.url}/rss/cs.LG"
    settings = Settings("t.toml", (SourceConfig("rss", "feed", {"url": url}),), ())
    opted_in = Settings(
        "t.toml", (SourceConfig("rss", "feed", {"url": url, "replacements": True}),), ()
    )
    server.route("/rss/cs.LG", Answer(body=ARXIV_RSS, content_type="application/rss+xml"))
    with Store(tmp_path / "a.db") as store:
        (report,), _ = ingest(settings, store, now)
        # The replace entry of an unseen paper is not new, and is said left out.
        assert (report.read, report.new, report.unseen_versions) == (2, 1, 1)
        assert [p.id for _, p in store.papers_after(0)] == ["2611.01234"]
    with Store(tmp_path / "b.db") as store:
        (report,), _ = ingest(opted_in, store, now)
        assert report.new == 2
    # A paper the store has: its new version completes the stored record.
    known = ARXIV_RSS.replace("Announce Type: new", "Announce Type: replace")
    with Store(tmp_path / "a.db") as store:
        server.route("/rss/cs.LG", Answer(body=known, content_type="application/rss+xml"))
        (report,), _ = ingest(settings, store, now)
        assert (report.read, report.new) == (2, 0)
        assert store.count_papers() == 1


def test_a_304_nobody_asked_for_fails_the_source(server: FeedServer) -> None:
    # A cache in between answering for another client: no feed was read, and it is no news.
    server.route("/rss", Answer(304))
    with pytest.raises(SourceError, match="304 Not Modified, unasked"):
        fetch(server, "/rss")


def test_a_changed_feed_gives_its_new_validators_and_an_unchanged_one_none(
    server: FeedServer,
) -> None:
    server.route(
        "/rss",
        Answer(body=EMPTY_RSS, content_type="application/rss+xml", headers={"ETag": '"v2"'}),
        Answer(304),
    )
    config = SourceConfig("rss", "feed", {"url": f"{server.url}/rss"})
    source = RssSource(Policy(timeout=2, retries=0))
    validators = {"etag": '"v1"', "modified": ""}
    list(source.fetch(config, print, validators=validators))
    assert validators == {"etag": '"v2"', "modified": ""}
    assert list(source.fetch(config, print, validators=validators)) == []
    assert validators["unchanged"] == "1"


@pytest.mark.parametrize(
    "text",
    ["<a" + " " * 100_000 + "x", "x" + " " * 100_000, "<br>" * 40_000],
    ids=["an unclosed tag and blanks", "blanks before the end", "line breaks"],
)
def test_no_item_text_holds_a_run(text: str) -> None:
    # Each took minutes (a pattern that tried its blanks every way), holding the run, and its
    # lock, past a cron slot: a hang, not a speed. A subprocess, so a hang fails the test.
    code = (
        "import sys; from digest.sources.rss import html_text;"
        " from digest.sources.publishers import unwrap;"
        " t = sys.stdin.read(); html_text(t); unwrap(t); print('done')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], input=text, capture_output=True, text=True, timeout=60
    )
    assert done.stdout == "done\n", done.stderr


def test_tags_with_a_closing_slash_or_attributes_stay_tags() -> None:
    assert (
        html_text("a<br />b<br/>c<img src='x' />d<hr>e") == "a b cd e"
    )  # a rule parts words (reg37 F8)
    assert html_text("x <a b>") == "x <a b>" and html_text("1 <2 and 3> 2") == "1 <2 and 3> 2"


def test_a_stray_windows_1252_byte_costs_its_character_not_the_feeds_letters(
    server: FeedServer,
) -> None:
    """feedparser read the whole document as Windows-1252: "GrÃ¶ÃŸen...", and the same paper,
    its title decoded right the next day, was sent again."""
    items = (
        "<item><title>Größenabhängige Quantenmaterialien</title><description>Jürgen Weiß"
        " misst.</description></item><item><title>Second paper on spin liquids</title>"
        "<description>It\x00s here.</description></item>"
    )
    body = '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>x</title>'
    body += f"{items}</channel></rss>"
    data = body.encode("utf-8").replace(b"\x00", b"\x92")
    server.route("/mixed", Answer(body=data, content_type="application/rss+xml; charset=utf-8"))
    papers, warnings = fetch(server, "/mixed")
    assert [p.title for p in papers] == [
        "Größenabhängige Quantenmaterialien",
        "Second paper on spin liquids",
    ]
    assert papers[1].abstract == "It’s here."
    assert warnings == ["feed: 1 bytes that are not UTF-8 read as Windows-1252"]


def test_an_items_date_is_the_day_its_publisher_wrote_in_its_own_zone(server: FeedServer) -> None:
    """Read in UTC, a Tokyo journal's items of midnight were dated the day before."""
    items = "".join(
        f"<item><title>Paper {n} on quantum materials</title><description>x</description>{d}</item>"
        for n, d in enumerate(
            [
                "<pubDate>Tue, 03 Mar 2026 00:00:00 +0900</pubDate>",
                "<dc:date>2026-03-03T00:00:00+09:00</dc:date>",
                "<pubDate>Tue, 03 Mar 2026 23:30:00 -0500</pubDate>",
            ]
        )
    )
    body = '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
    server.route("/tokyo", Answer(body=f"{body}{items}</channel></rss>"))
    papers, _ = fetch(server, "/tokyo")
    assert [p.published for p in papers] == [date(2026, 3, 3)] * 3


NO_DATES = [
    "<dc:date>0000-00-00T00:00:00+00:00</dc:date>",  # MySQL's no-date (OJS, WordPress)
    "<pubDate>0000-00-00</pubDate>",
    "<pubDate>0000-00-00 00:00:00</pubDate>",
    "<dc:date>0000-03-02</dc:date>",  # year 0
    "<dc:date>2026-13-45</dc:date>",  # feedparser had made it 2027-01-01
    "<dc:date>2026-02-30T10:00:00Z</dc:date>",
]


def test_an_item_dated_with_what_cannot_be_a_date_is_kept_with_no_date(
    server: FeedServer,
) -> None:
    """feedparser reads "0000-00-00" as the year -1: the item had been lost as unreadable
    (ValueError) on every read, and the paper with it."""
    items = "".join(
        f"<item><title>Paper {n} on spin liquids</title><description>x</description>{d}</item>"
        for n, d in enumerate([*NO_DATES, "<dc:date>2026/03/02</dc:date>"])
    )
    body = '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
    server.route("/zd", Answer(body=f"{body}{items}</channel></rss>"))
    papers, warnings = fetch(server, "/zd")
    assert [p.published for p in papers] == [None] * len(NO_DATES) + [date(2026, 3, 2)]
    assert warnings == []


def test_an_atom_entry_with_a_zero_date_is_kept_with_no_date(server: FeedServer) -> None:
    entries = "".join(
        f"<entry><id>tag:blog.example,2026:post-{n}0001</id><title>Post {n} on spin liquids</title>"
        f"<summary>x</summary>{stamp}</entry>"
        for n, stamp in enumerate(
            [
                "<published>0000-00-00T00:00:00Z</published>",
                "<updated>0000-00-00T00:00:00Z</updated>",
            ]
        )
    )
    body = f'<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>{entries}</feed>'
    server.route("/zd.atom", Answer(body=body))
    papers, warnings = fetch(server, "/zd.atom")
    assert [p.published for p in papers] == [None, None] and warnings == []


def test_a_whole_but_malformed_feed_keeps_every_entry(server: FeedServer) -> None:
    """An undeclared &nbsp; and a cache plugin's comment after </rss>: judged cut short by its
    last bytes, the feed lost its last entry on every read."""
    items = "".join(
        f"<item><title>Paper {n} on spin liquids</title><description>a&nbsp;b</description></item>"
        for n in range(3)
    )
    body = f'<rss version="2.0"><channel><title>x</title>{items}</channel></rss>'
    body += "\n<!-- Dynamic page generated in 0.5 seconds. -->\n"
    server.route("/wp", Answer(body=body, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/wp")
    assert len(papers) == 3 and not [w for w in warnings if "cut short" in w]


@pytest.mark.parametrize(
    "whole",
    [
        ARXIV_RSS + "<p>Powered by a cache</p> junk",  # junk after the root
        ARXIV_RSS.replace("federated learning &amp;amp;", "federated&nbsp;learning"),
        "\n  " + ARXIV_RSS,  # whitespace before the XML declaration
        "\ufeff\n" + ARXIV_RSS,  # and a byte order mark
    ],
)
def test_a_malformed_but_whole_feed_is_read_whole_with_one_warning(
    server: FeedServer, whole: str
) -> None:
    """Real feeds, complete though not well-formed: no failure, no entry lost."""
    server.route("/whole", Answer(body=whole, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/whole")
    assert len(papers) == 2 and len(warnings) == 1 and "malformed feed" in warnings[0]


@pytest.mark.parametrize(
    ("entity", "junk"),
    [("", ""), (" &mdash;", ""), ("", "<p>5 < 6</p>")],  # well-formed once escaped, or not
)
def test_a_bare_ampersand_in_a_sloppy_feed_reads_as_written(
    server: FeedServer, entity: str, junk: str
) -> None:
    """feedparser's loose parser, which a feed's first bare "&" sent it to, closed each "&word"
    it did not know with a ";": readers saw "R&D;" and "AT&T;'s". References stay references."""
    items = [
        ("R&D for graph networks", "Spending on R&D rose; AT&T's data, Q&A, x&y=1."),
        (f"Known &amp; kept &#8212; &#x2014;{entity} as written", "<![CDATA[<p>M&A, H&E</p>]]>"),
    ]
    body = "".join(
        f"<item><title>{title}</title><link>https://j.example/a?n={n}&from=rss</link>"
        f"<description>{text}</description></item>"
        for n, (title, text) in enumerate(items)
    )
    body = f'<rss version="2.0"><channel><title>CMS</title>{body}{junk}</channel></rss>'
    server.route("/sloppy", Answer(body=body, content_type="application/rss+xml"))
    (rd, known), warnings = fetch(server, "/sloppy")
    assert (rd.title, rd.abstract) == (
        "R&D for graph networks",
        "Spending on R&D rose; AT&T's data, Q&A, x&y=1.",
    )
    assert known.title == "Known & kept — —" + " —" * bool(entity) + " as written"
    assert known.abstract == "M&A, H&E" and rd.url == "https://j.example/a?n=0&from=rss"
    # A bare "&" alone no longer makes the feed malformed; &mdash; (undeclared in XML) does.
    assert len(warnings) == (1 if entity or junk else 0)


NOTICES_RDF = """<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/">
  <channel rdf:about="https://www.journal.example/rss"><title>Nature</title></channel>
  {items}
</rdf:RDF>"""
NOTICE_TITLES = [
    "Author Correction: Graph neural networks reveal hidden order in quantum materials",
    "Retraction Note: Protein structure prediction by deep graph learning",
    "Correction to “Graph Neural Networks Predict Exciton Dynamics”",
    "[ASAP] Correction to “Sparse Autoencoders”",
    "Erratum: Spin liquids on the kagome lattice [Phys. Rev. B 99, 104401 (2019)]",
    "Editorial Expression of Concern",
    "Corrections to “Graph Neural Networks for Quantum Materials Property Prediction”",
    "RETRACTED ARTICLE: Protein Language Models Learn Quantum Materials",
    "Retraction of “Neural Networks for Protein Graph Learning”",
    "Retraction Statement: Deep nets for spin liquids",
    "Editorial Retraction",
    "Withdrawal: Deep nets for spin liquids",
]
PAPER_TITLES = [
    "Error correction codes for neutral-atom arrays",
    "Retraction of a soap film from a wire frame",
    "Correction factors: a review of dosimetry",
    "Correction of motion artifacts in MRI with deep learning",
]


def test_a_journals_notices_are_no_papers_and_each_is_a_skip(server: FeedServer) -> None:
    """A correction copies the title of the paper it corrects, so a reader who got the paper
    got its correction at the top of the next digest."""
    items = "".join(
        f'<item rdf:about="https://www.journal.example/articles/{n}"><title>{title}</title>'
        f"<description>Text of item {n}.</description>"
        f"<prism:doi>10.1038/s41586-026-0{n}</prism:doi></item>"
        for n, title in enumerate(NOTICE_TITLES + PAPER_TITLES)
    )
    body = NOTICES_RDF.format(items=items)
    server.route("/nature", Answer(body=body, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/nature")
    assert [p.title for p in papers] == PAPER_TITLES
    assert len(warnings) == len(NOTICE_TITLES)
    assert warnings[0] == (
        "feed: 'Author Correction: Graph neural networks reveal hidden order in quantum material'"
        " is a journal's notice, not a paper, skipped"
    )


ACS_RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Nano Letters: Latest Articles (ACS Publications)</title>
<item><title><![CDATA[[ASAP] Graph Neural Networks Predict Exciton Dynamics]]></title>
<link>http://dx.doi.org/10.1021/acs.nanolett.6b01234</link>
<description><![CDATA[<p><img alt="TOC Graphic" src="https://pubs.acs.org/cms/x.gif" /></p>
<div><cite>Nano Letters</cite></div><div>DOI: 10.1021/acs.nanolett.6b01234</div>]]></description>
<dc:creator>Ada Byron, Bo Chen, and Carla Diaz</dc:creator></item>
</channel></rss>"""


def test_an_acs_item_loses_its_status_and_its_journal_and_doi_line(server: FeedServer) -> None:
    """The title began "[ASAP]", and "Nano Letters DOI: 10.1021/..." was shown as its abstract."""
    server.route("/acs", Answer(body=ACS_RSS, content_type="application/rss+xml"))
    (paper,), warnings = fetch(server, "/acs")
    assert (paper.title, paper.abstract) == ("Graph Neural Networks Predict Exciton Dynamics", "")
    assert paper.id == "10.1021/acs.nanolett.6b01234" and not warnings
    assert paper.authors == ("Ada Byron", "Bo Chen", "Carla Diaz")


ABSTRACT = (
    "We study a problem that matters in practice, propose a method that addresses it, and"
    " evaluate the method on three datasets, where it improves over strong baselines by a wide"
    " margin while staying cheap to run; we release our code and data."
)
TOPIC_TITLES = [
    "Withdrawal: A Qualitative Study of Opioid Tapering in Primary Care",
    "Correction of “hallucinations” in large language models via retrieval",
    "Retraction of “scientific” claims on social media: a federated analysis",
    "Errata: detecting errors in published tables with language models",
]


def test_a_notice_shaped_title_with_an_abstract_of_its_own_is_a_paper(server: FeedServer) -> None:
    """reg22 F6: papers whose topic is a notice's word ("Withdrawal:" of a drug) had been
    skipped as a journal's notices by their titles alone; a notice carries no work of its own."""
    notice = (
        "Author Correction: Graph neural networks",
        "The original version of this Article contained an error in Figure 2, whose axis labels"
        " were swapped; the labels have now been corrected in the HTML and PDF versions of the"
        " Article, and the conclusions of the Article are unaffected by the error.",
    )
    rows = [(t, ABSTRACT) for t in TOPIC_TITLES] + [notice]
    items = "".join(
        f"<item><title>{t}</title><link>https://www.journal.example/{n}</link>"
        f"<description>{d}</description></item>"
        for n, (t, d) in enumerate(rows)
    )
    body = (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>J</title>{items}</channel></rss>'
    )
    server.route("/j", Answer(body=body, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/j")
    assert [p.title for p in papers] == TOPIC_TITLES
    skipped = "is a journal's notice, not a paper, skipped"
    assert warnings == [f"feed: 'Author Correction: Graph neural networks' {skipped}"]


SOIL = "Machine learning predicts soil organic carbon across Europe"
WORDED_NOTICES = [
    (
        f"Retraction Note: {SOIL}",
        "The Editors-in-Chief have retracted this article because of concerns regarding the"
        " integrity of the peer review process. After an investigation, the Editors no longer have"
        " confidence in the results and conclusions reported in this article. The authors have not"
        " responded to correspondence from the editor about this retraction.",
    ),
    (
        f"Corrigendum: {SOIL}",
        "In the published article, there was an error in Figure 3 as published. The legend for"
        " panel B was incorrect. The corrected Figure 3 and its caption appear below. The authors"
        " apologize for this error and state that this does not change the scientific conclusions"
        " of the article in any way. The original article has been updated.",
    ),
]


def test_notices_worded_at_length_are_skipped_and_their_paper_kept(server: FeedServer) -> None:
    """reg23 F9: a Springer retraction note and a Frontiers corrigendum of 48 and 57 words had
    been delivered as papers, first in the digest, above the paper itself."""
    paper = (
        "Deep learning maps soil moisture from satellite radar",
        "We train a convolutional network on Sentinel-1 radar backscatter to map soil moisture"
        " across Europe at 100 m resolution. Machine learning on satellite data predicts soil"
        " properties with low error, validated against 800 in situ stations, and we release the"
        " maps and code for the community.",
    )
    items = "".join(
        f"<item><title>{t}</title><link>https://soil.example/{n}</link>"
        f"<description>{d}</description></item>"
        for n, (t, d) in enumerate([*WORDED_NOTICES, paper])
    )
    body = (
        f'<?xml version="1.0"?><rss version="2.0"><channel><title>S</title>{items}</channel></rss>'
    )
    server.route("/soil", Answer(body=body, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/soil")
    assert [p.title for p in papers] == [paper[0]]
    skipped = "is a journal's notice, not a paper, skipped"
    assert warnings == [f"feed: {t[:80]!r} {skipped}" for t, _ in WORDED_NOTICES]


def test_a_gzip_feed_no_content_encoding_names_is_read_unpacked(server: FeedServer) -> None:
    """feeds21 F4: a feed.xml.gz served as it lies (S3, nginx without gzip_static), no
    Content-Encoding: its bytes were "not UTF-8 read as Windows-1252", then "not well-formed".
    In one gzip member or several, or gzipped again on the way (the header naming one layer)."""
    body = ARXIV_RSS.encode()
    half = len(body) // 2
    answers = [
        Answer(body=gzip.compress(body), content_type="application/rss+xml"),
        Answer(body=gzip.compress(body[:half]) + gzip.compress(body[half:])),
        Answer(body=gzip.compress(gzip.compress(body)), headers={"Content-Encoding": "gzip"}),
        Answer(body=gzip.compress(body), content_type="application/gzip", chunked=True),
    ]
    for answer in answers:
        server.route("/feed.xml.gz", answer)
        papers, warnings = fetch(server, "/feed.xml.gz")
        assert [p.id for p in papers] == ["2611.01234", "2610.04321"] and warnings == []
        assert papers[0].abstract.startswith("We study differential privacy")


def test_an_undeclared_gzip_body_has_the_clients_cap_and_a_cut_one_is_cut(
    server: FeedServer,
) -> None:
    """Unpacked by the source, not the client: a small gzip bomb must still stop at the cap on
    an answer, and a stream without its end fail the source as httpx's would."""
    bomb = gzip.compress(ARXIV_RSS.encode().replace(b"<channel>", b"<channel>" + b" " * 2**20))
    server.route("/bomb", Answer(body=bomb, content_type="application/rss+xml"))
    config = SourceConfig("rss", "feed", {"url": f"{server.url}/bomb"})
    source = RssSource(Policy(timeout=2, retries=0, max_bytes=2**19))
    with pytest.raises(SourceError) as info:
        list(source.fetch(config, [].append))
    assert str(info.value) == (
        "feed: gzip-compressed, and larger than 524288 bytes unpacked: abandoned"
        f" from {server.url}/bomb"
    )
    assert len(bomb) < 2**19  # the packed body itself is well under the cap
    packed = gzip.compress(ARXIV_RSS.encode())
    server.route("/cut", Answer(body=packed[: len(packed) * 3 // 4]))
    papers, warnings, failure = until_failure(server, "/cut")
    assert "feed cut short, before its document's end" in failure and warnings == []


def test_a_body_packed_otherwise_without_content_encoding_fails_in_one_line(
    server: FeedServer,
) -> None:
    """Never a warning about "bytes that are not UTF-8" of what is no text at all."""
    for kind, pack in (("xz", lzma.compress), ("bzip2", bz2.compress)):
        server.route("/packed", Answer(body=pack(ARXIV_RSS.encode())))
        papers, warnings, failure = until_failure(server, "/packed")
        assert papers == [] and warnings == []
        assert failure == (
            f"feed: {kind}-compressed, with no Content-Encoding saying so: not read"
            f" from {server.url}/packed"
        )


UNIX_DATES = [
    ("<pubDate>1764756000</pubDate>", date(2025, 12, 3)),  # feedparser: December 1764
    ("<pubDate>1764756000000</pubDate>", date(2025, 12, 3)),  # milliseconds, as JavaScript's
    ("<dc:date>1764756000</dc:date>", date(2025, 12, 3)),
    ("<pubDate>20251203</pubDate>", date(2025, 12, 3)),  # ISO 8601's basic form
    ("<pubDate>2025120310111</pubDate>", None),  # no Unix time of now, nor an ISO date
    ("<pubDate>99999999999</pubDate>", None),  # the year 5138
    ("<pubDate>17647560</pubDate>", None),  # 1970, or the 60th day of a 56th month
    ("<pubDate>123</pubDate>", None),
]


def items_feed(server: FeedServer, path: str, extras: list[str]) -> tuple[list[Paper], list[str]]:
    """The papers and warnings of an RSS feed served at `path`: an item a paper, each with one of
    `extras` (a dc:creator, a pubDate, ...) after its title and description."""
    items = "".join(
        f"<item><title>Paper {n} on spin liquids</title><description>x</description>{x}</item>"
        for n, x in enumerate(extras)
    )
    body = '<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>'
    server.route(path, Answer(body=f"{body}{items}</channel></rss>"))
    return fetch(server, path)


def test_a_date_of_digits_alone_is_a_unix_time_or_none(server: FeedServer) -> None:
    """feeds21 F7: feedparser reads 1764756000 as the year 1764, month 12; the archive feed
    dated the paper so."""
    papers, warnings = items_feed(server, "/unix", [d for d, _ in UNIX_DATES])
    assert [p.published for p in papers] == [d for _, d in UNIX_DATES] and warnings == []


def test_names_one_a_line_in_one_creator_are_each_an_author(server: FeedServer) -> None:
    """feeds21 F6: "Ada Lovelace\\nAlan Turing\\nGrace Hopper" in one dc:creator had been one
    author: the line breaks were blanks before the names were split."""
    creators = ["Ada Lovelace\n  Alan <b>Turing</b>\n  Grace Hopper", "Kukla, D.,\n Crampton, A."]
    papers, _ = items_feed(
        server,
        "/lines",
        [f"<dc:creator>{html.escape(c, quote=False)}</dc:creator>" for c in creators],
    )
    assert [p.authors for p in papers] == [
        ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ("D. Kukla", "A. Crampton"),
    ]


def test_names_parted_by_html_breaks_in_one_creator_are_each_an_author(server: FeedServer) -> None:
    """reg35 F5: "Jane Doe<br/>John Smith<br/>Anna Lee" in one dc:creator (escaped or in CDATA,
    as feeds write it) had been one author: a <br> or a <p> is the line break "\\n" is."""
    creators = [
        "Jane Doe&lt;br/&gt;John Smith&lt;br/&gt;Anna Lee",
        "<![CDATA[Jane Doe<br>John Smith<br>Anna Lee]]>",
        "&lt;p&gt;Jane Doe&lt;/p&gt;&lt;p&gt;John Smith&lt;/p&gt;&lt;p&gt;Anna Lee&lt;/p&gt;",
        "Jane Doe\u2028John Smith&#x2028;Anna Lee",
    ]
    papers, _ = items_feed(server, "/breaks", [f"<dc:creator>{c}</dc:creator>" for c in creators])
    assert [p.authors for p in papers] == [("Jane Doe", "John Smith", "Anna Lee")] * 4


NUMBER_DATES = [
    ("<pubDate>1764756000.5</pubDate>", date(2025, 12, 3)),  # feedparser: December 1764
    ("<dc:date>1764756000.5</dc:date>", date(2025, 12, 3)),
    ("<pubDate>1764756000000.25</pubDate>", date(2025, 12, 3)),
    ("<pubDate>+1764756000</pubDate>", date(2025, 12, 3)),  # feedparser: no date at all
    ("<dc:date>1.764756e9</dc:date>", date(2025, 12, 3)),
    ("<pubDate>-1764756000</pubDate>", None),  # feedparser: 2026-06-25
    ("<pubDate>2025.</pubDate>", None),  # feedparser: December 2025
    ("<pubDate>2025.12</pubDate>", date(2025, 12, 1)),  # a year and a month
]


def test_a_date_that_is_a_number_is_a_unix_time_or_none(server: FeedServer) -> None:
    """reg35 F7: a number other than digits alone (a fraction, a sign) went to feedparser's
    reading, which dated the paper in 1764."""
    papers, warnings = items_feed(server, "/numbers", [d for d, _ in NUMBER_DATES])
    assert [p.published for p in papers] == [d for _, d in NUMBER_DATES] and warnings == []


def read_over_two_days(
    server: FeedServer, tmp_path, first: dict[str, str], then: dict[str, str]
) -> list[tuple[str, int, int]]:
    """Each source's (name, read, new) on the second day of a store that read `first` (feed
    name to body, served at /<name>) the day before and reads `first` and `then` now."""
    from datetime import UTC, datetime

    from digest.intake import ingest
    from digest.models import Settings
    from digest.state import Store

    def day(feeds: dict[str, str], now: datetime) -> list[tuple[str, int, int]]:
        for name, body in feeds.items():
            server.route(f"/{name}", Answer(body=body, content_type="application/rss+xml"))
        sources = tuple(SourceConfig("rss", n, {"url": f"{server.url}/{n}"}) for n in feeds)
        with Store(tmp_path / "state.db") as store:
            reports, _ = ingest(Settings("t.toml", sources, ()), store, now)
        return [(r.name, r.read, r.new) for r in reports]

    day(first, datetime(2025, 12, 4, 9, tzinfo=UTC))
    return day({**first, **then}, datetime(2025, 12, 11, 9, tzinfo=UTC))


ARXIV_NAMING_A_DOI = ARXIV_RSS.replace(
    "Private Federated Learning with Heterogeneous Clients",
    "Neural scaling laws for dense retrieval of patient records",
).replace(
    "<arxiv:announce_type>new</arxiv:announce_type>",
    "<arxiv:announce_type>new</arxiv:announce_type><arxiv:DOI>10.1145/3701234.3701256</arxiv:DOI>",
)
# An Atypon journal's item (ACM, SIAM, Science, T&F...): its DOI in its link alone, retitled.
ATYPON_RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>ACM Transactions on Information Systems</title><link>https://dl.acm.org/</link>
<item><title>Scaling Laws of Neural Dense Retrievers for Patient Records</title>
<link>https://dl.acm.org/doi/abs/10.1145/3701234.3701256?af=R</link>
<description>Dense retrievers of patient records follow power laws in model size.</description>
<dc:creator>Ada Lovelace</dc:creator><dc:creator>Alan Turing</dc:creator></item>
</channel></rss>"""


def test_a_journals_item_known_by_its_doi_link_is_the_arxiv_paper_naming_that_doi(
    server: FeedServer, tmp_path
) -> None:
    """feeds22 F1: only doi.org links were read, so the journal's retitled copy was a second
    paper beside the arXiv record whose <arxiv:DOI> names it, sent twice."""
    server.route("/acm", Answer(body=ATYPON_RSS, content_type="application/rss+xml"))
    (paper,), _ = fetch(server, "/acm")
    assert paper.id == "10.1145/3701234.3701256"
    assert paper.url == "https://dl.acm.org/doi/abs/10.1145/3701234.3701256?af=R"
    second = read_over_two_days(
        server, tmp_path, {"arxiv": ARXIV_NAMING_A_DOI}, {"acm": ATYPON_RSS}
    )
    assert second == [("arxiv", 2, 0), ("acm", 1, 0)]


def rdf_item(title: str, names: str, ident: str) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
         xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://x.example/rss"><title>Feed</title><link>https://x.example</link></channel>
<item rdf:about="https://x.example/{ident}"><title>{title}</title><link>https://x.example/{ident}</link>
<description>We recorded dopamine neurons in freely moving mice.</description>
{names}<dc:identifier>doi:{ident}</dc:identifier></item></rdf:RDF>"""


@pytest.mark.parametrize(
    "preprint",
    [
        "10.64898/2025.12.01.691234",
        "10.2196/preprints.51234",
        "10.31223/x5t34h",
        "10.1101/2025.12.01.691234",
    ],
)
def test_a_preprint_and_its_journal_version_the_next_week_are_one_paper(
    server: FeedServer, tmp_path, preprint: str
) -> None:
    """feeds22 F5: bioRxiv's and medRxiv's DOIs since December 2025 (10.64898), JMIR
    Preprints', EarthArXiv's were no preprint DOIs: the journal version was a new paper."""
    title = "Dopamine neurons encode prediction errors for cells in freely moving mice"
    posted = rdf_item(title, "<dc:creator>Lima, A., Chen, B.</dc:creator>", preprint)
    names = "<dc:creator>Ana Lima</dc:creator><dc:creator>Bo Chen</dc:creator>"
    published = rdf_item(title, names, "10.1038/s41586-026-01234-5")
    second = read_over_two_days(server, tmp_path, {"b": posted}, {"n": published})
    assert second == [("b", 1, 0), ("n", 1, 0)]


SHORT_TITLED = """<?xml version="1.0"?><rss version="2.0"><channel><title>J</title>
<item><title>Quantum batteries</title>
<link>https://pubs.acs.org/doi/10.1021/acs.nanolett.5b01234?af=R</link>
<description>Quantum batteries charge faster than classical ones.</description></item>
<item><title>Graphene</title><link>https://pubs.acs.org/doi/10.1021/acs.nanolett.5b09999</link>
<description>No abstract available.</description></item>
<item><title>Perovskites</title><link>https://pubs.acs.org/doi/10.1021/acs.nanolett.5b08888</link>
<description>No abstract available.</description></item>
</channel></rss>"""


def test_a_short_titled_item_stored_before_its_doi_link_was_read_is_not_new(
    server: FeedServer, tmp_path
) -> None:
    """feeds23 F2: a title under three words and a `/doi/` link: stored by its abstract hash,
    then known by the DOI its link names, and mailed again after the upgrade. The abstract hash
    stays a weak key beside the DOI; two items of two DOIs and one placeholder text stay two."""
    from datetime import UTC, datetime

    from digest.intake import ingest
    from digest.models import Settings
    from digest.state import Store

    text = "Quantum batteries charge faster than classical ones."
    # As stored then: keyed by its abstract hash alone (its link named no DOI yet).
    before = Paper(abstract_id(text), "Quantum batteries", text)
    server.route("/j", Answer(body=SHORT_TITLED, content_type="application/rss+xml"))
    sources = (SourceConfig("rss", "j", {"url": f"{server.url}/j"}),)
    with Store(tmp_path / "state.db") as store:
        store.add_papers([before], datetime(2025, 12, 4, 9, tzinfo=UTC))
        (report,), _ = ingest(
            Settings("t.toml", sources, ()), store, datetime(2025, 12, 5, 9, tzinfo=UTC)
        )
        assert (report.read, report.new) == (3, 2)  # the other two: two papers
        assert store.count_papers() == 3


SCHOLAR_LINK = (
    "https://scholar.google.com/scholar_url?url={target}&amp;hl=en&amp;sa=X&amp;d=1234567890"
    "&amp;ei={ei}&amp;scisig=AFWwaQ1aa&amp;oi=scholaralrt"
)
SCHOLAR_ITEM = """<item><title>{title}</title><link>{link}</link><guid>{link}</guid>
<description>M Rossi, J Doe - Nature Communications, 2025 &lt;br&gt;Genes of patients are read by
neural networks that find causal variants in cells; we test on 5000 families and …</description>
</item>"""
SCHOLAR_RSS = """<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel>
<title>Google Scholar Alert - protein structure</title><link>https://scholar.google.com/</link>
{items}</channel></rss>"""
NATURE_PAPER = "https://www.nature.com/articles/s41467-025-55555-1"
CAUSAL = "Neural networks find causal variants in genes of patients with rare disease"


def scholar_feed(*rows: tuple[str, str, str]) -> str:
    """A Scholar alert's feed of (title, target, ei) items."""
    items = (
        SCHOLAR_ITEM.format(title=t, link=SCHOLAR_LINK.format(target=target, ei=ei))
        for t, target, ei in rows
    )
    return SCHOLAR_RSS.format(items="".join(items))


def test_a_scholar_alerts_item_is_its_paper_under_its_own_title_and_address(
    server: FeedServer,
) -> None:
    """feeds24 F2: "[PDF] X" linked through Scholar's redirector had been a new paper beside the
    arXiv paper X already sent, and the same journal paper came as "[HTML] X", "[PDF] X", X."""
    body = scholar_feed(
        ("[PDF] Sparse attention transformers for protein structure prediction",
         "https://arxiv.org/pdf/2512.04444", "Q1aa"),
        (f"[HTML] {CAUSAL}", NATURE_PAPER, "Q1bb"),
        (f"[PDF] {CAUSAL}", f"{NATURE_PAPER}.pdf", "Q2cc"),
        (CAUSAL, NATURE_PAPER, "Q2dd"),
    )  # fmt: skip
    server.route("/scholar", Answer(body=body, content_type="application/rss+xml"))
    papers, _ = fetch(server, "/scholar")
    assert papers[0].id == "2512.04444"
    assert papers[0].title == "Sparse attention transformers for protein structure prediction"
    assert papers[0].url == "https://arxiv.org/pdf/2512.04444"  # not the tracking link
    assert [p.title for p in papers[1:]] == [CAUSAL] * 3
    assert [p.url for p in papers[1:]] == [NATURE_PAPER, f"{NATURE_PAPER}.pdf", NATURE_PAPER]
    assert len({p.id for p in papers[1:]}) == 1


def test_a_scholar_paper_is_one_paper_in_alerts_of_other_marks_links_and_snippets(
    server: FeedServer, tmp_path
) -> None:
    """feeds25 F1: each alert writes its own redirector link (`ei=`) and snippet: keyed by the
    link, one paper in two alerts had been two items of one feed, mailed twice. (A paper stored
    as "[PDF] X" before the marks came off is new once more: a former key "[PDF] X" is the key of
    a real title "PDF X", whose paper it took for it, feeds26 F1.)"""
    from datetime import UTC, datetime

    from digest.intake import ingest
    from digest.models import Settings
    from digest.state import Store

    snippet = "Genes of patients are read by\nneural networks"
    alerts = [
        scholar_feed((f"[PDF] {CAUSAL}", "https://www.uni-example.edu/papers/qs.pdf", "Aa1")),
        scholar_feed((f"[HTML] {CAUSAL}", "https://journals.example.org/view/1234", "Bb2")),
        scholar_feed((f"[BOOK][B] {CAUSAL}", "https://books.example.org/b/77", "Cc3")).replace(
            snippet, "Rare disease: causal variants in cells of\nfamilies are found by networks"
        ),
        scholar_feed((CAUSAL, "https://journals.example.org/view/1234", "Dd4")).replace(
            snippet, "A new readout of genes"
        ),
    ]
    sources = (SourceConfig("rss", "s", {"url": f"{server.url}/s"}),)
    with Store(tmp_path / "state.db") as store:
        for day, body in enumerate(alerts, start=4):
            server.route("/s", Answer(body=body, content_type="application/rss+xml"))
            now = datetime(2025, 12, day, 9, tzinfo=UTC)
            (report,), _ = ingest(Settings("t.toml", sources, ()), store, now)
            assert (report.read, report.new) == (1, int(day == 4)), day
        assert store.count_papers() == 1


TOC_ITEM = """<item><title>{title}</title><link>https://onlinelibrary.wiley.com/doi/{doi}</link>
<description>{text}</description><prism:doi>{doi}</prism:doi></item>"""
TOC_RSS = """<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
xmlns:prism="http://prismstandard.org/namespaces/basic/2.0/"><channel>
<title>Angewandte Chemie International Edition: Table of Contents</title>{items}</channel></rss>"""
FIXATION = "Photocatalytic Nitrogen Fixation on Single Atom Catalysts in Water"


def test_an_issues_covers_and_front_matter_are_no_papers_and_each_is_a_skip(
    server: FeedServer,
) -> None:
    """feeds24 F1: "Front Cover: <the paper's title> (Angew. Chem. Int. Ed. 49/2025)" had ranked
    above its paper, and came again as a new paper when the issue came out a week later."""
    blurb = (
        "The cover picture shows single platinum atoms on carbon nitride that fix nitrogen."
        " More information can be found in the Research Article by A. Lovelace, A. Turing and"
        " co-workers (DOI: 10.1002/anie.202412345)."
    )
    rows = [
        (f"Front Cover: {FIXATION} (Angew. Chem. Int. Ed. 49/2025)", blurb),
        (FIXATION, ABSTRACT),
        (f"Inside Back Cover: {FIXATION} (Angew. Chem. Int. Ed. 49/2025)", ""),
        ("In This Issue", "Highlights of this issue: nitrogen fixation with single atoms."),
        ("Cover Picture: Angew. Chem. Int. Ed. 49/2025", ""),
        ("Cover: A Framework for Clique Covers of Sparse Graphs", ABSTRACT),
    ]
    items = "".join(
        TOC_ITEM.format(title=t, text=text, doi=f"10.1002/anie.20258490{n}")
        for n, (t, text) in enumerate(rows)
    )
    server.route("/toc", Answer(body=TOC_RSS.format(items=items), content_type="text/xml"))
    papers, warnings = fetch(server, "/toc")
    assert [p.title for p in papers] == [FIXATION, rows[-1][0]]
    assert len(warnings) == 4
    assert warnings[0] == (
        "feed: 'Front Cover: Photocatalytic Nitrogen Fixation on Single Atom Catalysts in Water '"
        " is an issue's cover or front matter, not a paper, skipped"
    )

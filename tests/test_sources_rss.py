"""The rss source against a real server on 127.0.0.1: RSS 2.0 as arXiv writes it, RSS 1.0
(RDF) as journals write it, Atom; HTML reduced to text, ids found where each feed keeps them;
malformed, empty and non-feeds."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from feedserver import Answer, FeedServer, serve

from digest.models import Paper, SourceConfig, SourceError
from digest.sources.rss import RssSource, html_text
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


def fetch(server: FeedServer, path: str) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    config = SourceConfig("rss", "feed", {"url": f"{server.url}{path}"})
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


def test_a_malformed_feed_keeps_the_entries_before_the_break(server: FeedServer) -> None:
    broken = ARXIV_RSS[: ARXIV_RSS.index("<item>", ARXIV_RSS.index("</item>")) + 30]
    server.route("/broken", Answer(body=broken, content_type="application/rss+xml"))
    papers, warnings = fetch(server, "/broken")
    assert papers[0].id == "2611.01234"
    assert warnings and "malformed feed" in warnings[0]


@pytest.mark.parametrize(
    "body", ["<html><head><title>Sign in</title></head><body>Login</body></html>", "", "{}"]
)
def test_a_page_that_is_no_feed_fails_the_source(server: FeedServer, body: str) -> None:
    server.route("/login", Answer(body=body, content_type="text/html"))
    with pytest.raises(SourceError, match="feed: not an RSS or Atom feed"):
        fetch(server, "/login")


def test_a_missing_feed_fails_the_source_with_the_status(server: FeedServer) -> None:
    with pytest.raises(SourceError, match=f"HTTP 404 Not Found from {server.url}/gone"):
        fetch(server, "/gone")


def test_html_becomes_readable_text() -> None:
    assert html_text("<p>a &amp; b</p><p>c<br/>d</p><style>p{}</style>") == "a & b c d"
    assert html_text("plain  text\n here") == "plain text here"
    assert html_text("x &lt; y &#8212; z") == "x < y — z"

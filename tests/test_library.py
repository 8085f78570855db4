"""A subscriber's library: liked papers from BibTeX, JSONL or CSV, read once, errors that name
the file; liked arXiv ids looked up once through the arxiv source and kept in the state database."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from feedserver import Answer, FeedServer, serve

from digest import library
from digest.models import ChannelConfig, InputError, Profile, SourceConfig, Subscriber
from digest.state import Store


def liked(tmp_path: Path, rows: list[object], name: str = "lib.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


ROW = {
    "id": "2501.00001v3",
    "title": "Private federated learning",
    "abstract": "DP for FL.",
    "authors": ["Ada Lovelace"],
    "categories": ["cs.LG"],
    "published": "2025-01-02",
    "url": "",
}


def test_a_jsonl_library_becomes_the_profiles_papers(tmp_path: Path) -> None:
    path = liked(tmp_path, [ROW])
    (paper,) = library.load(str(path))
    assert (paper.id, paper.title, paper.authors) == ("2501.00001", ROW["title"], ("Ada Lovelace",))


def test_a_paper_in_a_library_twice_is_one_liked_paper(tmp_path: Path, monkeypatch) -> None:
    """A Zotero preprint beside its journal version (or a title-only copy) had been two liked
    papers: its authors counted as "authors of papers you liked", their other papers first."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    journal = {**ROW, "id": "10.1000/j.1", "title": ROW["title"].upper()}
    bare = {"title": ROW["title"], "abstract": "Another text of it."}
    papers = library.load(str(liked(tmp_path, [ROW, journal, bare])))
    assert [p.id for p in papers] == ["2501.00001"]
    assert library.load(str(liked(tmp_path, [ROW, journal, bare]))) == papers  # and cached so


def test_a_library_papers_text_loses_terminal_escapes(tmp_path: Path) -> None:
    path = liked(tmp_path, [ROW | {"title": "Private\x1b[2J federated\u202e learning"}])
    (paper,) = library.load(str(path))
    assert paper.title == "Private federated learning"


def test_subscribers_sharing_a_library_share_one_read(tmp_path: Path) -> None:
    path = str(liked(tmp_path, [ROW]))
    channel = (ChannelConfig("file", "file"),)
    subs = [Subscriber(n, Profile(interests="x"), channel, library_path=path) for n in "ab"]
    subs.append(Subscriber("c", Profile(interests="x"), channel))
    a, b, c = library.with_libraries(subs)
    assert a.profile.library == b.profile.library and a.profile.library[0].id == "2501.00001"
    assert a.profile.library is b.profile.library
    assert c.profile.library == ()


def test_a_library_that_cannot_be_read_says_whose_it_is(tmp_path: Path) -> None:
    # A preview reads every reader's library (the space's words are everyone's): its error had
    # named a file alone, and ana's preview failed on bob's (rank30 F4).
    channel = (ChannelConfig("file", "file"),)
    bob = Subscriber("bob", Profile(interests="x"), channel, library_path=str(tmp_path / "b.bib"))
    with pytest.raises(InputError, match=r"^subscriber 'bob': .*b\.bib: library file not found"):
        library.with_libraries([bob])


def test_a_bad_record_is_skipped_with_a_warning(tmp_path: Path, caplog) -> None:
    path = liked(tmp_path, [ROW, "{not json"])
    assert len(library.load(str(path))) == 1
    assert f"{path}:2" in caplog.text


def test_a_run_says_a_librarys_warnings_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    # Checked before the run opens its state, then read by the run: each warning was said twice.
    from digest.cli import main

    monkeypatch.chdir(tmp_path)
    path = liked(tmp_path, [ROW, "{not json"])
    (tmp_path / "papers").mkdir()
    (tmp_path / "papers" / "day.jsonl").write_text(json.dumps({**ROW, "id": "2501.00002"}))
    (tmp_path / "digest.toml").write_text(
        '[[sources]]\nkind = "files"\npath = "papers"\n\n[[subscribers]]\nname = "ana"\n'
        f'library = "{path}"\n[[subscribers.channels]]\nkind = "file"\ndir = "out"\n',
        encoding="utf-8",
    )
    assert main(["run", "--config", "digest.toml", "--now", "2026-11-30T09:00Z"]) == 0
    assert capsys.readouterr().err.count(f"{path}:2") == 1


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.jsonl", None, "library file not found"),
        ("papers.jsonl", "/", "a folder, not a library file"),
        ("lib.txt", "hello", "unknown library format"),
        ("empty.jsonl", "", "library holds no papers"),
    ],
)
def test_unusable_libraries_are_input_errors(tmp_path: Path, name, content, message) -> None:
    path = tmp_path / name
    if content == "/":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        library.load(str(path))
    assert str(info.value).startswith(str(path))


# --- BibTeX libraries ---------------------------------------------------------------------------

BIB = r"""
@string{neurips = "Advances in Neural Information Processing Systems"}

@inproceedings{erdos2025private,
  title     = {On {P}rivate {F}ederated Learning with G{\"o}del Numbers},
  author    = {Erd{\H{o}}s, P{\'a}l and M{\"u}ller, J{\"u}rgen and Jos\'{e} Garc\'{\i}a and others},
  booktitle = neurips,
  year      = 2025,
  abstract  = {We study differential privacy in federated learning --- code at
               \url{https://github.com/acme/godel}.},
  keywords  = {privacy, federated learning},
  eprint    = {2501.01234v2},
  archivePrefix = {arXiv},
}

@article{scholar2024,
  title   = {Machine Unlearning for Large Language Models},
  author  = {Noether, Emmy},
  journal = {arXiv preprint arXiv:2402.04321},
  year    = {2024}
}

@article{nodoi,
  title    = {Na\"ive Bayes {\AA}ngstr\"om-scale Classification},
  keywords = {naive Bayes; spectroscopy},
  doi      = {10.1000/XYZ.123},
}

@misc{notitle,
  author = {Nobody, Anne},
  year   = {2020}
}

@article{broken,
  title = {A field that never closes,
  year = 2021
}

@book{after_the_break,
  title = {Reading goes on after a broken entry},
}
"""


def test_a_bibtex_library_decodes_latex_and_finds_ids(tmp_path: Path, caplog) -> None:
    path = tmp_path / "zotero.bib"
    path.write_text(BIB, encoding="utf-8")
    papers = {p.title: p for p in library.load(str(path))}
    godel = papers["On Private Federated Learning with Gödel Numbers"]
    assert godel.id == "2501.01234"
    assert godel.authors == ("Pál Erdős", "Jürgen Müller", "José García")
    assert godel.venue == "Advances in Neural Information Processing Systems"
    assert godel.abstract.startswith("We study differential privacy in federated learning — code")
    assert godel.code_url == "https://github.com/acme/godel"
    assert godel.categories == ("privacy", "federated learning")
    # Google Scholar's way of citing a preprint still gives the arXiv id.
    assert papers["Machine Unlearning for Large Language Models"].id == "2402.04321"
    assert papers["Machine Unlearning for Large Language Models"].authors == ("Emmy Noether",)


def test_a_bibtex_entry_without_abstract_is_ranked_by_title_and_keywords(tmp_path: Path) -> None:
    path = tmp_path / "lib.bib"
    path.write_text(BIB, encoding="utf-8")
    naive = next(p for p in library.load(str(path)) if p.title.startswith("Naïve"))
    assert naive.title == "Naïve Bayes Ångström-scale Classification"
    assert naive.id == "10.1000/xyz.123"
    assert naive.abstract == "Keywords: naive Bayes, spectroscopy."
    assert "spectroscopy" in naive.text and naive.text.count("Naïve Bayes") == 2


def test_bad_bibtex_entries_are_warnings_and_reading_goes_on(tmp_path: Path, caplog) -> None:
    path = tmp_path / "lib.bib"
    path.write_text(BIB, encoding="utf-8")
    titles = [p.title for p in library.load(str(path))]
    assert "Reading goes on after a broken entry" in titles
    assert len(titles) == 4
    assert f"{path}:" in caplog.text and "'notitle' has neither title nor abstract" in caplog.text
    assert "bad BibTeX entry skipped" in caplog.text


def test_a_windows_1252_bibtex_export_is_still_read(tmp_path: Path, caplog) -> None:
    path = tmp_path / "old.bib"
    path.write_bytes("@article{a, title = {Caf\xe9 au lait spots in dermatology}}".encode("cp1252"))
    (paper,) = library.load(str(path))
    assert paper.title == "Café au lait spots in dermatology"
    assert "not UTF-8, read as Windows-1252" in caplog.text


def test_a_csv_library_with_a_windows_1252_row_keeps_every_row(tmp_path: Path, caplog) -> None:
    path = tmp_path / "lib.csv"
    path.write_bytes(
        b"id,title,abstract\n2501.00001,Private learning,DP for FL.\n"
        + "2501.00002,Café federated,Privacy in cafés.\n".encode("cp1252")
    )
    papers = library.load(str(path))
    assert [p.title for p in papers] == ["Private learning", "Café federated"]
    assert f"library {path}:3: not valid UTF-8" in caplog.text


def test_a_bibtex_file_with_no_usable_entry_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.bib"
    path.write_text("@comment{nothing here}\n", encoding="utf-8")
    with pytest.raises(InputError, match="library holds no papers"):
        library.load(str(path))


# --- liked arXiv ids (`like`) -------------------------------------------------------------------

LIKED_FEED = """<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/"
      xmlns:arxiv="http://arxiv.org/schemas/atom">
  <title type="html">ArXiv Query: id_list=2501.01234,2501.99999</title>
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry>
    <id>http://arxiv.org/abs/2501.01234v2</id>
    <published>2025-01-02T18:00:00Z</published>
    <title>Private federated learning with tight bounds</title>
    <summary>We study differential privacy for federated learning.</summary>
    <author><name>Ada Lovelace</name></author>
    <arxiv:primary_category term="cs.LG"/>
  </entry>
</feed>
"""


@pytest.fixture
def arxiv_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FeedServer]:
    yield from serve(monkeypatch)


def liking(*ids: str) -> Subscriber:
    return Subscriber("ana", Profile(), (ChannelConfig("file", "file"),), likes=ids)


def arxiv_at(server: FeedServer) -> tuple[SourceConfig, ...]:
    options = {"url": f"{server.url}/api/query", "delay": 0, "retries": 0, "timeout": 2}
    return (SourceConfig("arxiv", "arxiv", {**options, "categories": ["cs.LG"]}),)


def test_liked_ids_are_looked_up_once_and_kept_in_the_state_database(
    tmp_path: Path, arxiv_server: FeedServer
) -> None:
    arxiv_server.route("/api/query", Answer(body=LIKED_FEED))
    sources = arxiv_at(arxiv_server)
    with Store(tmp_path / "s.db") as store:
        (ana,) = library.with_libraries(
            [liking("2501.01234v2", "2501.99999")], cache=store.papers, sources=sources
        )
    assert [p.id for p in ana.profile.library] == ["2501.01234"]
    (request,) = arxiv_server.requests
    assert request.query["id_list"] == "2501.01234,2501.99999"
    # The next run reads both answers from the state database, the unknown id included.
    with Store(tmp_path / "s.db") as store:
        (again,) = library.with_libraries(
            [liking("2501.01234", "2501.99999")], cache=store.papers, sources=sources
        )
    assert again.profile.library == ana.profile.library
    assert len(arxiv_server.requests) == 1


def test_a_preview_looks_liked_ids_up_but_keeps_nothing(
    tmp_path: Path, arxiv_server: FeedServer
) -> None:
    """A preview changes no state: it had written the liked papers it looked up."""
    arxiv_server.route("/api/query", Answer(body=LIKED_FEED))
    with Store(tmp_path / "s.db") as store:
        cache = library.Unwritten(store.papers)
        (ana,) = library.with_libraries(
            [liking("2501.01234")], cache=cache, sources=arxiv_at(arxiv_server)
        )
        assert [p.id for p in ana.profile.library] == ["2501.01234"]
        assert store.papers.liked(["2501.01234"]) == {}


def test_a_failed_lookup_is_a_warning_and_is_tried_again_next_run(
    tmp_path: Path, arxiv_server: FeedServer, caplog
) -> None:
    arxiv_server.route("/api/query", Answer(503), Answer(body=LIKED_FEED))
    sources = arxiv_at(arxiv_server)
    with Store(tmp_path / "s.db") as store:
        (ana,) = library.with_libraries([liking("2501.01234")], cache=store.papers, sources=sources)
        assert ana.profile.library == ()
        assert "cannot look up ['2501.01234'] now" in caplog.text
        (ana,) = library.with_libraries([liking("2501.01234")], cache=store.papers, sources=sources)
        assert [p.id for p in ana.profile.library] == ["2501.01234"]


@pytest.mark.parametrize(
    ("path", "answer", "problem"),
    [
        ("/api/query", Answer(302, headers={"Location": "/api/query?a=1"}), "too many redirects"),
        ("/api/query", Answer(body=b"no gzip" * 9, headers={"Content-Encoding": "gzip"}), "decod"),
        (":99999/api/query", None, "127.0.0.1:99999/api/query"),
    ],
)
def test_a_lookup_the_server_answers_badly_is_one_warning_and_the_run_goes_on(
    tmp_path: Path, arxiv_server: FeedServer, caplog, path: str, answer: Answer | None, problem: str
) -> None:
    if answer is not None:
        arxiv_server.route(path, answer)
    url = f"{arxiv_server.url}{path}" if path.startswith("/") else f"http://127.0.0.1{path}"
    arxiv = SourceConfig("arxiv", "arxiv", {"url": url, "delay": 0, "retries": 0, "timeout": 2})
    with Store(tmp_path / "s.db") as store:
        (ana,) = library.with_libraries([liking("2501.01234")], cache=store.papers, sources=[arxiv])
    assert ana.profile.library == ()
    (line,) = [r.getMessage() for r in caplog.records if "like:" in r.getMessage()]
    assert line.startswith("like: cannot look up ['2501.01234'] now (arxiv: ")
    assert problem in line and "\n" not in line
    assert all(r.exc_info is None for r in caplog.records)


def test_an_unexpected_failure_of_a_lookup_is_one_warning_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    def broken(self: object, ids: object, config: object = None) -> None:
        raise KeyError("term")

    monkeypatch.setattr(library.ArxivSource, "lookup", broken)
    with Store(tmp_path / "s.db") as store:
        (ana,) = library.with_libraries([liking("2501.01234")], cache=store.papers)
    assert ana.profile.library == ()
    assert "like: cannot look up ['2501.01234'] now (unexpected KeyError: 'term')" in caplog.text
    assert all(r.exc_info is None for r in caplog.records)


def test_without_a_cache_likes_are_not_looked_up(arxiv_server: FeedServer) -> None:
    (ana,) = library.with_libraries([liking("2501.01234")], sources=arxiv_at(arxiv_server))
    assert ana.profile.library == () and arxiv_server.requests == []


def test_unknown_liked_ids_are_asked_again_after_a_day_on_the_runs_clock(
    tmp_path: Path, arxiv_server: FeedServer
) -> None:
    from datetime import UTC, datetime, timedelta

    nothing = LIKED_FEED.split("<entry>")[0] + "</feed>"
    arxiv_server.route("/api/query", Answer(body=nothing), Answer(body=LIKED_FEED))
    sources, monday = arxiv_at(arxiv_server), datetime(2026, 11, 30, 8, tzinfo=UTC)
    with Store(tmp_path / "s.db") as store:

        def run(now: datetime) -> tuple[str, ...]:
            (ana,) = library.with_libraries(
                [liking("2501.01234")], cache=store.papers, sources=sources, now=now
            )
            return tuple(p.id for p in ana.profile.library)

        assert run(monday) == ()  # arXiv does not return it today
        assert run(monday + timedelta(hours=12)) == () and len(arxiv_server.requests) == 1
        assert run(monday + timedelta(days=1, minutes=1)) == ("2501.01234",)
        assert len(arxiv_server.requests) == 2
        assert run(monday + timedelta(days=5)) == ("2501.01234",)  # found: kept for good
        assert len(arxiv_server.requests) == 2


# --- the parsed-library cache -------------------------------------------------------------------


def test_an_unchanged_library_is_read_from_the_cache_with_its_warnings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog
) -> None:
    path = tmp_path / "lib.bib"
    path.write_text(BIB, encoding="utf-8")
    first = library.load(str(path))
    cached = list((tmp_path / ".cache" / "digest" / "libraries").glob("*.json"))
    assert len(cached) == 1
    caplog.clear()
    parses: list[Path] = []
    real = library.read_bibtex
    monkeypatch.setattr(library, "read_bibtex", lambda *a: parses.append(a[0]) or real(*a))
    assert library.load(str(path)) == first and parses == []
    assert "'notitle' has neither title nor abstract" in caplog.text  # said again each run
    # Any change to the file is a new parse, and replaces the cached one.
    path.write_text(BIB.replace("Machine Unlearning", "Machine Forgetting"), encoding="utf-8")
    assert any(p.title.startswith("Machine Forgetting") for p in library.load(str(path)))
    assert parses == [path]
    assert len(list(cached[0].parent.glob("*.json"))) == 1


@pytest.mark.parametrize(
    "damage", [b"", b"{not json", b'{"key": 1}', b"[]", b'{"key": "K", "papers": [{"id": 1}]}']
)
def test_a_damaged_cache_is_ignored_and_rewritten(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "lib.bib"
    path.write_text(BIB, encoding="utf-8")
    first = library.load(str(path))
    (cached,) = (tmp_path / ".cache" / "digest" / "libraries").glob("*.json")
    key = json.loads(cached.read_bytes())["key"]
    cached.write_bytes(damage.replace(b'"K"', json.dumps(key).encode()))
    assert library.load(str(path)) == first
    assert json.loads(cached.read_bytes())["key"] == key


def test_a_cache_folder_that_cannot_be_written_only_costs_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    path = tmp_path / "lib.bib"
    path.write_text(BIB, encoding="utf-8")
    assert len(library.load(str(path))) == 4
    assert len(library.load(str(path))) == 4


def test_a_large_library_parses_in_seconds_and_cached_in_a_moment(tmp_path: Path) -> None:
    import time

    from bench.library import write

    path = write(tmp_path / "big.bib", count=1000)
    started = time.process_time()
    assert len(library.load(str(path))) == 1000
    first = time.process_time() - started
    started = time.process_time()
    library.load(str(path))
    cached = time.process_time() - started
    # The old reading took ~9 ms of CPU per entry; 3,725 entries now take about 1.6 s.
    assert first < 3.0 and cached < 0.5, (first, cached)


def test_a_name_too_long_for_the_system_is_a_library_not_found(tmp_path: Path) -> None:
    # "File name too long" from the check for a folder had been a traceback of `validate`.
    with pytest.raises(InputError, match="library file not found"):
        library.load(str(tmp_path / ("x" * 5000)))


def test_two_library_records_of_one_title_by_other_people_are_two_papers(
    tmp_path: Path, monkeypatch
) -> None:
    """Tong's "Lectures on quantum field theory" and Srednicki and Weinberg's had been one liked
    paper (two names on each side were wanted): Srednicki and Weinberg were no longer authors
    of a paper the subscriber liked. The same paper twice is still one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    bib = tmp_path / "lib.bib"
    bib.write_text(
        "@misc{tong, title = {Lectures on quantum field theory}, author = {Tong, David},"
        " year = {2006}}\n"
        "@misc{srednicki, title = {Lectures on Quantum Field Theory},"
        " author = {Srednicki, Mark and Weinberg, Steven}, year = {2007}}\n"
        "@misc{again, title = {Lectures on Quantum Field Theory}, author = {D. Tong}}\n"
        "@misc{bare, title = {Lectures on quantum field theory}}\n"
    )
    papers = library.load(str(bib), quiet=True)
    assert [p.authors for p in papers] == [("David Tong",), ("Mark Srednicki", "Steven Weinberg")]


# --- markup -------------------------------------------------------------------------------------

# An abstract as Crossref's API writes it, and Zotero keeps it, and their exports hold it.
JATS = (
    "<jats:title>Abstract</jats:title><jats:p>We study federated learning &amp; differential"
    " privacy at <mml:math><mml:mi>p</mml:mi><mml:mo>&lt;</mml:mo><mml:mn>0.05</mml:mn>"
    "</mml:math>.</jats:p>"
)
JATS_TEXT = "We study federated learning & differential privacy at p<0.05."
MARKUP_WORDS = {"jats", "mml", "math", "mi", "mo", "mn", "amp", "lt", "title", "abstract"}


def test_a_crossref_or_zotero_library_is_liked_for_its_words_not_its_markup(
    tmp_path: Path,
) -> None:
    """Its papers' tags had been their words: a probe's top 10 were unrelated papers in the same
    markup, "why: matched mml, jats, title, mo, mi"."""
    from digest.ranking.features import paper_text
    from digest.ranking.tokens import analyze

    jsonl = liked(tmp_path, [ROW | {"abstract": JATS}])
    bib = tmp_path / "lib.bib"
    bib.write_text(
        "@article{fl, title = {Private <i>federated</i> learning}, abstract = {" + JATS + "}}\n",
        encoding="utf-8",
    )
    for path in (jsonl, bib):
        (paper,) = library.load(str(path))
        assert (paper.title, paper.abstract) == (ROW["title"], JATS_TEXT)
        words = set(analyze(paper_text(paper)))
        assert {"federated", "privacy"} <= words and not words & MARKUP_WORDS


def test_a_library_parsed_while_markup_was_kept_is_parsed_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parse cached before markup was read (cache format 12) would keep its tags as words
    until the file changed."""
    path = liked(tmp_path, [ROW | {"abstract": JATS}])
    read = library.read_papers

    def as_format_12(*args, **kwargs):
        return [dataclasses.replace(p, abstract=JATS) for p in read(*args, **kwargs)]

    with monkeypatch.context() as then:
        then.setattr(library, "CACHE_FORMAT", 12)
        then.setattr(library, "read_papers", as_format_12)
        assert library.load(str(path))[0].abstract == JATS
    assert library.load(str(path))[0].abstract == JATS_TEXT

"""The seed source and the shared text helpers: the real seed lists parse into papers with stable
ids, readable titles and code links; every bad input is one warning naming the file, never a crash.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support_alarm import in_time

from digest.models import Paper, SourceConfig, SourceError
from digest.models.identity import abstract_id, normalize
from digest.sources import SOURCES, FilesSource, SeedsSource, seeds
from digest.sources.common import code_links
from digest.sources.seeds import venue_of
from digest.sources.titles import derive_title

SEEDS = Path(__file__).resolve().parent.parent / "seeds"
# The headers read "NeurIPS 2025 Papers" and "NeurIPS 2025 论文列表": both name one venue.
ENGLISH = CHINESE = "NeurIPS 2025"
ABSTRACT = (
    "We propose WidgetNet, a graph model that predicts widget failures from sensor logs. "
    "Experiments on three factories show fewer false alarms."
)


def fetch(path: Path) -> tuple[list[Paper], list[str]]:
    warnings: list[str] = []
    papers = list(
        SeedsSource().fetch(SourceConfig("seeds", "seeds", {"path": str(path)}), warnings.append)
    )
    return papers, warnings


def by_title(papers: list[Paper], start: str) -> Paper:
    (match,) = [p for p in papers if p.title.startswith(start)]
    return match


@pytest.fixture(scope="module")
def seed_papers() -> list[Paper]:
    papers, warnings = fetch(SEEDS)
    assert warnings == []
    return papers


# --- the real seed files ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "venue"),
    [
        ("000_cde773e856411c51.txt", ENGLISH),
        ("003_fd45c6b844506904.txt", CHINESE),
        ("004_8dda26e049e77f17.txt", ENGLISH),
    ],
)
def test_each_seed_file_gives_19_papers_named_by_its_header(name: str, venue: str) -> None:
    papers, warnings = fetch(SEEDS / name)
    assert warnings == []
    assert len(papers) == 19
    assert {p.venue for p in papers} == {venue}
    assert {p.source for p in papers} == {f"seeds:{name}"}
    assert all(p.authors == () and p.url == "" and len(p.abstract) > 300 for p in papers)


def test_a_folder_reads_its_txt_files_in_name_order_and_nothing_else(tmp_path: Path) -> None:
    for seed in sorted(SEEDS.glob("*.txt"), reverse=True):
        shutil.copy(seed, tmp_path / seed.name)
    (tmp_path / "notes.md").write_text("Not seeds\n\nThis paragraph is not an abstract at all.\n")
    (tmp_path / "nested").mkdir()
    shutil.copy(SEEDS / "000_cde773e856411c51.txt", tmp_path / "nested" / "zzz.txt")
    papers, warnings = fetch(tmp_path)
    assert warnings == []
    sources = [p.source for p in papers]
    assert sources == sorted(sources) and len(papers) == 57
    assert len({p.id for p in papers}) == 57


def test_the_first_and_last_abstracts_are_whole_paragraphs(seed_papers: list[Paper]) -> None:
    assert seed_papers[0].abstract.startswith("The conventional approach in differential privacy")
    assert seed_papers[0].abstract.endswith("utility-first privacy mechanisms.")
    assert seed_papers[-1].abstract.endswith("its potential to advance multimodal video analysis.")


def test_method_names_become_titles(seed_papers: list[Paper]) -> None:
    adaspec = by_title(seed_papers, "AdaSPEC")
    assert "selective token filtering" in adaspec.abstract
    assert (
        adaspec.title
        == "AdaSPEC: a method that incorporates selective token filtering into the KD process"
    )
    expected = {
        "FOCUS": "FOCUS: Federated Optimization with Exact Convergence via Push-pull Strategy",
        "AR-RAG": "AR-RAG: Autoregressive Retrieval Augmentation, "
        "a paradigm that enhances image generation",
        "CHG": "CHG: causal head gating, "
        "a scalable method for interpreting the functional roles of attention heads",
        "GeRaF": "GeRaF: the first method to use neural implicit learning "
        "for near-range 3D geometry reconstruction",
        "MPCache": "MPCache: an accurate and MPC-friendly KV cache eviction framework",
        "ZeroTIR": "ZeroTIR: RL from outcome-based rewards for Tool-Integrated Reasoning",
        "Mozart": "Mozart: an algorithm-hardware co-design framework "
        "tailored for efficient training of MoE-based LLMs",
    }
    for name, title in expected.items():
        assert by_title(seed_papers, name + ":").title == title


def test_without_a_method_name_the_contribution_or_first_sentence_is_the_title(
    seed_papers: list[Paper],
) -> None:
    titles = {p.title for p in seed_papers}
    assert "A systematic study of the expressive power of MoEs in modeling complex tasks" in titles
    assert "Watermark forging in the context of widely used post-hoc image watermarking" in titles
    assert (
        "Foundation models trained at scale exhibit remarkable emergent behaviors" in titles
    )  # BioCLIP 2: no "we propose", so the first clause


def test_titles_are_short_and_made_of_whole_words(seed_papers: list[Paper]) -> None:
    for paper in seed_papers:
        title = paper.title
        assert 20 <= len(title) <= 100, title
        assert not re.search(r"[\s,;:.\-]…?$", title), title
        # Every word is a whole word of the abstract (markup removed): nothing is cut mid-word.
        plain = re.sub(r"\\[A-Za-z]+|[{}*$\\]", "", paper.abstract)
        for word in re.findall(r"[\w'’/-]+", title.rstrip("…")):
            whole = rf"(?<![\w-]){re.escape(word)}(?![\w-])"
            assert word.lower() in ("a", "an") or re.search(whole, plain, re.IGNORECASE), (
                word,
                title,
            )


def test_ids_are_abstract_hashes_and_stable(seed_papers: list[Paper]) -> None:
    assert all(re.fullmatch(r"h:[0-9a-f]{16}", p.id) for p in seed_papers)
    assert all(p.id == abstract_id(p.abstract) for p in seed_papers)
    again, _ = fetch(SEEDS)
    assert [p.id for p in again] == [p.id for p in seed_papers]


def test_code_links_are_taken_from_the_abstract(seed_papers: list[Paper]) -> None:
    assert by_title(seed_papers, "AdaSPEC").code_url == "https://github.com/yuezhouhu/adaspec"
    # \href{...}{https://github.com/yyht/openrlhf\_async\_pipline}: one link, unescaped
    zerotir = by_title(seed_papers, "ZeroTIR")
    assert code_links(zerotir.abstract) == ["https://github.com/yyht/openrlhf_async_pipline"]
    assert (
        by_title(seed_papers, "BE-ToF").code_url
        == "https://github.com/ComputationalPerceptionLab/BE-ToF"
    )
    aanet = [p for p in seed_papers if "AANet" in p.abstract][0]
    assert aanet.code_url == "https://github.com/Wiley-Z/AANet"  # the markdown [url](url) form
    assert (
        by_title(seed_papers, "TIRE").code_url
        == "https://zsh2000.github.io/track-inpaint-resplat.github.io/"
    )
    assert sum(1 for p in seed_papers if p.code_url) == 9
    assert by_title(seed_papers, "FOCUS").code_url == ""


# --- identity across files ----------------------------------------------------------------------


def test_the_same_abstract_rewrapped_or_recased_in_another_file_is_one_paper(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.txt").write_text(f"ICML 2026\n\n{ABSTRACT}\n", encoding="utf-8")
    wrapped = ABSTRACT.upper().replace(". ", ".\n   ").replace("graph model", "graph   model")
    (tmp_path / "b.txt").write_text(f"SafeML Workshop\n\n{wrapped}\n", encoding="utf-8")
    papers, warnings = fetch(tmp_path)
    assert warnings == []
    assert [p.venue for p in papers] == ["ICML 2026", "SafeML Workshop"]
    assert papers[0].id == papers[1].id
    assert (
        papers[0].title == "WidgetNet: a graph model that predicts widget failures from sensor logs"
    )


def test_paragraphs_are_split_on_whitespace_only_lines_and_crlf(tmp_path: Path) -> None:
    text = (
        f"\n\n  Venue X  \r\n \t \r\n{ABSTRACT}\r\n\t\r\n"
        "Second abstract about graphs and\r\nwidgets.\r\n"
    )
    (tmp_path / "crlf.txt").write_bytes(b"\xef\xbb\xbf" + text.encode())  # with a BOM
    papers, warnings = fetch(tmp_path / "crlf.txt")
    assert warnings == []
    assert [p.venue for p in papers] == ["Venue X", "Venue X"]
    assert papers[1].abstract == "Second abstract about graphs and widgets."


# --- bad input: one warning each, the rest goes on ----------------------------------------------


def test_every_bad_file_is_one_warning_and_the_good_file_still_counts(tmp_path: Path) -> None:
    (tmp_path / "a_empty.txt").write_text("")
    (tmp_path / "b_blank.txt").write_text(" \n\t\n")
    (tmp_path / "c_header.txt").write_text("NeurIPS 2025 Papers\n\n\n")
    (tmp_path / "d_binary.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    (tmp_path / "f_good.txt").write_text(f"Venue\n\n{ABSTRACT}\n", encoding="utf-8")
    papers, warnings = fetch(tmp_path)
    assert [p.source for p in papers] == ["seeds:f_good.txt"]
    assert warnings == [
        f"{tmp_path / 'a_empty.txt'}: empty file, no header line",
        f"{tmp_path / 'b_blank.txt'}: empty file, no header line",
        f"{tmp_path / 'c_header.txt'}: header only, no abstracts",
        f"{tmp_path / 'd_binary.txt'}: binary file, skipped",
    ]


def test_a_byte_that_is_not_utf8_is_one_warning_and_its_line_reads_as_windows_1252(
    tmp_path: Path,
) -> None:
    path = tmp_path / "mixed.txt"
    latin = f"{ABSTRACT} Café au lait, “quoted”.".encode("cp1252")
    path.write_bytes(f"Zoë’s Venue\n\n{ABSTRACT} Zoë\n\n".encode() + latin + b"\n")
    papers, warnings = fetch(path)
    assert [p.venue for p in papers] == ["Zoë’s Venue", "Zoë’s Venue"]  # UTF-8 lines stay
    assert [p.abstract for p in papers] == [
        f"{ABSTRACT} Zoë",
        f"{ABSTRACT} Café au lait, “quoted”.",
    ]
    offset = len(f"Zoë’s Venue\n\n{ABSTRACT} Zoë\n\n{ABSTRACT} Caf".encode())
    assert warnings == [
        f"{path}:5: not valid UTF-8 (byte 0xe9 at offset {offset});"
        " lines that are not UTF-8 read as Windows-1252"
    ]


def test_a_too_short_paragraph_is_skipped_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "short.txt"
    path.write_text(f"Venue\n\n{ABSTRACT}\n\nTBD\n\n{ABSTRACT.replace('widget', 'gadget')}\n")
    papers, warnings = fetch(path)
    assert len(papers) == 2
    assert warnings == [f"{path}:5: paragraph too short for an abstract ('TBD'), skipped"]


def test_a_missing_path_fails_the_source(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(SourceError, match=re.escape(f"{missing}: no such file or folder")):
        SeedsSource().fetch(SourceConfig("seeds", "seeds", {"path": str(missing)}), print)
    with pytest.raises(SourceError, match="option 'path'"):
        SeedsSource().fetch(SourceConfig("seeds", "seeds", {}), print)


def test_a_device_fails_the_source_at_once() -> None:
    # /dev/zero was checked whole before any line was read: a run read it until stopped.
    for device in ("/dev/zero", "/dev/urandom"):
        with pytest.raises(SourceError, match="a device, not a file or folder"):
            list(SeedsSource().fetch(SourceConfig("seeds", "seeds", {"path": device}), print))


def test_a_folder_without_seed_files_is_one_warning(tmp_path: Path) -> None:
    (tmp_path / "readme.md").write_text("nothing here")
    papers, warnings = fetch(tmp_path)
    assert papers == []
    assert warnings == [f"{tmp_path}: no *.txt files in folder"]


def test_the_registry_knows_every_kind() -> None:
    assert isinstance(SOURCES["seeds"], SeedsSource)
    assert isinstance(SOURCES["files"], FilesSource)
    assert sorted(SOURCES) == ["arxiv", "files", "openreview", "rss", "seeds"]


# --- common helpers -----------------------------------------------------------------------------


def test_normalize_folds_width_case_punctuation_and_space() -> None:
    assert normalize("  Ｆｅｄ-Avg:\tThe  BEST, (really)!\n") == "fed avg the best really"
    assert abstract_id("Graph  models.\nFor WIDGETS") == abstract_id("graph models for widgets")
    assert abstract_id("graph models for widgets") != abstract_id("graph models for gadgets")


def test_code_links_understand_markdown_latex_and_trailing_punctuation() -> None:
    text = (
        "Code: [https://github.com/a/b](https://github.com/a/b). Data at "
        r"\url{https://huggingface.co/datasets/c/d}, "
        r"\href{https://gitlab.com/e/f_g}{gitlab.com/e/f\_g}; "
        "see (https://codeberg.org/h/i), https://bitbucket.org/j/k] and https://proj.github.io/. "
        "Not code: https://example.org/x, https://github.com/ and https://arxiv.org/abs/2501.01234."
        " Bare: github.com/l/m."
    )
    assert code_links(text) == [
        "https://github.com/a/b",
        "https://huggingface.co/datasets/c/d",
        "https://gitlab.com/e/f_g",
        "https://codeberg.org/h/i",
        "https://bitbucket.org/j/k",
        "https://proj.github.io/",
        "https://github.com/l/m",
    ]
    assert code_links("no links at all") == []


def test_derive_title_cuts_at_a_word_and_marks_the_cut() -> None:
    long = "Graph networks " + "learn widget dynamics from noisy sensor streams " * 5 + "."
    title = derive_title(long, limit=60)
    assert title.endswith("…") and len(title) <= 60
    assert title == "Graph networks learn widget dynamics from noisy sensor…"
    assert derive_title("In this paper, we revisit the widget scheduling problem on graphs.") == (
        "The widget scheduling problem on graphs"
    )
    assert derive_title("Widgets fail. More text follows here.") == "Widgets fail"
    assert derive_title("") == ""


def test_derive_title_prefers_the_named_method_and_strips_markup() -> None:
    abstract = (
        r"Widgets break. We introduce $\textbf{G}$raph $\textbf{W}$idget $\textbf{O}$ptimizer "
        r"(GWO), a **fast** solver for widget placement, and show it works."
    )
    assert (
        derive_title(abstract) == "GWO: Graph Widget Optimizer, a fast solver for widget placement"
    )
    assert derive_title(
        "Our LLMs (large language models) are big. We propose a new way to rank."
    ) == ("A way to rank")
    assert derive_title(ABSTRACT, limit=40) == "WidgetNet: a graph model"  # cut at "that"


# What a feed's titleless item may hold after its first sentence, as long as intake keeps an
# abstract. Each of these took the old code 1.5 to 15 s per item, read after read of the feed.
HOSTILE = {
    "a run of [": "[" * 19_900,
    "a run of spaces": " " * 19_900 + "x",
    "emphasis marks that never close": "*a " * 6_600,
    "abbreviations that end no sentence": "e.g. " + "Fig. " * 3_980,
    "intro verbs": "we propose it; " * 1_320,
    "names that nothing names": "we propose this " + "GPT4 " * 3_980,
}


@pytest.mark.parametrize("fill", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_feed_of_hostile_titleless_items_is_titled_by_their_first_sentences(fill: str) -> None:
    """Markup, spaces, abbreviations and intro verbs by the thousand are each read once."""
    items = [f"Widgets fail under load {i}. More {fill}" for i in range(20)]
    titles = in_time(lambda: [derive_title(item) for item in items])
    assert titles == [f"Widgets fail under load {i}" for i in range(20)]


def test_a_title_comes_from_the_abstract_intake_keeps() -> None:
    """A feed's item is titled before intake cuts its abstract to 20,000 characters; a method
    named past the cut is not in the paper's abstract, so it is not in the title either."""
    kept = "Widgets fail under load. " + "More words here. " * 1_100
    cut = "More words here. " * 100
    named = "We propose WidgetNet, a graph model."
    assert len(kept + named) < 20_000 < len(kept + cut)
    assert derive_title(kept + named) == "WidgetNet: a graph model"
    assert derive_title(kept + cut + named) == "Widgets fail under load"
    title = in_time(lambda: derive_title("Widgets fail under load. More " + "[" * 5_000_000))
    assert title == "Widgets fail under load"


@pytest.mark.parametrize(
    ("header", "venue"),
    [
        ("NeurIPS 2025 Papers", "NeurIPS 2025"),
        ("NeurIPS 2025 论文列表", "NeurIPS 2025"),
        ("# ICML 2025 Accepted Papers", "ICML 2025"),
        ("ICLR 2026 - paper list", "ICLR 2026"),
        ("ACL 2025: List of Accepted Papers", "ACL 2025"),
        ("CVPR 2025 已接收论文列表", "CVPR 2025"),
        ("AAAI 2026 录用论文清单", "AAAI 2026"),
        ("NeurIPS 2025 Oral Papers", "NeurIPS 2025 Oral"),  # the track is part of the venue
        ("Newspapers of 1900", "Newspapers of 1900"),
        ("Papers", "Papers"),  # nothing but the word: the header stays
        ("论文列表", "论文列表"),
    ],
)
def test_a_headers_words_for_a_list_of_papers_are_not_the_venue(header: str, venue: str) -> None:
    assert venue_of(header) == venue


@pytest.mark.parametrize("chunk", [1, 5, 1 << 20])
def test_text_files_are_checked_and_read_in_chunks_with_the_same_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """Files are read a chunk at a time (memory stays flat): a character cut by a chunk's end,
    a bad byte or a NUL byte in a later chunk, say the same as when the file was read whole."""
    monkeypatch.setattr(seeds, "CHUNK", chunk)
    (tmp_path / "a_good.txt").write_text(f"Café 2025\r\n\r\n{ABSTRACT} Zoë\u2028\n\n", "utf-8-sig")
    (tmp_path / "b_late.txt").write_bytes(f"Venue\n\n{ABSTRACT}\n\nZo\xeb".encode("latin-1"))
    (tmp_path / "c_cut.txt").write_bytes(f"Venue\n\n{ABSTRACT} Zoë".encode()[:-1])
    (tmp_path / "d_nul.txt").write_bytes(f"Venue\n\nCaf\xe9\n\n{ABSTRACT}\x00".encode("latin-1"))
    papers, warnings = fetch(tmp_path)
    assert [(p.venue, p.abstract) for p in papers] == [
        ("Café 2025", f"{ABSTRACT} Zoë"),
        ("Venue", ABSTRACT),
        ("Venue", f"{ABSTRACT} ZoÃ"),  # the cut character's first byte, as Windows-1252 reads it
    ]
    late, cut = len(f"Venue\n\n{ABSTRACT}\n\nZo"), len(f"Venue\n\n{ABSTRACT} Zo")
    cp1252 = "; lines that are not UTF-8 read as Windows-1252"
    assert warnings == [
        f"{tmp_path / 'b_late.txt'}:5: not valid UTF-8 (byte 0xeb at offset {late}){cp1252}",
        f"{tmp_path / 'b_late.txt'}:5: paragraph too short for an abstract ('Zoë'), skipped",
        f"{tmp_path / 'c_cut.txt'}:3: not valid UTF-8 (byte 0xc3 at offset {cut}){cp1252}",
        f"{tmp_path / 'd_nul.txt'}: binary file, skipped",  # the NUL wins, as before
    ]


def test_a_folder_whose_every_list_cannot_be_read_fails_the_source(tmp_path: Path) -> None:
    # Not a quiet day: a run that reads nothing from it must say the source failed.
    for name in ("a.txt", "b.txt"):
        (tmp_path / name).write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(SourceError, match=r"none of the 2 abstract list\(s\) could be read"):
        list(SeedsSource().fetch(SourceConfig("seeds", "seeds", {"path": str(tmp_path)}), print))


def test_a_folder_it_may_not_list_fails_the_source_in_one_line(tmp_path: Path) -> None:
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to read as a user without root's bypass")
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "a.txt").write_text(f"Venue\n\n{ABSTRACT}\n", encoding="utf-8")
    folder.chmod(0)
    code = (
        "from digest.models import SourceConfig, SourceError\n"
        "from digest.sources.seeds import SeedsSource\n"
        f"config = SourceConfig('seeds', 'seeds', {{'path': {str(folder)!r}}})\n"
        "try: SeedsSource().fetch(config, print)\n"
        "except SourceError as exc: print(exc)\n"
    )
    caps = "-dac_override,-dac_read_search"
    done = subprocess.run(
        ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    folder.chmod(0o755)
    assert done.stdout.strip() == f"{folder}: cannot read the folder (Permission denied)", (
        done.stderr
    )


def test_a_path_in_the_home_of_no_such_user_is_missing_not_a_crash() -> None:
    config = SourceConfig(name="s", kind="seeds", options={"path": "~0/abstracts"})
    with pytest.raises(SourceError, match="no such file or folder"):
        seeds.source_path(config)

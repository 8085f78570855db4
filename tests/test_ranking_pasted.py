"""A BibTeX entry or a LaTeX text pasted as a reader's interests: its subject is read, its markup
(entry type, key, field names, numbers, pointers, citation keys, environments, comments) is not;
a text with neither reads as written."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.pasted import plain
from digest.ranking.tokens import analyze
from digest.ranking.wishes import read

MARKUP = {
    "article", "inproceedings", "misc", "title", "author", "journal", "booktitle", "volume",
    "year", "pages", "doi", "url", "eprint", "archiveprefix", "primaryclass", "publisher",
    "note", "keywords", "abstract", "arxiv", "preprint", "curran", "begin", "end", "citep",
    "cite", "ref", "label", "fig", "textbf", "emph", "section", "smith2023", "vaswani2017attention",
}  # fmt: skip
ENTRY = """@article{vaswani2017attention,
  title={Attention is all you need},
  author={Vaswani, Ashish and Shazeer, Noam and Parmar, Niki},
  journal={Advances in neural information processing systems},
  volume={30},
  year={2017}
}"""


def words(text: str) -> set[str]:
    return {w for term in analyze(read(text)) for w in term.split()}


def entry(*fields: str, kind: str = "article", key: str = "k1", parens: bool = False) -> str:
    body = f"{key},\n  " + ",\n  ".join(fields)
    return f"@{kind}({body})" if parens else f"@{kind}{{{body}\n}}"


SUBJECT_FIELDS = (
    "title = {Sparse {Transformers} for protein folding}",
    'booktitle = "Proceedings of Structural Biology"',
    "keywords = {contact maps; coevolution}",
    "abstract = {We fold \\emph{proteins} with attention \\citep{jumper2021}.}",
)
MARKUP_FIELDS = (
    "volume = {12}",
    "year = 2021",
    'pages = "101--118"',
    "doi = {10.1000/xyz.123}",
    "url = {https://example.org/paper?id=Q}",
    "eprint = {2101.01234}",
    "archivePrefix = {arXiv}",
    "publisher = {Curran Associates}",
    "note = {Oral presentation}",
    "journal = {arXiv preprint arXiv:2101.01234}",
    "month = jan",
)


@pytest.mark.parametrize("kind", ["article", "InProceedings", "misc", "phdthesis"])
@pytest.mark.parametrize("parens", [False, True])
@pytest.mark.parametrize("order", [1, -1])
def test_an_entry_reads_as_its_subject_fields_in_any_type_order_and_quoting(
    kind: str, parens: bool, order: int
) -> None:
    fields = (SUBJECT_FIELDS + MARKUP_FIELDS)[::order]
    found = words(entry(*fields, kind=kind, key="jumper:2021-fold", parens=parens))
    assert found >= {"sparse", "transformers", "protein", "folding", "structural", "biology"}
    assert found >= {"contact", "maps", "coevolution", "fold", "proteins", "attention"}
    assert not found & (MARKUP | {kind.lower(), "jumper", "jumper2021", "oral", "associates"})
    assert not found & {"2021", "12", "101", "118", "xyz", "example", "jan"}


def test_authors_are_kept_decoded_and_several_entries_amid_prose_each_read() -> None:
    text = (
        "I read about graph networks, e.g.\n"
        + entry("author = {Kaiser, {\\L}ukasz and M\\\"{u}ller, J\\'{\\i}r\\'i and others}")
        + "\nand also\n"
        + entry("title = {Diffusion models for molecules}", "year = {2022}", key="x2")
        + " which I liked."
    )
    found = words(text)
    assert found >= {"graph", "networks", "kaiser", "łukasz", "liked", "diffusion", "molecules"}
    assert "ukasz" not in found and analyze("Müller Jírí") == analyze(
        plain("M\\\"{u}ller J\\'{\\i}r\\'i")
    )
    assert not found & (MARKUP | {"k1", "x2", "2022"})


def test_a_cut_short_entry_and_string_blocks_read_no_markup() -> None:
    # Cut inside its last value: the entry, and that value, end with the text.
    text = (
        '@string{nips = "Neural Information"}\n'
        + entry("journal = nips", "title = {Spiking neurons in cortex}", "year = {20")[:-2]
    )
    found = words(text)
    # The journal is the @string's value (reg34 F7); the block itself is no words.
    assert found >= {"spiking", "neurons", "cortex", "neural", "information"}
    assert not found & (MARKUP | {"nips", "string"})


def test_a_latex_abstract_reads_as_its_text() -> None:
    text = r"""\begin{abstract}
% TODO: shorten for the camera-ready version
We study \textbf{sparse attention} for long \emph{sequences} \citep{Smith2023}, as in
\cite[p.~3]{Lee2020,Park2021} (\ref{fig:x}).\label{sec:intro}
\section{Introduction} {\L}ukasz's \"{o}ffentliche \href{https://x.org/a}{benchmark} costs 5\%.
\end{abstract}"""
    found = words(text)
    assert found >= {"sparse", "attention", "sequences", "introduction", "łukasz", "benchmark"}
    assert "öffentliche" in found or "offentliche" in found
    assert not found & (MARKUP | {"todo", "camera", "lee2020", "park2021", "sec", "intro", "p"})


@pytest.mark.parametrize(
    "text",
    [
        "Write to ana.b@uni-x.edu about algorithms in O(n^{2}) and sets {x : x > 0}.",
        "Ranking by mAP@0.5; 5% gains; 100% recall; a@b{c} and @home {x}",
        "Graph learning (e.g. GNNs) -- see our lab's page; `quoted' ~approx",
    ],
)
def test_a_text_with_no_bibtex_or_latex_reads_as_before(text: str) -> None:
    assert plain(text) == text


def test_math_in_a_latex_text_stays_as_written() -> None:
    assert plain(r"\emph{Fast} sorting in $O(n^{2})$ time") == "Fast sorting in $O(n^{2})$ time"


def test_a_reader_who_pastes_an_entry_gets_its_subject_not_its_field_names() -> None:
    """The entry had been read as "journal, title, author, year": a paper on news articles with
    "its title, author and journal" ranked first, "why: matched journal, title, author, year"."""
    news = Paper(
        "b1",
        "Detecting misinformation in news articles",
        "We collect 20,000 news articles published over one year, each with its title, author"
        " and journal, and train a classifier of misinformation.",
        categories=("cs.CL",),
    )
    attention = Paper(
        "b2",
        "Efficient self-attention for long sequences",
        "Transformers rely on self-attention whose cost is quadratic in sequence length. We"
        " propose a linear-time attention mechanism for sequence transduction that matches the"
        " transformer's translation quality.",
        categories=("cs.CL",),
    )
    reader = Subscriber("bib", Profile(interests=ENTRY), (), top_k=5)
    picks = rank([news, attention], [reader], thresholds=False)["bib"]  # as `digest rank`
    assert [s.paper.id for s in picks] == ["b2", "b1"]
    for pick in picks:
        assert not {w for term in pick.terms for w in term.lower().split()} & MARKUP
    # With min_score (`digest run`) the news paper is no pick: it shares no word of the subject.
    assert "b1" not in {s.paper.id for s in rank([news, attention], [reader])["bib"]}


@pytest.mark.parametrize(
    ("strings", "fields", "wanted"),
    [
        ('@string{t1="Quantum"}', 'title = t1 # " error correction"', {"quantum", "error"}),
        ("@STRING{PRL = {Physical Review Letters}}", "journal = prl", {"physical", "letters"}),
        (  # one string built of another, in parentheses; a name it never defines reads as nothing
            '@string(a = "Topological") @string{b = a # " insulators"}',
            'title = b # " and " # c # {edge states}',
            {"topological", "insulators", "edge", "states"},
        ),
    ],
)
def test_an_entry_s_string_names_are_their_values(
    strings: str, fields: str, wanted: set[str]
) -> None:
    """reg34 F7: a name in a value had read as nothing: "Quantum" was lost from a title, and a
    journal given as `prl` was no journal."""
    found = words(strings + "\n" + entry(fields, "year = 2024"))
    assert found >= wanted
    assert not found & {"t1", "prl", "a", "b", "c", "string", "2024"}


@pytest.mark.parametrize(
    ("text", "wanted", "unwanted"),
    [
        (
            "\\newcommand*{\\KL}[2]{D_{KL}(#1\\|#2)} Variational inference bounds",
            {"variational", "inference", "bounds"},
            {"d_kl", "kl", "2"},
        ),
        (
            "\\renewcommand{\\vec}[1]{\\boldsymbol{#1}} equivariant networks for \\vec{x} clouds",
            {"equivariant", "networks", "clouds"},
            {"x-clouds", "boldsymbol", "1"},
        ),
        (
            "\\DeclareMathOperator*{\\argmax}{arg\\,max} \\providecommand\\Tr{Trace} sparse coding",
            {"sparse", "coding"},
            {"arg", "max", "trace"},
        ),
        ("\\def\\ours#1{Sparse#1Net} \\def\\x{y} graph pooling", {"graph"}, {"net", "y"}),
    ],
)
def test_a_macro_definition_is_no_words(text: str, wanted: set[str], unwanted: set[str]) -> None:
    """reg34 F7: a definition's body had been read where it stood ("d_kl"), as had its [2]."""
    found = words(text)
    assert found >= wanted and not found & unwanted


def test_a_macro_the_paste_defines_reads_as_its_body_where_used() -> None:
    text = (
        "\\newcommand{\\method}{FlowNet}\\newcommand{\\KL}[2]{D_{KL}(#1\\|#2)}\n"
        "We train \\method\\ and \\method{} for optical flow under a \\KL{q}{p} penalty."
    )
    # A body of math is math where it is used, as if typed there: "kl", not "d_kl".
    assert analyze(read(text)) == analyze(
        "We train FlowNet and FlowNet for optical flow under a $D_{KL}(q\\|p)$ penalty."
    )


@pytest.mark.parametrize(
    "text",
    [
        "@article{k8, title = {{\\noopsort{a}}networks of graphs}}",
        '@preamble{"\\newcommand{\\noopsort}[1]{}"} @article{k8, title = {{\\noopsort{a}}networks'
        " of graphs}}",
        "{\\SortNoop{b}}Networks of graphs",
    ],
)
def test_a_sorting_command_prints_nothing(text: str) -> None:
    """reg34 F7: "{\\noopsort{a}}networks" had been the word "anetworks"."""
    assert words(text) == {"networks", "graphs"}


@pytest.mark.parametrize(
    ("text", "wanted"),
    [
        (
            "\\newcommand{\\vect}[2][x]{\\mathbf{#1}_{#2}} vectors \\vect[y]{t} and \\vect{s}",
            "vectors $\\mathbf{y}_{t}$ and $\\mathbf{x}_{s}$",
        ),
        (
            "\\newcommand\\pool[1][graph]{#1 pooling} \\pool or \\pool [node] and \\pool{}",
            "graph pooling or node pooling and graph pooling",
        ),
        (
            "\\providecommand{\\on}[3][hard]{#1 #2 on #3}"
            " \\on{attention}{graphs} vs \\on[soft]{a}{b}",
            "hard attention on graphs vs soft a on b",
        ),
    ],
)
def test_a_macro_s_optional_argument_is_its_default_or_the_one_given(
    text: str, wanted: str
) -> None:
    """reg36: "\\vect[y]{t}" had taken "[" and "y" as its two arguments: "$\\mathbf{[}_{y}$ ]t"."""
    assert " ".join(plain(text).split()) == wanted


@pytest.mark.parametrize(
    "head",
    [
        "\\newcommand{\\ours}{Sparse ",
        "\\renewcommand*\\ours[1]{\\textbf{Sparse} #1 ",
        "\\def\\ours{\\textsc{Sparse}",
        "\\newcommand{\\a}{A}\\newcommand{\\ours}{",
    ],
)
def test_a_paste_cut_inside_a_definition_keeps_the_rest_of_the_text(head: str) -> None:
    """reg36: "\\newcommand{\\ours}{Sparse We propose \\ours, ..." had read as nothing: the body
    that never closed had taken the whole text."""
    found = words(head + "We propose \\ours, a sparse attention for long documents.")
    assert found >= {"sparse", "attention", "long", "documents"}
    assert not found & {"newcommand", "renewcommand", "def", "textbf", "textsc", "ours"}

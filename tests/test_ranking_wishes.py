"""A reader's interests text as the ranking reads it: links, e-mail addresses and DOIs are no
words, and an arXiv category code is the subject it names."""

from __future__ import annotations

import pytest

from digest.models import Paper, Profile, Subscriber
from digest.ranking import rank
from digest.ranking.tokens import analyze
from digest.ranking.wishes import arxiv_ids, read

PH = [
    Paper(f"ph{i}", f"Soil pH and caesium uptake {i}", "We measure pH and Cs in soils of farms.")
    for i in range(4)
]
THEORY = [
    Paper(
        f"th{i}",
        f"Holography and quantum gravity {i}",
        "High energy physics theory: string theory, holography and a quantum theory of gravity.",
    )
    for i in range(3)
]
CITES = [
    Paper(
        f"c{i}", f"Citation counts of users {i}", "We count citations of users of Google Scholar."
    )
    for i in range(3)
]
GRAPHS = [
    Paper(f"g{i}", f"Graph neural networks {i}", "Message passing on graphs with neural networks.")
    for i in range(3)
]


def reader(interests: str) -> Subscriber:
    return Subscriber("ana", Profile(interests=interests), (), top_k=5)


@pytest.mark.parametrize(
    ("code", "subject"),
    [
        ("cs.LG", "machine learning"),
        ("stat.ML", "machine learning"),
        ("CS.CV", "computer vision and pattern recognition"),
        ("hep-th", "high energy physics theory"),
        ("astro-ph.CO", "cosmology and nongalactic astrophysics"),
        ("cond-mat.str-el", "strongly correlated electrons"),
        ("physics.flu-dyn", "fluid dynamics"),
        ("q-bio.NC", "neurons and cognition"),
        ("quant-ph", "quantum physics"),
    ],
)
def test_an_arxiv_category_code_is_its_subject(code: str, subject: str) -> None:
    assert read(f"Papers in {code}, please.") == f"Papers in {subject}, please."


def test_words_that_are_no_category_code_stay_as_written() -> None:
    text = "Self-supervised learning, e.g. contrastive; math and physics, Cs and pH, cs.XYZ"
    assert read(text) == text


def test_links_addresses_and_dois_are_no_words() -> None:
    text = (
        "Graph learning; see https://scholar.google.com/citations?user=Ab1 and "
        "www.example.org/lab, github.com/ana/graph-nets, ana.b@uni-x.edu, doi:10.1103/PhysRevLett.1"
        " or 10.1038/s41586-020-2649-2."
    )
    assert analyze(read(text)) == analyze("Graph learning; see and")


def test_a_reader_of_category_codes_gets_their_subjects_not_ph_or_caesium() -> None:
    # Read as letters, "hep-th" and "quant-ph" had been "hep th", "quant ph": pH papers won.
    picks = rank([*PH, *THEORY], [reader("hep-th, gr-qc, quant-ph")])["ana"]
    assert {s.paper.id for s in picks[:3]} == {"th0", "th1", "th2"}
    assert not any(s.paper.id.startswith("ph") for s in picks)


def test_a_scholar_link_in_the_interests_brings_no_citation_papers() -> None:
    text = "Graph neural networks. My papers: https://scholar.google.com/citations?user=x"
    picks = rank([*CITES, *GRAPHS], [reader(text)])["ana"]
    assert {s.paper.id for s in picks} == {"g0", "g1", "g2"}


def test_names_with_a_dot_or_an_at_are_words():
    """ "ASP.NET" had been read as a domain and "mAP@0.5" as an e-mail address: a reader of
    .NET got nothing, and `digest validate` refused the config."""
    for text in ("ASP.NET, VB.NET and ML.NET", "evaluated by mAP@0.5", "Amazon.com reviews"):
        assert read(text) == text


@pytest.mark.parametrize(
    "ids",
    [
        "arXiv:2506.20115, arXiv:2509.22540, arXiv:2510.18733",
        "ARXIV: 2506.20115v2; (arXiv:hep-th/9711200) and arXiv:math.GT/0309136.",
        "2506.20115v1, hep-th/9711200, astro-ph/0101001v3",
    ],
)
def test_arxiv_ids_are_pointers_not_words(ids: str) -> None:
    """rank22 F1: "arXiv:2506.20115, ..." had been the word "arxiv", the whole profile (every
    pick a paper whose abstract says "arXiv"); an old-style id had been "hep th"."""
    assert analyze(read(f"Holography. {ids}")) == analyze("Holography.")
    assert arxiv_ids(ids)  # and validate names them for `like`


def test_an_arxiv_id_reader_gets_no_paper_for_saying_arxiv() -> None:
    says = [
        Paper(f"a{i}", f"Instruction tuning toolkit {i}", "Our code and preprint are on arXiv.")
        for i in range(3)
    ]
    reader_ = reader("Holography, arXiv:2506.20115, arXiv:2509.22540")
    picks = rank([*says, *THEORY], [reader_], thresholds=False)["ana"]
    assert {s.paper.id for s in picks[:3]} == {"th0", "th1", "th2"}
    assert not any("arxiv" in term.lower() for s in picks for term in s.terms)


def test_the_arxiv_ids_a_text_names_are_listed_as_like_takes_them() -> None:
    text = (
        "2506.20115, arXiv:2509.22540v2, https://arxiv.org/abs/2510.18733, hep-th/9711200,"
        " arXiv: 2506.20115, doi:10.1103/PhysRevD.111.046001 and the word arXiv"
    )
    assert arxiv_ids(text) == ["2506.20115", "2509.22540", "2510.18733", "hep-th/9711200"]
    # Numbers that are no id (month 13), and an entry's own eprint, are not listed.
    entry = "@article{k, title = {Holography}, eprint = {2506.20115}}"
    assert arxiv_ids("1312.5 K and 2513.00001; " + entry) == []


def test_a_number_that_is_no_arxiv_id_stays() -> None:
    assert read("cooled to 2513.12345 K") == "cooled to 2513.12345 K"
    assert read("arXiv papers of 2025") == "arXiv papers of 2025"


@pytest.mark.parametrize(
    "form",
    [
        "arXiv {}",
        "arXiv {}v2",
        "ArXiv id {}",
        "arXiv ID: {}",
        "arXiv preprint {}",
        "arXiv preprint arXiv:{}",
        "arXiv no. {}",
        "ARXIV {} ",
    ],
)
def test_the_word_arxiv_before_an_id_is_part_of_the_pointer(form: str) -> None:
    """reg36 F5: "arXiv 2506.20115, arXiv 2509.22540" (no colon) had read as "arxiv", "arxiv":
    the whole profile, every pick a paper that says it is on arXiv."""
    text = ", ".join(form.format(i) for i in ("2506.20115", "2509.22540"))
    assert analyze(read(text)) == []
    assert analyze(read(f"Holography; {text}")) == analyze("Holography;")
    assert arxiv_ids(text) == ["2506.20115", "2509.22540"]


def test_a_reader_of_arxiv_ids_without_a_colon_gets_no_paper_for_saying_arxiv() -> None:
    says = [
        Paper(f"a{i}", f"Instruction tuning toolkit {i}", "Our code and preprint are on arXiv.")
        for i in range(3)
    ]
    picks = rank([*says, *THEORY], [reader("Holography, arXiv 2506.20115, arXiv id 2509.22540")])
    assert {s.paper.id for s in picks["ana"][:3]} == {"th0", "th1", "th2"}
    assert not any("arxiv" in term.lower() for s in picks["ana"] for term in s.terms)


@pytest.mark.parametrize(
    "text",
    [
        "the 1203.4567 keV line and 2012.12345 Hz",
        "energy resolution of 1203.4567 keV detectors and 0612.12345 calibration",
        "the 1203.4567 and 1203.4568 keV lines",
        "a period of 1107.1234 days",
        "2012.12345 ± 0.003 cm^-1",
        "E = 1203.4567 and T ≈ 2010.12345",
        "a 1105.2345% rise",
    ],
)
def test_a_number_a_sentence_goes_on_from_is_a_quantity_not_an_arxiv_id(text: str) -> None:
    """reg36 F7: "the 1203.4567 keV line" had lost its number, and validate had said to list it
    in `like`."""
    assert read(text) == text
    assert arxiv_ids(text) == []


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("2506.20115", ["2506.20115"]),
        ("2506.20115, 2509.22540; (2510.18733) [2511.00001].", None),
        ("2506.20115 2509.22540 2510.18733 2511.00001", None),
        ("papers like 2506.20115 and 2509.22540", ["2506.20115", "2509.22540"]),
        ("Holography (2506.20115): 2509.22540v2 sparse attention", ["2506.20115", "2509.22540"]),
        (
            "2506.20115 Sparse attention\n2509.22540 Mamba state spaces",
            ["2506.20115", "2509.22540"],
        ),
        ("- 2506.20115 Sparse attention\n- 2509.22540v1 Mamba", ["2506.20115", "2509.22540"]),
        ("[1] 2506.20115 Sparse attention\n[2] 2509.22540 Mamba", ["2506.20115", "2509.22540"]),
    ],
)
def test_an_id_alone_in_a_list_or_with_a_version_is_an_id(text: str, ids: list[str] | None) -> None:
    ids = ids or ["2506.20115", "2509.22540", "2510.18733", "2511.00001"]
    assert arxiv_ids(text) == ids
    assert not any(i in read(text) for i in ids)


@pytest.mark.parametrize(
    "text",
    [
        "Papers like 2506.20115 and 2509.22540 are what I want",
        "I liked 2506.20115 by Smith et al. on sparse attention",
        "2506.20115 Sparse attention for long context",
        "• 2506.20115 Sparse attention for long context",
        "Sparse attention, see 2506.20115 for an example",
        "2506.20115, 2509.22540 and 2510.18733 on sparse attention",
        "arXiv.2506.20115 sparse attention",
        "ArXiv-2506.20115 sparse attention",
        "sparse attention https://huggingface.co/papers/2506.20115",
        "sparse attention https://www.alphaxiv.org/abs/2506.20115v2.",
    ],
)
def test_an_id_before_a_word_that_is_no_unit_is_an_id(text: str) -> None:
    """reg38 F4, F6: any word after a bare id had made it a quantity, so an id in a sentence or
    one "id title" line was kept as a number and no paper named for `like`; "arXiv." and
    "ArXiv-" before an id had left the word "arxiv", and a Hugging Face or alphaXiv link named
    no id."""
    assert "2506.20115" in arxiv_ids(text)
    assert "2506" not in read(text) and "arxiv" not in analyze(read(text))


@pytest.mark.parametrize(
    "text",
    [
        "lines at 1203.4567, 1204.5678 and 1205.1234 keV",
        "cooled to 1203.4567 K",
        "1203.4567 μK and 1501.12345 GHz",
        "a 2012.12345 nm laser",
        "a period of 1107.1234 days, i.e. 1108.1234 years",
        "a peak at 1012.3456 cm-1 and 1203.4567 cm^-1",
        "v = 1203.4567 km/s",
    ],
)
def test_numbers_before_a_unit_stay_quantities(text: str) -> None:
    assert read(text) == text and arxiv_ids(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "m/z 1203.4567 Da glycan mass spectrometry",
        "mass 1203.4567 amu",
        "a parallax of 1203.4567 mas",
        "1203.4567 μas astrometry",
        "1203.4567 Angstrom",
        "1203.4567 a.u.",
        "1203.4567 MJD",
        "observed at MJD 1203.4567",
        "1203.4567 tokens per second",
        "price 1203.4567 USD",
        "costs $1203.4567",
        "the value 1203.4567 is small",
        "1203.4567 +/- 0.2",
        "1203.4567(3) MHz",
        "ratio 1203.4567:1",
        "a 1203.4567 million parameter model",
        "1203.4567 microns",
    ],
)
def test_a_number_in_a_measurement_is_no_arxiv_id(text: str) -> None:
    """reg40 F3: units the list lacked (Da, amu, mas, Angstrom, a.u., MJD, tokens), an
    uncertainty, a ratio, and the quantity named before the number had left it an arXiv id: read
    as no word, and validate had said to list it in `like`."""
    assert arxiv_ids(text) == []
    assert "1203.4567" in read(text)


@pytest.mark.parametrize(
    ("ident", "title"),
    [
        ("2504.12216", "d1: Scaling Reasoning in Diffusion Large Language Models"),
        ("2501.19393", "s1: Simple test-time scaling"),
        ("2503.12077", "V-Stylist: Video Stylization via Collaboration and Reflection"),
        ("2504.11128", "K-means Enhanced Density Gradient Analysis"),
        ("2504.12393", "N-body simulations of globular clusters"),
        ("2503.14718", "Second language Korean Universal Dependency treebank"),
        ("2502.01234", "Days of future past: a benchmark"),
        ("2501.04321", "GeV-scale dark matter at colliders"),
        ("2503.14040", "MAG: Multi-Modal Aligned Autoregressive Co-Speech Gesture Generation"),
        ("2503.18360", "J&H: Evaluating the Robustness of Large Language Models"),
        ("2506.02678", "TL;DR: Too Long, Do Re-weighting for Efficient LLM Reasoning"),
        ("2509.22322", "N+2 Mapmaking for Polarized CMB Experiments"),
    ],
)
@pytest.mark.parametrize(
    "form", ["{i} {t}", "I liked {i} {t}", "* {i} {t}", "Like {i} {t}, and more"]
)
def test_an_id_before_a_title_opening_with_a_unit_s_letters_is_an_id(
    ident: str, title: str, form: str
) -> None:
    """reg40 F2: the letters opening the title ("d1", "V-Stylist", "K-means", "Second") had been
    read as a unit, the id as a quantity: 259 of the 45k corpus's "id title" lines lost their id
    silently. A unit is a whole word, and spelled out in small letters."""
    text = form.format(i=ident, t=title)
    assert arxiv_ids(text) == [ident]
    assert ident not in read(text)


# reg42 F2: a quantity's name ending a title ("Temperature", "Time", "Pressure") or the "$"
# closing its math had made the id after it a measurement: 454 of the 45k corpus's "title id"
# lines lost their id silently. F3: a count's or a unit's word opening a title ("token", "point",
# "pixels", "Da Yu") had, for 43 "id title" lines.
TITLES_THEN_IDS = [
    (
        "2507.11100",
        "Quasi-Periodic Eruptions: Investigating Period Dispersion and Peak Temperature",
    ),
    (
        "2503.03363",
        "Signatures of Carrier Screening Effects on Electron-Phonon Coupling in MoS$_2$",
    ),
    ("2501.19393", "papers about time"),
    ("2501.19393", "on the cost"),
    ("2502.11111", "Thermal Conductivity at High Pressure"),
    ("2502.22222", "Dark Energy"),
]
IDS_THEN_TITLES = [
    ("2506.19288", "Da Yu: Towards USV-Based Image Captioning for Waterway Surveillance"),
    ("2504.01002", "token embeddings violate the manifold hypothesis"),
    ("2503.12595", "point cloud based scene segmentation: a survey"),
    ("2505.07817", "pixel motion as universal representation"),
    ("2507.19397", "photon catalysis for non-Gaussian states"),
    ("2510.16614", "count counts: motivating exploration"),
    ("2507.16572", "pixels to principles: probing intuitive physics"),
    ("2503.15888", "parameters vs. context: fine-grained control of knowledge reliance"),
    ("2503.14718", "second language korean universal dependency treebank"),
    ("2507.08799", "KV Cache Steering for Inducing Reasoning in Small Language Models"),
]


@pytest.mark.parametrize(("ident", "title"), TITLES_THEN_IDS)
@pytest.mark.parametrize("form", ["{t} {i}", "I liked the {t} {i} paper", "* {t} {i}"])
def test_an_id_after_a_title_ending_in_a_quantity_s_name_is_an_id(
    ident: str, title: str, form: str
) -> None:
    text = form.format(i=ident, t=title)
    assert arxiv_ids(text) == [ident]


@pytest.mark.parametrize(("ident", "title"), IDS_THEN_TITLES)
@pytest.mark.parametrize("form", ["{i} {t}", "I liked {i} {t}", "* {i} {t}"])
def test_an_id_before_a_title_opening_with_a_count_or_a_unit_is_an_id(
    ident: str, title: str, form: str
) -> None:
    assert arxiv_ids(form.format(i=ident, t=title)) == [ident]


@pytest.mark.parametrize(
    "text",
    [
        # reg42 F2: a value: "of", "is", "=" between, or a unit, "is", "=" after.
        "a temperature of 1203.4567",
        "the energy is 1203.4567",
        "time = 1203.4567",
        "peak temperature 1203.4567 K",
        "the cost 1203.4567 USD",
        "the value 1203.4567 is small",
        "costs $1203.4567",
        # reg42 F3: counts where their clause ends or a rate follows.
        "1203.4567 tokens",
        "1203.4567 pixels wide",
        "1203.4567 samples per class",
        # reg42 F5: engineering's units, and a lone capital ending a clause.
        *(f"1203.4567 {u}" for u in "dBm mmHg Mbps rpm mAh kWh psi atm Torr lux Oe Ω ohm".split()),
        *(f"1203.4567 {u}" for u in ["S/m", "µM", "μM", "bp", "T", "G", "C", "F", "A.", "M"]),
        "1203.4567 epochs; 3 runs",
    ],
)
def test_a_value_or_a_count_is_no_arxiv_id(text: str) -> None:
    assert arxiv_ids(text) == []
    assert "1203.4567" in read(text)


@pytest.mark.parametrize("title", ["T cells", "C programs", "A survey", "M dwarfs", "G protein"])
def test_a_lone_capital_opening_a_title_is_no_unit(title: str) -> None:
    assert arxiv_ids(f"2506.20115 {title}") == ["2506.20115"]


# reg43 F4: a currency sign and a space before a number had made an id of a price; a "$" closing
# a title's math before an id stays no currency.
@pytest.mark.parametrize(
    "text", ["costs $ 1203.4567", "price: $ 1203.4567", "€ 1203.4567", "£ 1203.4567 per year"]
)
def test_a_price_written_with_a_space_is_no_arxiv_id(text: str) -> None:
    assert arxiv_ids(text) == []


@pytest.mark.parametrize(
    "title", ["The information content of $\\langle M_\\mathrm{ap}^4 \\rangle $", "in $x$ and $ y$"]
)
def test_an_id_after_math_closed_by_a_spaced_dollar_is_an_id(title: str) -> None:
    assert arxiv_ids(f"{title} 2509.07973") == ["2509.07973"]


# reg43 F5: a unit's word opening a lower-cased title with its subtitle after ("lux post facto:
# …"), and a stray capital or count word after an id of today's five-digit scheme, had lost it.
@pytest.mark.parametrize(
    "text",
    [
        "2503.14485 lux post facto: learning portrait performance relighting",
        "2504.01040 cal or no cal? -- real-time miscalibration detection",
        "2505.12043 mol for llms: dual-loss optimization",
        "2509.13278 bar evolution in edge-on galaxies: a demographic study",
        "2501.19393 A",
        "see 2501.19393 A.",
        "2501.19393 T",
        "2501.19393 steps",
        "2501.19393 events",
        "2501.19393 epochs; 2502.00001",
    ],
)
def test_a_stray_word_after_an_id_leaves_it_an_id(text: str) -> None:
    ident = next(w for w in text.split() if w[:4].isdigit())
    assert arxiv_ids(text)[0] == ident


@pytest.mark.parametrize(
    "text",
    [
        "1203.4567 lux",
        "1203.4567 cal per gram",
        "2501.19393 lux",
        "2501.19393 samples per class",
        "2501.19393 S/m",
        "1203.4567 A",
        "1203.4567 steps",
    ],
)
def test_a_unit_or_a_rate_after_a_five_digit_number_keeps_it_a_quantity(text: str) -> None:
    assert arxiv_ids(text) == []

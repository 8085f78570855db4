"""Two records of one title are two papers when they say so: two groups' author lists, or two
posts of one feed; never on less (one author, an organisation, items of two feeds)."""

from __future__ import annotations

import dataclasses

import pytest

from digest.models import Paper, identity
from digest.models.evidence import dedupe, one_paper, own_id, two_papers, vouched
from digest.models.placeholders import placeholder

TITLE = "Machine learning for quantum materials"


def paper(*authors: str, text: str = "We study it.") -> Paper:
    return Paper("t:1", TITLE, text, authors=authors)


def titled(title: str, *authors: str) -> Paper:
    """A record of a long text (its key's match) under this title and these authors."""
    return Paper("t:1", title, "A long text.", authors=authors)


def test_two_author_lists_without_a_shared_name_are_two_papers() -> None:
    ours, theirs = paper("Alice Arxivson", "Bo Chen"), paper("Zoe Journalova", "Kenji Sato")
    assert two_papers(ours, (), theirs, ())
    assert not two_papers(ours, (), paper("B. Chen", "A. Arxivson"), ())  # initials: one name
    assert not two_papers(ours, (), paper("Müller, Jörg", "Chen, Bo"), ())
    assert not two_papers(ours, (), paper("Nature Physics"), ())  # a journal as its author
    assert not two_papers(ours, (), paper(), ())


def test_two_items_of_one_feed_with_their_own_ids_and_texts_are_two_papers() -> None:
    first, second = paper(text="Week 1: kagome."), paper(text="Week 2: moiré.")
    mine = ("guid:https://blog.example.org/?p=100001",)
    two = ("guid:https://blog.example.org/?p=100002",)
    assert two_papers(first, mine, second, two)
    assert not two_papers(first, mine, paper(text="week 1:  Kagome"), two)  # one text: one post
    assert not two_papers(first, mine, second, mine)  # one item, seen again
    assert not two_papers(first, mine, second, ("guid:https://mirror.example.net/i/99999",))
    assert not two_papers(first, mine, paper(text=""), two)  # no text: nothing to tell by
    opaque = ("guid:blog:a1b2c3d4e5f60718",), ("guid:blog:ffeeddccbbaa9988",)
    assert two_papers(first, opaque[0], second, opaque[1])
    assert not two_papers(first, opaque[0], second, ("guid:other:ffeeddccbbaa9988",))


def test_the_second_paper_of_a_title_is_known_by_its_item_id_else_by_title_and_text() -> None:
    assert own_id(paper(), ("t:x", "guid:https://b.example/?p=100002")) == (
        "guid:https://b.example/?p=100002"
    )
    made = own_id(paper(text="Week 2."), ("t:x",))
    assert made.startswith("t:") and made == own_id(paper(text="week 2"), ())
    assert made != own_id(paper(text="Week 3."), ())


def test_names_are_compared_without_their_accents_and_only_in_one_script() -> None:
    """Split at its accent, "Müller" had been "mu" and "ller": a preprint and its journal
    version, written "J. Muller", were two papers, the journal's sent again."""
    accented = paper("Jörg Müller", "Björn Schäfer")
    assert not two_papers(accented, (), paper("J. Muller", "B. Schafer"), ())
    assert not two_papers(paper("王小明", "李华"), (), paper("Xiaoming Wang", "Hua Li"), ())
    assert two_papers(accented, (), paper("Zoë Journalová", "Kenji Satō"), ())


def test_one_article_in_two_feeds_of_a_site_is_one_paper() -> None:
    """Its ids differ by a tracking query alone, and one feed cuts its text."""
    whole = paper(text="We predict molecular properties with graph networks, at scale.")
    cut = paper(text="We predict molecular properties with graph networks…")
    latest = ("guid:https://journal.example.org/article/123456?rss=latest",)
    section = ("guid:https://journal.example.org/article/123456?rss=chemistry&utm_source=x",)
    assert not two_papers(whole, latest, cut, section)
    assert not two_papers(whole, latest, paper(text="Another text entirely."), section)
    posts = (
        ("guid:https://blog.example.org/?p=100001",),
        ("guid:https://blog.example.org/?p=100002",),
    )
    assert two_papers(paper(text="Week 1."), posts[0], paper(text="Week 2."), posts[1])


def test_dedupe_keeps_a_feeds_posts_of_one_title_apart_as_the_catalogue_does() -> None:
    """A preview had said "nothing new" for the weekly post the run then sent."""
    from digest.models.evidence import dedupe
    from digest.models.identity import title_hash

    weekly = "This week in quantum materials"
    posts = [
        Paper(
            title_hash(weekly) or "",
            weekly,
            f"Week {n}: spin liquids.",
            aliases=(f"guid:https://blog.example.org/?p=10000{n}",),
        )  # fmt: skip
        for n in (1, 2, 3)
    ]
    kept = dedupe([*posts, posts[1]])
    assert len(kept) == 3 and len({p.id for p in kept}) == 3
    assert [p.abstract for p in kept] == [p.abstract for p in posts]


def test_dedupe_finds_the_second_groups_paper_by_its_names_as_the_catalogue_does() -> None:
    from digest.models.evidence import dedupe

    theirs = Paper("10.5555/a.1", TITLE, "Crystals.", authors=("Zoe Journalova", "Kenji Sato"))
    ours = Paper("2601.09999", TITLE, "Transformers.", authors=("Alice Arxivson", "Bo Chen"))
    journal = Paper("10.5555/b.2", TITLE, "Revised.", authors=("B. Chen", "A. Arxivson"))
    kept = dedupe([theirs, ours, journal])
    assert [p.id for p in kept] == [theirs.id, ours.id]
    assert kept[1].aliases == ("10.5555/b.2",)


def test_name_keys_are_the_titles_with_each_name_word() -> None:
    from digest.models.evidence import name_keys

    # "Søren" as ASCII writes it, and as the keys of the papers stored before were made
    assert len(name_keys(paper("Bo Chen", "Søren Berg"))) == 5
    assert set(name_keys(paper("Soren Berg", "Bo Chen"))) < set(
        name_keys(paper("Bo Chen", "Søren Berg"))
    )
    assert set(name_keys(paper("B. Chen"))) < set(name_keys(paper("Bo Chen")))
    assert name_keys(Paper("t:1", "Short title", "x", authors=("Bo Chen",))) == []


def test_latin_names_with_letters_of_their_own_are_one_script() -> None:
    """ø, ł, ß had counted as another script: two groups' papers of one title merged again."""
    danes = paper("Søren Kierkegaard", "Łukasz Strauß")
    assert two_papers(danes, (), paper("Zoe Journalova", "Kenji Sato"), ())
    assert not two_papers(danes, (), paper("S. Kierkegaard", "L. Strauss"), ())


def test_two_records_of_one_long_text_are_a_copy_when_their_titles_agree() -> None:
    """A journal's title grown or cut at its end, under the whole abstract, is the paper; a
    journal's blurb under other titles, two groups' or two items of one feed, is not."""
    from digest.models.evidence import copies

    base = titled("Graph neural networks predict molecular properties")
    for grown in ("Graph neural networks predict molecular properties with chemical accuracy",
                  "Can graph neural networks predict molecular properties? A benchmark",
                  "Graph neural networks predict molecular properties — a benchmark"):  # fmt: skip
        assert copies(base, (), titled(grown), ()), grown
    heart = titled("The role of the gut microbiome in Parkinson's disease")
    assert not copies(heart, (), titled("The role of the hippocampus in spatial memory"), ())
    atlas = titled("A single-cell atlas of the developing human heart")
    assert not copies(atlas, (), titled("A single-cell atlas of the adult mouse kidney"), ())
    mpro = "Structure of the SARS-CoV-2 main protease (Mpro)"
    one = titled(f"{mpro} bound to nirmatrelvir", "Ana Ortiz", "Bo Chen")
    two = titled(f"{mpro} in complex with ensitrelvir", "Zoe Journalova", "Kenji Sato")
    assert not copies(one, (), two, ())  # two groups
    items = ("guid:https://nature.example/articles/s41467-026-01234-x",)
    other = ("guid:https://nature.example/articles/s41467-026-05678-x",)
    assert not copies(titled(one.title), items, titled(two.title), other)  # two items of a feed
    assert copies(titled(one.title), items, titled(one.title + " (extended abstract)"), ())


def test_names_with_latin_letters_of_their_own_are_the_names_written_in_ascii() -> None:
    """A preprint's "Paweł Głowacki, Michał Kałuża" and its journal version's "Pawel Glowacki,
    Michal Kaluza" had been two groups': the journal's, under the same title, sent again."""
    for written, ascii_ in (
        (("Paweł Głowacki", "Michał Kałuża"), ("Pawel Glowacki", "Michal Kaluza")),
        (("Bjørn Høyer", "Søren Løkke"), ("Bjorn Hoyer", "Soren Lokke")),
        (("Aslı Kılıç", "Fırat Yıldırım"), ("Asli Kilic", "Firat Yildirim")),
        (("Jürgen Weiß", "Günther Strauß"), ("Juergen Weiss", "Guenther Strauss")),
        (("Jürgen Müller", "Günther Bäcker"), ("J. Mueller", "G. Baecker")),
        (("Đặng Đức", "Đỗ Đạt"), ("Dang Duc", "Do Dat")),
        (("Þórður Guðmundsson", "Sigríður Þórðardóttir"), ("Thordur Gudmundsson", "Sigridur")),
        (("Ægir Ærnason", "Œdipe Cœur"), ("Aegir Aernason", "Oedipe Coeur")),
        (("ŁUKASZ WAŁĘSA", "ØRJAN HØY"), ("Lukasz Walesa", "Orjan Hoy")),
        (("Kaʻiulani Akana", "Kekoa Kaʻuhane"), ("Kaiulani Akana", "Kekoa Kauhane")),
        (("Seán O’Brien", "Niamh D'Arcy"), ("Sean O'Brien", "Niamh D’Arcy")),
    ):  # fmt: skip
        assert not two_papers(paper(*written), (), paper(*ascii_), ()), written
        assert two_papers(paper(*written), (), paper("Zoe Journalova", "Kenji Sato"), ()), written


def test_an_okina_in_a_name_makes_no_other_script() -> None:
    """ "Kaʻiulani" had been a name in another script, which says nothing: two groups' papers of
    one title merged."""
    hawaii = paper("Kaʻiulani Akana", "Ana Lopez")
    assert two_papers(hawaii, (), paper("Kenji Sato", "Bo Chen"), ())
    assert not two_papers(hawaii, (), paper("王小明", "李华"), ())  # two scripts: nothing said


def test_dedupe_reads_names_as_ascii_writes_them_as_the_catalogue_does() -> None:
    """A preview had said what the run then did: the journal version of Paweł's paper sent
    again."""
    from digest.models.evidence import dedupe

    polish = Paper("2601.01234", TITLE, "Graphs.", authors=("Paweł Głowacki", "Michał Kałuża"))
    journal = Paper("10.1038/x.1", TITLE, "Short.", authors=("Pawel Glowacki", "Michal Kaluza"))
    assert [p.id for p in dedupe([polish, journal])] == [polish.id]


def test_the_same_peoples_copy_may_have_one_title_word_another() -> None:
    """A copy editor's "galaxies" for "galaxy", "in" for "on", "α" for "alpha": the journal
    version of one group's paper, its whole abstract the same, had been sent again. A plural is
    the word; without a name in common one other word is another paper."""
    from digest.models.evidence import copies

    ours, initials = ("Ana Lopez", "Wei Zhang"), ("A. Lopez", "W. Zhang")
    start = "Deep learning for the star formation"
    for first, second in (
        (f"{start} of a dwarf galaxy", f"{start} of dwarf galaxies"),
        (f"{start} on small scales", f"{start} in small scales"),
        (f"{start} of alpha elements", f"{start} of α elements"),
        (f"{start} in mice", f"{start} in the mouse"),
        ("Molecular property predictions at scale", "Predicting molecular properties at scale"),
    ):
        assert copies(titled(first, *ours), (), titled(second, *initials), ()), second
    assert copies(titled(f"{start} of maps"), (), titled(f"{start} of a map"), ())  # plural
    for first, second in (  # the same words, whoever wrote them
        (f"{start} in mice", f"{start} in the mouse"),
        (f"Spectral analysis of {start}", f"Spectral analyses of {start}"),
        (f"{start} along the axis", f"{start} along the axes"),
        (f"{start} in 2D", f"{start} in two-dimensional"),
    ):
        assert copies(titled(first), (), titled(second), ()), second
    assert not copies(titled(f"{start} in rats"), (), titled(f"{start} in the mouse"), ())
    two_changes = (f"{start} in young mice", f"{start} in old rats")
    assert not copies(titled(two_changes[0], *ours), (), titled(two_changes[1], *initials), ())


def test_one_groups_two_papers_of_one_blurb_stay_two_papers() -> None:
    """A feed that gives every item the journal's blurb: two papers of one group whose titles
    differ in one word had been one (the second never sent), once one name was on both."""
    from digest.models.evidence import copies

    gut = "The role of the gut microbiome"
    for first, second in (
        (f"{gut} in Parkinson's disease", f"{gut} in Alzheimer's disease"),
        (f"{gut}, Part I", f"{gut}, Part II"),
        (f"{gut} in type I diabetes", f"{gut} in type II diabetes"),
        (f"{gut} in type 1 diabetes", f"{gut} in type 2 diabetes"),
        (f"{gut} in HIV-1 infection", f"{gut} in HIV-2 infection"),
        (f"{gut} of stable patients", f"{gut} of unstable patients"),
        (f"{gut} with antibiotics", f"{gut} without antibiotics"),
        (f"{gut}: a review of 2023", f"{gut}: a review of 2024"),
        ("Deep learning for protein folding", "Deep learning for protein design"),
        ("Deep learning for galaxies", "Deep learning for clusters"),
    ):
        one = titled(first, "Ana Lopez", "Wei Zhang")
        assert not copies(one, (), titled(second, "Ana Lopez", "Kofi Mensah"), ()), second
        assert not copies(one, (), titled(second, "Ana Lopez", "Wei Zhang"), ()), second


def test_a_copy_only_adds_or_drops_words_of_the_other_title() -> None:
    """One feed's blurb as both texts: "… in Parkinson's disease" and "… in Alzheimer's disease"
    share 3 of their 4 long words, and had been one paper, the second never sent."""
    from digest.models.evidence import copies

    def one(first: str, second: str) -> bool:
        return copies(titled(first), (), titled(second), ())

    gut = "The role of the gut microbiome in"
    assert not one(f"{gut} Parkinson's disease", f"{gut} Alzheimer's disease")
    two_groups_of_words = (
        ("Graph neural networks for molecular property prediction",
         "Graph neural networks for molecular property optimization"),
        ("Single-cell atlas of the human heart: development",
         "Single-cell atlas of the human heart: disease"),
        ("This week in quantum materials (March 3)", "This week in quantum materials (March 10)"),
        ("This week in quantum materials: topological magnons",
         "This week in quantum materials: topological phonons"),
        ("Learning with noisy labels", "Learning without noisy labels"),
        ("Adsorption of CO2 on metal organic frameworks",
         "Absorption of CO2 on metal organic frameworks"),  # one letter for another: a word
    )  # fmt: skip
    for first, second in two_groups_of_words:
        assert not one(first, second), second
    an_ai = "An AI for all of us"  # no word of 4+ letters: all of them count
    assert one(an_ai, f"{an_ai} (extended abstract)")
    assert not one(an_ai, "An AI for all of them")
    assert one(f"{gut} Parkinson's disease", "Role of gut microbiome in Parkinson disease")
    copies_of_words = (
        ("Deep nets on the go", "Deep nets on the go: fast inference for edge devices"),
        ("Pre-training graph networks at scale", "Pretraining graph networks at scale"),
        ("Graph-neural networks predict molecules", "Graph neural networks predict molecules"),
        ("Learing to rank papers", "Learning to rank papers"),  # a typo fixed
        ("Modelling colour in the visual centre", "Modeling color in the visual center"),
        ("Optimisation of tumour growth models", "Optimization of tumor growth models"),
        ("Schrödinger bridges for sampling", "Schrodinger bridges for sampling [Student Abstract]"),
        ("Graph networks for molecules: a benchmark", "Graph networks for molecules: full version"),
    )  # fmt: skip
    for first, second in copies_of_words:
        assert one(first, second), second


def test_dedupe_keeps_one_blurbs_papers_apart_as_the_catalogue_does() -> None:
    from digest.models.evidence import dedupe
    from digest.models.identity import title_hash

    blurb = " ".join(
        ["Nature Communications is an open access journal that publishes research"] * 5
    )
    gut = "The role of the gut microbiome in"
    titles = (f"{gut} Parkinson's disease", f"{gut} Alzheimer's disease")
    assert len(dedupe([Paper(title_hash(t) or "", t, blurb) for t in titles])) == 2


LONG = (
    "We study the problem in detail and present a comprehensive analysis of the phenomenon under"
    " a variety of conditions, using numerical simulations and analytic arguments; our results"
    " show that the effect is robust, scales with system size, and persists in the presence of"
    " disorder, noise and finite temperature, which we confirm with extensive experiments."
)


def test_dedupe_keeps_a_notice_or_another_part_under_one_text_apart() -> None:
    """One 40-word text under two titles (texts.text_keys' key of the text alone): a notice of
    a paper whose title opens with "Correction", IEEE's "Comments on “…”" with no authors, a
    paper's "Part II", "from German to English" had been one record with the paper: one never
    sent. The same people's journal copy with its title reworded is still one."""
    from digest.models.evidence import dedupe
    from digest.models.identity import paper_id

    ours = ("Ana Lopez", "Wei Chen")
    mri = "Correction of motion artifacts in brain MRI with deep learning"
    mimo = "Deep networks for channel estimation in massive MIMO"
    for first, firsts, second, seconds in (
        (mri, ours, f"Correction to: {mri}", ()),
        (f"Comments on “{mimo}”", (), mimo, ours),
        (f"Discussion of “{mimo}”", ("Kofi Mensah",), mimo, ours),
        (mimo, ours, f"{mimo}: Part II", ours),
        ("Transfer learning from English to German", ours,
         "Transfer learning from German to English", ours),
    ):  # fmt: skip
        records = [
            Paper(paper_id(title=t) or "", t, LONG, authors=a)
            for t, a in ((first, firsts), (second, seconds))
        ]
        assert len(dedupe(records)) == 2, second
    copy = [
        Paper(paper_id(title=t) or "", t, LONG, authors=ours)
        for t in (
            "Deep learning for weather forecasting",
            "Deep-learning-based weather forecasting",
        )
    ]
    assert len(dedupe(copy)) == 1


def test_one_author_on_each_side_is_enough_where_asked() -> None:
    """A library's records: one author and two others, no name shared, are two papers; by
    default (a feed's records) two names on each side are wanted."""
    from digest.models.evidence import LIBRARY_AUTHORS, dedupe

    tong = Paper("t:1", TITLE, "", authors=("David Tong",))
    others = Paper("t:1", TITLE, "", authors=("Mark Srednicki", "Steven Weinberg"))
    assert not two_papers(tong, (), others, ())
    assert two_papers(tong, (), others, (), LIBRARY_AUTHORS)
    kept = dedupe([tong, others], LIBRARY_AUTHORS)
    assert [p.authors for p in kept] == [tong.authors, others.authors]
    bare = Paper("t:1", TITLE, "")
    same = Paper("t:1", TITLE, "", authors=("D. Tong",))
    assert len(dedupe([tong, bare, same], LIBRARY_AUTHORS)) == 1


def test_dedupe_merges_a_copy_edit_and_keeps_a_notice_or_an_acronyms_guess_apart() -> None:
    """reg23: PNAS's "Retraction for Lopez et al., …" was one record with its paper; "X-ray"
    added read as a part's "X", "Image classification" for "Classification of images" and a
    name before the colon ("ReplaceMe: …") read as a notice made a journal's copy another paper,
    sent again; "GANs for …" was "Graph attention networks for …" under a journal's blurb."""
    from digest.models.evidence import dedupe
    from digest.models.identity import paper_id

    ours = ("Ana Lopez", "Wei Chen")
    mimo = "Deep networks for channel estimation in massive MIMO"
    paper = Paper("arxiv:2501.01234", mimo, LONG, authors=ours)
    for form in ("Retraction for Lopez et al., {}", "Correction to Lopez et al. (2025): {}"):
        notice = Paper("doi:10.1073/pnas.2600001123", form.format(mimo), LONG)
        assert len(dedupe([notice, paper])) == len(dedupe([paper, notice])) == 2, form
    for one, other in (
        ("Deep learning for chest radiographs", "Deep learning for chest X-ray radiographs"),
        ("Learning to rank", "Learning to rank with v-statistics"),
        ("Classification of images with vision transformers",
         "Image classification with vision transformers"),
        ("ReplaceMe: Network Simplification via Layer Pruning and Linear Transformations",
         "Network simplification via layer pruning and linear transformations"),
    ):  # fmt: skip
        records = [Paper(paper_id(title=t) or "", t, LONG, authors=ours) for t in (one, other)]
        assert len(dedupe(records)) == 1, other
    blurb = " ".join(
        ["Nature Communications is an open access journal that publishes research"] * 5
    )
    for one, other in (
        ("Graph attention networks for molecular property prediction",
         "GANs for molecular property prediction"),
        ("Residual neural networks for weather forecasting", "RNNs for weather forecasting"),
    ):  # fmt: skip
        records = [Paper(paper_id(title=t) or "", t, blurb, authors=ours) for t in (one, other)]
        assert len(dedupe(records)) == 2, other


PLACEHOLDERS = [
    "Abstract not available yet.",
    "No abstract is available for this article.",  # Wiley's
    "No abstract available",
    "[No abstract available]",
    "An abstract is not available for this content so a preview has been provided. Please use"
    " the Get access link above for information on how to access this content.",  # Cambridge's
    "Abstract: N/A",
    "Summary unavailable.",
    "暂无摘要",
    "TBA",
]


@pytest.mark.parametrize("stock", PLACEHOLDERS)
def test_a_re_keyed_items_placeholder_tells_nothing_apart_as_no_text_does(stock: str) -> None:
    """A feed that re-keys its items gave the abstract the next day under a new id: the
    placeholder had been read as a text that differs, two papers, sent twice."""
    first, second = paper(text=stock), paper(text="We report room temperature cables.")
    opaque = ("guid:jcpl:b8f3c2d1e0b94f7a2222",), ("guid:jcpl:d8f3c2d1e0b94f7a4444",)
    assert not two_papers(first, opaque[0], second, opaque[1])
    assert not two_papers(second, opaque[1], first, opaque[0])
    assert placeholder(stock)


def test_a_short_text_that_only_names_a_summary_is_no_placeholder() -> None:
    for text in (
        "In summary, we show that not only cables but also grids superconduct.",
        "This week in quantum materials: three papers on kagome metals.",
        "We give no bound; the abstract machine is new.",
    ):
        assert not placeholder(text), text
    first, second = paper(text="Week 1: no new kagome."), paper(text="Week 2: moiré.")
    opaque = ("guid:blog:a1b2c3d4e5f60718",), ("guid:blog:ffeeddccbbaa9988",)
    assert two_papers(first, opaque[0], second, opaque[1])  # a weekly post's issues stay two


SHORT_TEXTS = [  # feeds25 F2: "summary"/"abstract" and "no"/"not" as words of a text
    "In summary, no new topological insulators this week, but three papers on proteins in cells.",
    "In summary, no significant differences were found between groups.",
    "We find no abstract reasoning ability in current LLMs.",
    "Summary: not all cells respond equally to hypoxia.",
    "This summary is not a systematic review.",
    "Zusammenfassung: Keine Hinweise auf Resistenz wurden gefunden.",
    "Abstract: Not all heroes wear capes: a study of superhero costumes.",
    'LLMs are not "abstract reasoners" yet.',
    "Résumé : nous ne trouvons pas de lien entre X et Y.",
    "摘要：本文提出了一种新方法，无需标注数据。",
]


@pytest.mark.parametrize("text", SHORT_TEXTS)
def test_a_short_text_beside_a_stock_word_is_a_text(text: str) -> None:
    """A short text with words of its own is no placeholder, however it uses "summary" and
    "no": a blog's week-2 post under week 1's title had been folded into week 1, never sent."""
    assert not placeholder(text)
    first, second = paper(text="A new topological insulator is grown."), paper(text=text)
    weeks = ("guid:https://qm.example.org/?p=100001",), ("guid:https://qm.example.org/?p=100002",)
    assert two_papers(first, weeks[0], second, weeks[1])


@pytest.mark.parametrize(
    "stock",
    [
        "No abstract available for this conference paper.",
        "Abstract not available. Please see the full text PDF.",
        "Résumé non disponible.",
        "Keine Zusammenfassung verfügbar.",
        "Abstract: not yet available (2025)",
        # feeds26 F2: publishers' phrases the first word list had missed
        "An abstract is not available for this content so a preview has been provided. As you"
        " have access to this content, a full PDF is available via the 'Save PDF' action button.",
        "This article does not have an abstract.",
        "Abstract withheld at author's request.",
        "No abstract available. First page PDF preview below.",
    ],
)
def test_a_stock_phrase_with_words_of_the_item_or_its_access_is_a_placeholder(stock: str) -> None:
    assert placeholder(stock)


@pytest.mark.parametrize(
    ("stored", "read"),
    [
        ("Abstract Methods We image proteins in cells with quantum sensors. Results Genes of"
         " patients change the signal.",
         "Methods: We image proteins in cells with quantum sensors. Results: Genes of patients"
         " change the signal."),
        ("Summary Cells grow on grids1,2 and mice live longer3.",
         "Cells grow on grids 1,2 and mice live longer 3."),
        ("Graphical abstract Abstract We test • cells • mice • rats in three arms.",
         "We test cells; mice; rats in three arms."),
    ],
)  # fmt: skip
def test_a_re_keyed_items_text_read_anew_tells_nothing_apart(stored: str, read: str) -> None:
    """feeds25 F5: a re-keyed item's text stored before the markup reading changed ("Abstract
    Methods We ...", read now "Methods: We ...") had been another item's, mailed again after the
    upgrade. A heading word, marks and a number set apart tell nothing apart; words do."""
    opaque = ("guid:rss:cpl:b8f3c2d1e0b94f7a5555",), ("guid:rss:cpl:d8f3c2d1e0b94f7a6666",)
    first, second = paper(text=stored), paper(text=read)
    assert not two_papers(first, opaque[0], second, opaque[1])
    assert not two_papers(second, opaque[1], first, opaque[0])
    other = paper(text=read.replace("quantum sensors", "light").replace("mice", "fish"))
    assert two_papers(first, opaque[0], other, opaque[1])
    assert two_papers(paper(text="Week 41 of the digest."), opaque[0],
                      paper(text="Week 42 of the digest."), opaque[1])  # fmt: skip


SAT = "Sparse Attention Transformers for Protein Structure Prediction"
PEOPLE = ("Ada Lovelace", "Alan Turing", "Grace Hopper")
SAT_TEXT = "We introduce a sparse attention transformer that predicts protein structure."


def forum(ident: str, venue: str, **changes: object) -> Paper:
    record = Paper(f"openreview:{ident}", SAT, SAT_TEXT, authors=PEOPLE, venue=venue)
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def test_a_workshops_forum_and_the_conferences_of_one_work_are_one_paper() -> None:
    """One title, one author list, one text under two venues' forums had been two papers (two
    forums always differed), sent twice; two notes of one venue stay two."""
    work, conf = forum("WkShOp4321", "ICLR 2026 Workshop GEM"), forum("AbCdEf", "ICLR 2026 Poster")
    key = identity.title_hash(SAT) or ""
    mine, theirs = identity.keys(work), identity.keys(conf)
    assert not identity.same_paper(key, mine, theirs)
    assert one_paper(key, work, mine, conf, theirs)
    assert one_paper(key, work, mine, forum("AbCdEf", "ICLR 2026", title=SAT.upper()), theirs)
    for other in (
        forum("AbCdEf", "ICLR 2026 Workshop GEM"),  # one venue's two notes
        forum("AbCdEf", "ICLR 2026 Poster", authors=("Li Wei", "Zhang Min")),
        forum("AbCdEf", "ICLR 2026 Poster", authors=PEOPLE[:2]),
        forum("AbCdEf", "ICLR 2026 Poster", abstract="We prove bounds on attention."),
        forum("AbCdEf", "ICLR 2026 Poster", title=f"SAT: {SAT}"),
        forum("AbCdEf", "", abstract=SAT_TEXT),  # no venue: nothing says two venues
    ):
        assert not one_paper(key, work, mine, other, identity.keys(other)), other
    stock = forum("AbCdEf", "ICLR 2026 Poster", abstract="No abstract available")
    assert not one_paper(key, forum("W", "GEM", abstract="N/A"), mine, stock, identity.keys(stock))
    preprint = identity.keys(Paper("2512.04444", SAT, "x"))
    other_preprint = identity.keys(Paper("2512.09999", SAT, "x"))
    assert not one_paper(key, work, preprint, conf, other_preprint)  # arXiv ids still differ


def test_dedupe_keeps_a_workshops_and_the_conferences_forum_as_one_paper() -> None:
    work, conf = forum("WkShOp4321", "ICLR 2026 Workshop GEM"), forum("AbCdEf", "ICLR 2026 Poster")
    (one,) = dedupe([work, conf])
    assert one.id == "openreview:WkShOp4321" and "openreview:AbCdEf" in one.aliases
    assert len(dedupe([work, forum("AbCdEf", "ICLR 2026 Workshop GEM")])) == 2


def test_a_title_vouched_for_by_a_name_or_the_text_alone() -> None:
    one = forum("A", "x")
    assert vouched(one, forum("B", "y", abstract="Other words."))  # the people
    assert vouched(one, forum("B", "y", authors=()))  # the text
    assert not vouched(one, forum("B", "y", authors=("Li Wei",), abstract="Other words."))
    assert not vouched(forum("A", "x", abstract="N/A"), forum("B", "y", authors=(), abstract=""))

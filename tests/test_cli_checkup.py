"""`digest validate`'s checks of what a reader's interests text says to the ranking: arXiv ids
(which `like` takes) and a text in another language than the papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from digest.cli import main
from digest.cli.checkup import unread, wordless
from digest.models import Profile, Subscriber

# rank22's readers: their texts validated OK and scored 0 on every paper, for ever.
SPANISH = (
    "Aprendizaje automático para la detección de exoplanetas y la clasificación morfológica de"
    " galaxias con imágenes de telescopios; redes neuronales aplicadas a la astrofísica."
)
PORTUGUESE = (
    "Modelos de linguagem para o português e tradução automática; reconhecimento de fala em"
    " línguas com poucos recursos."
)
GERMAN = "Maschinelles Lernen für die Erkennung von Exoplaneten und Galaxien in Teleskopbildern"
ENGLISH = [
    "Portfolio optimization, stochastic volatility and high-frequency trading in order books",
    "Superconducting qubits: transmon coherence, two-qubit gates and readout",
    "Heterotic string compactifications, the swampland and de Sitter vacua",
    "Hodge theory, motives and L-functions of varieties over number fields",
    "Text-to-image diffusion, chain-of-thought prompting and RNA-seq",
]


def validate(capsys: pytest.CaptureFixture[str], body: str) -> tuple[int, str, str]:
    Path("digest.toml").write_text(body)
    code = main(["validate", "--config", "digest.toml"])
    out, err = capsys.readouterr()
    return code, out, err


def reader(interests: str, **others: object) -> str:
    lines = [f"{key} = {value!r}".replace("'", '"') for key, value in others.items()]
    return "\n".join(["[[subscribers]]", 'name = "ana"', f"interests = {interests!r}", *lines])


@pytest.mark.parametrize("text", [SPANISH, PORTUGUESE, GERMAN])
def test_a_text_none_of_whose_words_the_papers_know_is_refused(capsys, text: str) -> None:
    code, _, err = validate(capsys, reader(text, keywords=["exoplanetas"]))
    assert code == 2
    (line,) = err.splitlines()
    assert "digest.toml: subscribers.ana.interests: none of its words (" in line
    assert "another language than the papers" in line


@pytest.mark.parametrize(
    ("text", "others"),
    [
        # Some of its words are known: it matches something, little.
        ("Modelos de linguagem (LLMs) e transformers para tradução automática de línguas", {}),
        # None known, but the profile has a part the papers match: a warning.
        (SPANISH, {"keywords": ["exoplanets"]}),
        (SPANISH, {"like": ["2506.20115"]}),
    ],
)
def test_a_text_few_of_whose_words_the_papers_know_is_a_warning(
    capsys, text: str, others: dict[str, object]
) -> None:
    code, out, err = validate(capsys, reader(text, **others))
    assert code == 0 and "OK" in out
    (line,) = err.splitlines()
    assert line.startswith("digest: WARNING: digest.toml: subscribers.ana.interests: ")
    assert "another language than the papers" in line


@pytest.mark.parametrize("text", ENGLISH)
def test_an_english_text_of_rare_terms_is_no_other_language(capsys, text: str) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and not err
    assert not unread(Subscriber("ana", Profile(interests=text), ()))


def test_a_few_words_are_not_judged() -> None:
    # A short list of rare terms is no language: a reader of "transmon" is not refused.
    for text in ("galaxias", "transmon qubits", "exoplanetas y galaxias"):
        sub = Subscriber("ana", Profile(interests=text), ())
        assert not unread(sub) and not wordless(sub)


def test_arxiv_ids_alone_are_refused_with_like_named(capsys) -> None:
    """rank22 F1: "arXiv:2506.20115, ..." had validated OK and made "arxiv" the profile."""
    code, _, err = validate(capsys, reader("arXiv:2506.20115, arXiv:2509.22540v2, hep-th/9711200"))
    assert code == 2
    (line,) = err.splitlines()
    assert "subscribers.ana.interests: holds no word the ranking can match" in line
    assert "arXiv ids are not read" in line
    assert line.endswith('list them as like = ["2506.20115", "2509.22540", "hep-th/9711200"]')


def test_arxiv_ids_beside_words_are_a_warning_naming_like(capsys) -> None:
    text = "Holography and AdS/CFT, as in https://arxiv.org/abs/2506.20115 and arXiv:2509.22540"
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out
    (line,) = err.splitlines()
    assert line == (
        "digest: WARNING: digest.toml: subscribers.ana.interests: its arXiv ids are not read as"
        ' words; to follow papers you like, list them as like = ["2506.20115", "2509.22540"]'
    )


def test_words_and_a_pasted_entry_s_eprint_say_nothing(capsys) -> None:
    text = "@article{k, title = {Holography and black holes}, eprint = {2506.20115}}"
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and not err


@pytest.mark.parametrize(
    "text",
    [
        "Hinton LeCun Bengio Schmidhuber Sutskever",
        "Yann LeCun, Yoshua Bengio, Geoffrey Hinton, Juergen Schmidhuber",
        "LiFePO4 NMC811 LLZO Li6PS5Cl",
        "Fe3O4 nanoparticles ZIF-8 MOFs CO2RR HER OER",
        "C2H4 epoxidation on Ag(111), Cu2O, TiO2 photocatalysis",
        "perverse sheaves, D-modules, Hodge modules, Riemann-Hilbert",
        "BRCA1 TP53 KRAS EGFR PD-L1",
        "tachycardia arrhythmia ECG Holter",
        "papers by Kaiming He, Ross Girshick, Piotr Dollar",
    ],
)
def test_a_terse_list_of_names_or_formulas_is_no_other_language(capsys, text: str) -> None:
    """reg36 F4: a list has no English stop word by nature, and names and formulas are not in the
    background: "Hinton LeCun Bengio ..." had been refused as "another language", though it
    matched the paper that names them."""
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and "another language" not in err
    sub = Subscriber("ana", Profile(interests=text), ())
    assert not unread(sub) and not wordless(sub)


@pytest.mark.parametrize(
    "text",
    [
        "大语言模型的推理能力与强化学习",
        "大規模言語モデルの推論と強化学習について",
        "Машинное обучение для предсказания структуры белков и молекулярной динамики",
        "Maschinelles Lernen für die Vorhersage von Proteinstrukturen und Moleküldynamik",
    ],
)
def test_a_text_in_another_script_or_with_another_language_s_words_is_refused(
    capsys, text: str
) -> None:
    code, _, err = validate(capsys, reader(text))
    assert code == 2 and "another language than the papers" in err


@pytest.mark.parametrize(
    "text",
    [
        "Apprentissage automatique pour la prédiction des structures de protéines et la dynamique"
        " moléculaire",
        "aprendizaje profundo para visión por computador",
    ],
)
def test_a_text_with_another_language_s_words_some_known_is_a_warning(capsys, text: str) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and "another language than the papers" in err


@pytest.mark.parametrize(
    "text",
    ["arXiv 2506.20115, arXiv 2509.22540", "ArXiv id 2506.20115; arXiv preprint 2509.22540v2"],
)
def test_arxiv_ids_without_a_colon_alone_are_refused_with_like_named(capsys, text: str) -> None:
    """reg36 F5: "arXiv 2506.20115, ..." had validated with a warning, its profile "arxiv"."""
    code, _, err = validate(capsys, reader(text))
    assert code == 2
    (line,) = err.splitlines()
    assert "subscribers.ana.interests: holds no word the ranking can match" in line
    assert line.endswith('list them as like = ["2506.20115", "2509.22540"]')


@pytest.mark.parametrize(
    "text",
    ["gamma spectroscopy of the 1203.4567 keV line", "m/z 1203.4567 Da glycan mass spectrometry"],
)
def test_quantities_are_not_named_for_like(capsys, text: str) -> None:
    """reg36 F7, reg40 F3: "the 1203.4567 keV line", "m/z 1203.4567 Da" had been arXiv ids to
    list in `like`."""
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and not err


def test_an_id_before_a_title_opening_with_unit_letters_is_named_for_like(capsys) -> None:
    """reg40 F2: "d1" had been read as a unit (days), the id as a quantity: nothing said."""
    text = "2504.12216 d1: Scaling Reasoning in Diffusion Large Language Models"
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out
    assert err.rstrip().endswith('list them as like = ["2504.12216"]')


# reg38 F3: short texts in other languages with too few function words had passed silently and
# scored 0 for ever. Each is told by positive evidence (reg40 F1): letters or runs of letters
# English does not write, function words English papers never write. Not caught: texts under 4
# words ("koneoppiminen konenäkö syväoppiminen", "Apprentissage profond pour la vision" once its
# function words go), Vietnamese with "hoc" known ("Học sâu cho thị giác máy tính"), and
# NOT_TOLD below, spelt as English spells.
OTHER_LANGUAGES = [
    "Uczenie maszynowe w przetwarzaniu języka naturalnego",
    "Derin öğrenme ile görüntü sınıflandırma",
    "Pembelajaran mesin untuk pengolahan bahasa alami",
    "gépi tanulás számítógépes látás mélytanulás",
    "strojové učení počítačové vidění hluboké učení",
    "Glubokoe obuchenie dlya kompyuternogo zreniya",
    "aprendizado de máquina processamento de linguagem natural",
    "sieci neuronowe rozpoznawanie mowy uczenie głębokie",
    "pekiştirmeli öğrenme robot kontrolü",
    "yapay sinir ağları doğal dil işleme",
    "kecerdasan buatan dan pembelajaran mendalam",
    "mesterséges intelligencia természetes nyelvfeldolgozás",
    "neuronové sítě zpracování přirozeného jazyka",
    "zpracování obrazu rozpoznávání řeči",
    "neironnye seti obrabotka estestvennogo yazyka",
    "mashinnoe obuchenie raspoznavanie obrazov",
    "Quantenverschränkung Quantencomputer Fehlerkorrektur Supraleitung",
    "aprendizagem por reforço robótica autônoma",
    "sztuczna inteligencja głębokie uczenie maszynowe",
    "umělá inteligence strojové učení",
    "uczenie ze wzmocnieniem sterowanie robotami",
    "diepe neurale netwerken voor beeldherkenning",
    "Uczenie maszynowe, widzenie komputerowe",
]
# Passed since reg40 F1, as an English list of field words does, their words spelt as English
# spells them ("des" and "par" are the papers' own words, one "ã" or "ä" could be a name's):
# "Maschinelles Lernen Sprachverarbeitung Bildverarbeitung", "Bilderkennung Spracherkennung
# Verstärkungslernen Robotersteuerung", "réseaux de neurones profonds vision par ordinateur",
# "apprentissage automatique traitement automatique des langues vision par ordinateur",
# "apprentissage par renforcement robotique", "redes neurais profundas visão computacional",
# "jaringan saraf tiruan pengenalan wajah", "pengolahan citra digital segmentasi".
# reg36 F4's terse English lists and more: names, formulas, symbols, acronyms.
TERSE = [
    "Hinton LeCun Bengio Schmidhuber Sutskever",
    "LiFePO4 NMC811 LLZO Li6PS5Cl",
    "tachycardia arrhythmia Holter",
    "tachycardia arrhythmia ECG Holter",
    "ΛCDM σ8 S8 tension H0",
    "α-synuclein, β-amyloid, τ aggregation in neurons",
    "machine learning, NLP, CV, RL, GNNs, LLMs",
    "Ψ(2S) J/ψ χc1 charmonium",
    "SU(3) gauge theory lattice QCD θ vacuum",
    "Witten Seiberg Maldacena Polchinski Vafa",
    "Schwarzschild Kerr Reissner-Nordström Kerr-Newman",
    "Chandrasekhar Eddington Hoyle Zwicky",
    "Krizhevsky Goodfellow Vaswani Radford",
    "MoS2 WSe2 hBN graphene heterostructures",
    "YBCO LSCO cuprates pseudogap",
    "CRISPR Cas9 sgRNA off-target",
    "IL-6 TNF-α NF-κB inflammation",
    "Ga2O3 GaN SiC MOSFETs",
    "BERT GPT T5 LLaMA Mistral",
    "PyTorch JAX TensorFlow XLA",
    "Navier-Stokes Euler Boussinesq",
    "transmon fluxonium qubits decoherence",
    "Gödel Tarski Kripke Löb",
    "Erdős Rényi graphs Szemerédi regularity",
    "Ramachandran plots AlphaFold Rosetta",
    "Yann LeCun, Yoshua Bengio, Geoffrey Hinton, Juergen Schmidhuber",
    "Fe3O4 nanoparticles ZIF-8 MOFs CO2RR HER OER",
    "perverse sheaves, D-modules, Hodge modules, Riemann-Hilbert",
    "BRCA1 TP53 KRAS EGFR PD-L1",
    "papers by Kaiming He, Ross Girshick, Piotr Dollar",
    *ENGLISH,
]


@pytest.mark.parametrize("text", OTHER_LANGUAGES)
def test_a_short_text_of_another_language_s_plain_words_is_told(text: str) -> None:
    """Its words the background does not know, in small letters (or German's capitalised
    compounds), with no English stop word: another language, though `foreign_stops` finds too
    few of its function words."""
    sub = Subscriber("ana", Profile(interests=text), ())
    assert any("another language than the papers" in m for m in wordless(sub) + unread(sub))


# reg40 F1: English lists of field words the background lacks, in small letters, with no stop
# word; real titles lower-cased and made keyword lists among them. Their unknown words had been
# read as another language's: refused (exit 2), or warned of.
FIELD_WORDS = [
    "swampland heterotic compactifications orbifolds",
    "swampland, heterotic compactifications, orbifolds, moduli stabilization",
    "Swampland. Heterotic compactifications. Orbifolds.",
    "quasinormal modes, ringdown, overtones, echoes",
    "imbibition, prewetted, calcite, nanopores",
    "magnetohydrodynamic turbulence, reconnection, plasmoids, tearing",
    "operads, infinity-categories, cobordism hypothesis",
    "large language models acing chartered accountancy",
    "bubble trouble: a review on electroweak baryogenesis",
    "glenda: gynecologic laparoscopy endometriosis dataset",
    "pigs, sick, multi, agent, swine, disease",
    "schrödinger, poincaré, solitons, equations",
]


@pytest.mark.parametrize("text", FIELD_WORDS)
def test_english_field_words_unknown_to_the_background_are_no_other_language(
    capsys, text: str
) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and "another language" not in err


@pytest.mark.parametrize("text", TERSE)
def test_a_terse_english_list_is_still_no_other_language(text: str) -> None:
    sub = Subscriber("ana", Profile(interests=text), ())
    assert not unread(sub) and not wordless(sub)


def test_ids_in_a_sentence_are_named_for_like(capsys) -> None:
    """reg38 F4: "Papers like 2506.20115 and 2509.22540" had been read as quantities: no hint."""
    code, out, err = validate(
        capsys, reader("Papers like 2506.20115 and 2509.22540 are what I want")
    )
    assert code == 0 and "OK" in out
    assert err.rstrip().endswith('list them as like = ["2506.20115", "2509.22540"]')


# reg42 F1: short German, Italian, French, Dutch texts spelt with English's letter runs, one
# function word of theirs among words the background does not know: silent since reg40 F1. One
# such word is a warning's evidence, not a refusal's.
JOINED = [
    "Tiefes Lernen für Bilderkennung",
    "Neuronale Netze und maschinelles Lernen",
    "apprendimento automatico e reti neurali",
    "Apprendimento profondo per la visione artificiale",
    "Apprentissage automatique et vision par ordinateur",
    "apprentissage par renforcement profond",
    "machinaal leren en beeldverwerking",
    "Bestärkendes Lernen in der Robotik",
]


@pytest.mark.parametrize("text", JOINED)
def test_one_function_word_of_another_language_among_unknown_words_is_a_warning(
    capsys, text: str
) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and "another language than the papers" in err


# reg42 F4: chemical names, English, whose letter runs arXiv's words lack ("yrr", "zol"), had
# been refused as another language.
CHEMISTRY = [
    "benzimidazole pyridine pyrrole thiophene",
    "oxazolidinones, benzimidazoles, thiophenes, pyrroles, quinolines",
    "fullerenes, perylene, porphyrins, benzimidazole",
    "methylquinolinium, iodobismuthate, memristor, plasticity",
    "de novo design of imidazole ligands",
    "energy per particle, van der Waals forces, Smith et al. results",
    # reg43 F8: a ketone's "-one" after a consonant, or "-dione", "-thione", stays chemical.
    "acetone, pyrrolidone, thiazolidinedione, hydroquinone, thiones",
]


@pytest.mark.parametrize("text", CHEMISTRY)
def test_chemical_names_and_english_particles_are_no_other_language(capsys, text: str) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and "another language" not in err


@pytest.mark.parametrize(
    ("text", "ident"),
    [
        (
            "Quasi-Periodic Eruptions: Period Dispersion and Peak Temperature 2507.11100",
            "2507.11100",
        ),
        ("2504.01002 token embeddings violate the manifold hypothesis", "2504.01002"),
    ],
)
def test_an_id_beside_a_quantity_s_name_or_a_count_word_is_named_for_like(
    capsys, text: str, ident: str
) -> None:
    """reg42 F2, F3: read as a measurement, the id had stayed in the text as a number, no hint."""
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out
    assert err.rstrip().endswith(f'list them as like = ["{ident}"]')


# reg43 F8: Italian "-zione" words had been read as chemical names ("prop…one", "carb…one"), so an
# Italian keyword list passed as English: validate said OK, and the reader got nothing for ever.
ITALIAN_LISTS = [
    "propagazione azione carbonizzazione idrogenazione",
    "propagazione, carbonatazione, ossidazione, idrolisi",
    "germinazione, fermentazione, carbonatazione, idrolisi",
    "fluorurazione, carbonizzate, metilazione, idrolisi",
]


@pytest.mark.parametrize("text", ITALIAN_LISTS)
def test_italian_words_are_no_chemical_names(capsys, text: str) -> None:
    code, _, err = validate(capsys, reader(text))
    assert code == 2 and "another language than the papers" in err


def test_a_refusal_in_the_interests_text_is_a_warning_pointing_to_exclude(capsys) -> None:
    text = "Graph neural networks for molecules. Not interested in surveys. Anything except LLMs."
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out
    prefix = "digest: WARNING: digest.toml: subscribers.ana.interests: "
    assert err.splitlines() == [
        f"{prefix}{said!r} refuses papers: its words are left out of your interests, but papers"
        " are kept out only by exclude = [...]"
        for said in ("Not interested in surveys.", "Anything except LLMs.")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Non-linear dynamics, not only in fluids but also in plasmas; no-regret learning",
        "Unsupervised learning without labels, and why models cannot generalize",
    ],
)
def test_a_negation_that_refuses_nothing_is_no_warning(capsys, text: str) -> None:
    code, _, err = validate(capsys, reader(text))
    assert code == 0 and err == ""

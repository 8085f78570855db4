"""The analyzer: words and phrase bigrams that never span punctuation or a stop word, model names
kept whole, the same words whether one text is analyzed or many are tokenized at once (in one
process or two), and author keys that ignore name order and accents."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from digest.ranking import tokens
from digest.ranking.cases import is_cased, twin
from digest.ranking.tokens import analyze, author_key
from digest.ranking.units import UNIT_ACRONYM


def test_bigrams_are_phrases_that_occur_in_the_text():
    words = analyze("Differential privacy, for federated learning: GPT-4 and privacy-utility trade")
    assert "differential privacy" in words and "federated learning" in words
    assert "privacy federated" not in words  # the comma and "for" end the phrase
    assert "gpt-4" in words and "privacy utility" in words
    assert "for" not in words and "and" not in words


def test_model_names_stay_whole_and_dashes_set_off_by_spaces_end_a_phrase():
    words = analyze("We tune Llama-3-8B and GPT-4 -- a strong baseline - on covid-19 data")
    assert "llama-3-8b" in words and "gpt-4" in words and "covid-19" in words
    assert "gpt-4 strong" not in words and "baseline covid-19" not in words
    assert "covid-19 data" in words


def test_a_lone_letter_and_its_hyphen_or_symbols_stay_one_word():
    # Split, "k-means" lost its letter and matched "by means of"; "c++" and "c#" were nothing.
    words = set(analyze("k-means in C++ and C#, t-SNE of X-ray data, an α-helix"))
    assert {"k-means", "c++", "c#", "t-sne", "x-ray", "α-helix"} <= words
    assert "means" not in words and "sne" not in words and "helix" not in words
    assert analyze("by means of sampling") == ["means", "sampling"]
    assert analyze("a+b = c #1 ++x") == []  # other pluses and hashes are punctuation
    assert analyze("c++11 and C#10") == ["c++", "c#"]  # a version after it
    assert "privacy utility" in analyze("the privacy-utility trade")  # two words, one phrase


def test_a_lone_letter_written_apart_joins_its_word_as_its_hyphen_does():
    """ "T cell" was read as "cell": a "T cell" reader matched every cell paper ("why: matched
    cell"), and "T-cell" never met "T cells". Apart or hyphenated, it is one term."""
    for apart, hyphenated in [
        ("T cell receptor", "T-cell receptor"), ("CD8$^+$ T cells", "CD8+ T-cells"),
        ("(B cells)", "B-cells"), ("X Ray Based Diagnosis", "X-ray based diagnosis"),
        ("the p value of a t test", "the p-value of a t-test"), ("M dwarfs", "M-dwarfs"),
        ("in the K band", "in the K-band"), ("Mann-Whitney U test", "Mann-Whitney U-test"),
    ]:  # fmt: skip
        assert analyze(apart) == analyze(hyphenated), apart
    assert "cell" not in analyze("T cell receptor repertoires of tumour-infiltrating T cells")
    assert analyze("T and B cells") == ["b-cells"]  # no stop word joins a letter


def test_a_lone_letter_that_is_no_terms_first_letter_stays_apart():
    """English "a", "A", "I"; a unit after a number; a letter after a mark; and another
    language's word (Spanish "y", Polish "w", Portuguese "O"), which joins only as a capital
    inside a sentence: joined, their words would have been "a-survey", "w-pracy", "o-modelo"."""
    assert analyze("A survey: I think a model of C. elegans") == ["survey", "think", "elegans"]
    assert analyze("at 300 K and 4 T fields on a 6.5 m telescope") == ["fields", "telescope"]
    assert analyze("$10^{24}$ W Hz$^{-1}$ and $n$ points") == ["hz", "points"]
    assert analyze("H&E images and the model's accuracy") == ["images", "accuracy"]
    assert analyze("Proxima b Detected") == ["proxima", "detected"]  # a small letter, a small word
    for foreign, word in [
        ("W pracy przedstawiono model", "pracy"), ("modelos y la estrella", "estrella"),
        ("O modelo proposto", "modelo"), ("O Impacto Da Inteligência", "impacto"),
        ("K band photometry", "band"),  # a sentence's first word: a reader writes "K-band"
    ]:  # fmt: skip
        assert word in analyze(foreign), foreign


def test_a_math_letter_before_a_hyphen_is_the_letter_as_typed():
    """ "$p$-adic" read as "adic", "$k$-means" as "means", "$n$-gram" as "gram": a reader's
    "p-adic", "k-means", "n-gram" scored 0 every paper that typesets its letter."""
    for latex, typed in [
        ("$p$-adic Galois representations", "p-adic Galois representations"),
        ("$k$-means and $k$-NN", "k-means and k-NN"), ("$n$-gram models", "n-gram models"),
        ("$N$-body simulations", "N-body simulations"), ("the $L^2$-norm", "the L2-norm"),
    ]:  # fmt: skip
        assert analyze(latex) == analyze(typed), latex
    assert "means" not in analyze("$k$-means clustering")


def test_a_groups_name_keeps_its_number_and_two_capitals_their_slash():
    """ "SU(2)" and "SU(3)" were both "su" (as the surname Su), "SE(3)-equivariant" explained
    picks as "se", "A/B testing" was "testing". Big O is no group: "O(n)" is no word."""
    assert analyze("SU(2) gauge theory")[:3] == ["su(2)", "gauge", "theory"]
    assert analyze(r"$\mathrm{SU}(2)$") == analyze("SU(2)") == ["su(2)"] != analyze("SU(3)")
    assert analyze(r"$\mathrm{SO(3)}$ and U(1)") == ["so(3)", "u(1)"]
    assert analyze("SE(3)-equivariant") == ["se(3)", "equivariant", "se(3) equivariant"]
    assert analyze("SU(2)_L x U(1)_Y") == ["su(2)", "u(1)"]
    assert analyze("O(n) time and O(1) memory, SL(2,R)") == ["time", "memory", "sl"]
    assert analyze("A/B testing of I/O") == ["a/b", "testing", "i/o", "a/b testing"]
    assert analyze("w/o pretraining in C/C++") == ["pretraining", "c++"]


def test_a_language_keeps_its_version_and_a_pitch_is_no_language():
    """Pitches "C#4" and "F#5" (a letter, a sharp, one octave digit): read as C# and F#, a C#
    reader's keyword found music papers. A version is two digits, a digit and a letter, or
    dotted, and is no word itself ("c++ 0x" was a phrase)."""
    for text in ("the notes C#4 and F#5 in piano recordings", "C4, D#4, F#5, G#3", "A#0 to C#8"):
        assert not {"c#", "f#", "d#", "g#", "a#"} & set(analyze(text)), text
    assert "notes c#" not in analyze("the notes C#4 and F#5")
    for text in ("C#10 records", "C++17", "C++20 ranges", "C++0x concepts", "C++2a", "C#7.3"):
        assert analyze(text)[0] in ("c#", "c++"), text
    assert analyze("C++0x concepts") == ["c++", "concepts"]  # no "0x", no "c++ 0x"
    assert analyze("C++2a and F#4.5 modules") == ["c++", "f#", "modules"]


def test_latex_commands_and_subscripts_are_no_words():
    # "M_\\odot" read as the words "m_" and "odot" explained picks of astronomy papers.
    assert analyze(r"a mass of $10^{10} M_\odot$ in \textbf{dwarf galaxies}") == [
        "mass",
        "dwarf",
        "galaxies",
        "dwarf galaxies",
    ]
    assert "snake_case" in analyze("a snake_case name")  # an inner underscore stays
    assert "l0" in analyze("an l_0 penalty")  # a subscript's digit is its word's: "L0" as typed


def test_a_greek_letter_reads_the_same_typed_or_written_in_latex():
    # Abstracts write "$\Lambda$CDM" and "H$\alpha$", readers "ΛCDM" and "Hα": read as "cdm"
    # and nothing, a keyword ΛCDM had matched 2 of the 225 papers that say it.
    assert analyze(r"the $\Lambda$CDM model and H$\alpha$ emitters") == analyze(
        "the ΛCDM model and Hα emitters"
    )
    assert "λcdm" in analyze(r"$\Lambda$CDM") and "π-π" in analyze(r"$\pi$-$\pi$ stacking")
    assert analyze(r"a $\varepsilon$-net, $\mu$m grains") == analyze("a ε-net, μm grains")
    assert analyze(r"$\alpha + \beta$ decays") == ["decays"]  # lone letters are no words
    assert analyze(r"\etaa \betax") == []  # a command that only begins with a letter's name


def test_accents_case_and_punctuation_do_not_change_the_words():
    words = ["cafe", "resume", "naive", "bayes", "cafe resume", "naive bayes"]
    assert sorted(analyze("Café RÉSUMÉ: naïve Bayes!")) == sorted(words)  # the colon ends a phrase


def test_other_scripts_keep_the_marks_that_make_their_letters():
    # Stripped like Latin accents, "й" was "и", a kana's voicing mark went (モデル: モテル) and
    # a Devanagari vowel sign split its word in two.
    assert analyze("новый й") == ["новый"] and analyze("мой") == ["мой"] != analyze("мои")
    assert "デル" in analyze("モデル") and "テル" not in analyze("モデル")
    assert analyze("हिन्दी भाषा") == ["हिन्दी", "भाषा", "हिन्दी भाषा"]
    assert analyze("Ἀθῆναι ά-helix") == ["αθηναι", "α-helix", "αθηναι α-helix"]  # Greek as Latin


def test_chinese_japanese_and_korean_runs_are_read_as_two_character_words():
    assert analyze("差分隐私联邦学习") == ["差分", "分隐", "隐私", "私联", "联邦", "邦学", "学习"]
    assert analyze("GPT模型") == ["gpt", "模型"]  # the run is its own, beside the Latin word
    assert "学習" in analyze("機械学習の研究") and "모델" in analyze("언어 모델은")
    assert analyze("学") == []  # a lone character is no word


def test_words_too_common_alone_still_make_a_readers_phrase():
    """As stop words, "code generation" was read as "generation" and "state space models" as
    "space": a code-generation reader got papers on next-generation geocoding."""
    assert analyze("code generation") == ["generation", "code generation"]
    assert analyze("state space models") == ["space", "state space", "space models"]
    assert analyze("world models and art history") == [
        "world", "history", "world models", "art history",
    ]  # fmt: skip
    assert analyze("our models improve the performance") == []  # alone, nothing


def test_stop_words_that_are_half_of_a_fields_term_make_its_phrase():
    """ "side-channel" was read as "channel" (vision papers' channel attention), "thin film" as
    "film", "quantum well" as "quantum"; alone they are still no word."""
    assert "side channel" in analyze("side-channel attacks")
    assert analyze("thin film growth") == ["film", "growth", "thin film", "film growth"]
    assert "quantum well" in analyze("quantum well lasers")
    assert {"pareto front", "system identification", "many body", "few shot", "de sitter"} <= set(
        analyze("Pareto front, system identification, many-body, few-shot, de Sitter")
    )
    assert analyze("as well as the first one of them") == []  # alone, nothing


def test_the_prefix_non_is_part_of_its_phrase_and_no_word_alone():
    """ "non" of "non-adiabatic", "non-Hermitian", French "non adiabatique" explained picks on
    surfaces and droplets: "why: matched surface, non"."""
    assert analyze("non-Hermitian systems") == [
        "hermitian", "systems", "non hermitian", "hermitian systems",
    ]  # fmt: skip
    assert "non adiabatique" in analyze("dynamique non adiabatique")
    assert "non" not in analyze("non-equilibrium and non adiabatic surface dynamics")


def test_a_texts_own_languages_function_words_are_no_words():
    """A German reader's "und", "die", "der" matched a history of Prussian railways."""
    german = analyze("Föderiertes Lernen und die Privatsphäre der Sprachmodelle")
    assert not {"und", "die", "der"} & set(german) and "foderiertes lernen" in german
    french = analyze("la confidentialité différentielle et la vie privée")
    assert "la" not in french and "confidentialite differentielle" in french
    # Other languages' short function words are English words: Polish "na" picked sodium
    # papers (Na-ion anodes), Swedish "på" Paschen-α, Indonesian "di" Doppler imaging.
    for text, words in [
        ("Uczenie federacyjne i prywatność w modelach językowych na urządzeniach", {"na", "w"}),
        ("Federované učení a soukromí pro jazykové modely na mobilních zařízeních", {"na", "pro"}),
        ("Federerad inlärning och integritet för språkmodeller som körs på enheter", {"som", "pa"}),
        ("Pembelajaran federasi dan privasi untuk model bahasa di perangkat", {"dan", "di"}),
        # Portuguese's and Italian's contractions: "na" picked 10 of 10 sodium papers, "ai" AI.
        ("Aprendizado de máquina aplicado na análise de dados e ao processamento", {"na", "ao"}),
        ("Modelli di linguaggio applicati ai dati e alla traduzione automatica", {"ai", "alla"}),
    ]:
        assert not words & set(analyze(text)), text


def test_a_name_pair_joined_by_an_en_dash_is_a_phrase_and_a_range_no_word():
    """An en dash (LaTeX's "--") joins two names as a hyphen does: a library's "Erdős--Rényi"
    never met the papers' "Erdős-Rényi". Between digits it is a range; "---" a sentence's dash."""
    for text in ("Navier\u2013Stokes flows", "Navier--Stokes flows", "Navier-Stokes flows"):
        assert "navier stokes" in analyze(text), text
    assert "erdos renyi" in analyze("Erd\u0151s--R\u00e9nyi graphs")
    assert analyze("pages 10\u201320 and 1--5") == ["pages"]
    assert "privacy utility" not in analyze("privacy---utility")
    assert "large works" not in analyze("a model--which is large--works")  # prose's dash
    assert {"c++", "library"} <= set(analyze("a header-only C++17 library"))


def test_a_word_in_capitals_is_an_acronym_in_any_language():
    # "SOM" and "AV" are Swedish function words: the text had been read as Swedish.
    assert {"som", "av"} <= set(analyze("Self-organizing maps (SOM) for AV perception"))


def test_a_symbol_inside_a_sentence_is_a_symbol_in_any_language():
    """Si, Cu, Ca, Ce are Romanian function words: "Cu Si alloys" had been read as Romanian, as
    "alloys" alone, and "Al-Cu alloys" with it. A capitalised word opening a sentence may still
    be a function word."""
    assert {"cu", "si", "si alloys"} <= set(analyze("Cu Si alloys"))
    assert {"si", "ca", "cu", "cu oxides"} <= set(analyze("Si and Ca doping of Cu oxides"))
    assert {"si", "cu", "ag"} <= set(analyze("Si cells; Cu Ag nanocatalyst"))
    assert {"nu", "pe"} <= set(analyze("Nusselt number Nu and Pe scaling"))
    spanish = analyze("Si el modelo converge, la red aprende. Si no, la red olvida.")
    assert not {"si", "el", "la"} & set(spanish) and "red" in spanish
    # A title in Title Case says its function words in small letters in its abstract.
    titled = analyze("Un Modelo Para La Red. Presentamos un modelo para la red y el lenguaje.")
    assert not {"para", "la", "modelo para", "la red"} & set(titled) and "modelo" in titled


def test_a_title_in_title_case_alone_is_read_in_its_language():
    """A library entry from Google Scholar has no abstract: its Title Case title never writes
    "de" or "la" small, and every capitalised short word had counted as a symbol ("Cu")."""
    titles = {
        "Un Modelo De Lenguaje Para La Traducción Automática De Textos Médicos": {"para", "la"},
        "Análise De Sentimentos Em Textos De Redes Sociais": {"em", "de"},
        "Un Modèle De Langue Pour La Traduction Des Textes": {"pour", "la", "des"},
        "Un Modello Per La Traduzione Della Lingua Dei Segni": {"per", "la", "della"},
    }
    for title, function_words in titles.items():
        words = analyze(title)
        assert not function_words & set(words), title
        assert not [w for w in words if " " in w and set(w.split()) & function_words], title
    assert "redes sociais" in analyze("Análise De Sentimentos Em Textos De Redes Sociais")
    # An English title writes its short words small: its capitals are symbols still.
    assert {"si", "si alloys"} <= set(analyze("Crystal Nucleation in Eutectic Al-Si Alloys"))
    assert {"cu", "si"} <= set(analyze("Electronic Structure of Cu Si Alloys"))
    assert {"als", "dos"} <= set(analyze("Early Detection Of ALS And DoS In Patients"))
    assert "de sitter" in analyze("Quantum Gravity in de Sitter Space")


def test_in_an_english_text_they_are_words():
    """Stop words everywhere, they cut English acronyms: ALS, DoS, LoS, Au, El Niño."""
    for text, word in [
        ("ALS", "als"),
        ("DoS attacks on the grid", "dos"),
        ("LoS MIMO channels", "los"),
        ("Au nanoparticles", "au"),
        ("El Niño forecasts", "el nino"),
        ("van der Waals heterostructures", "der waals"),
        ("the DES survey", "des"),
    ]:
        assert word in analyze(text), text


def test_the_tokenizer_imports_without_scikit_learn_and_keeps_its_stop_words_and_accents():
    import os
    import subprocess
    import sys

    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS, strip_accents_unicode

    loaded = (
        "import sys, digest.ranking.tokens; print(sorted({'sklearn', 'scipy'} & set(sys.modules)))"
    )
    path = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}  # this checkout's digest
    out = subprocess.run(
        [sys.executable, "-c", loaded], capture_output=True, text=True, check=True, env=path
    )
    assert out.stdout.strip() == "[]"
    assert tokens.ENGLISH_STOP_WORDS == ENGLISH_STOP_WORDS
    for text in ("Café RÉSUMÉ naïve", "Łódź Ångström", "ﬁber ½ x\u0301", "plain ascii", "άλφα"):
        assert tokens._strip_accents(text) == strip_accents_unicode(text)  # Latin and Greek


def test_author_keys_ignore_order_case_and_accents():
    assert author_key("Lovelace, Ada") == author_key("ada LOVELACE") == "ada lovelace"
    assert author_key("José Núñez") == "jose nunez"
    # Letters NFKD leaves whole, and a suffix wherever the export put it.
    assert author_key("Łukasz Kaiser") == author_key("Lukasz Kaiser") == "lukasz kaiser"
    assert author_key("Øksendal, Bernt") == author_key("Bernt Oksendal")
    assert author_key("Reagle, Jr., Joseph M.") == author_key("Joseph M. Reagle Jr.")
    assert author_key("Martin Luther King, Jr.") == author_key("Martin Luther King Jr.")


def test_an_ion_is_one_term_however_written_and_a_numeral_alone_no_word():
    """ "[O III]" was read as "iii", "He II" and "[S II]" as "ii" ("he" a stop word): an [O III]
    reader got Mg II and Ca II papers, "why: matched ii, iii", and "[OIII]" never met "[O III]"."""
    for spellings, term in [
        (["[O III] emitters", "[OIII] emitters", "O III emitters", r"[O\,{\sc iii}] emitters"],
         "o-iii"),
        (["He II lines", "HeII lines", "He~II lines", r"He\,{\sc ii} lines"], "he-ii"),
        (["the [S II] ratio", "the [SII] ratio"], "s-ii"), (["O VI absorbers"], "o-vi"),
        (["H I gas", "HI gas", r"H\,{\sc i} gas"], "h-i"), (["Fe XXV lines"], "fe-xxv"),
        (["Mg II absorbers", "MgII absorbers"], "mg-ii"), (["H II regions", "HII regions"], "h-ii"),
    ]:  # fmt: skip
        for text in spellings:
            assert analyze(text)[0] == term and len(analyze(text)) == 3, text
    for text in ("Paper II and Type II", "Population III stars", "(ii) and (iii), (iv), (vi)"):
        assert not {"ii", "iii"} & set(analyze(text)), text
    # Acronyms that look like an ion stay acronyms; "As I" and "In I" are English.
    assert analyze("HIV and SIV, CI, NV centers, UV, PII, CsI, NaI(Tl)") == [
        "hiv", "siv", "ci", "nv", "centers", "uv", "pii", "csi", "nai", "tl", "nv centers",
    ]  # fmt: skip
    assert analyze("As I said") == ["said"] and "b-v" not in analyze("B V photometry")


def test_a_number_and_its_unit_are_one_term_and_a_unit_alone_no_word():
    """ "21-cm" was read as "cm": a 21-cm reader's top picks were papers on radicals' cm^-1 and
    Rydberg states, "why: matched cm"; "kcal/mol" explained a docking pick as "mol"."""
    for text in ("the 21-cm line", "the 21 cm line", "the 21cm line", r"the $21$-cm line",
                 r"the 21\,cm line", "the 21~cm line"):  # fmt: skip
        assert analyze(text) == ["21cm", "line", "21cm line"], text
    for text in ("at 1600 cm$^{-1}$", "-10.76 kcal/mol", "a 0.3 dex scatter", "100 km s$^{-1}$"):
        assert not {"cm", "kcal", "mol", "dex", "km"} & set(analyze(text)), text
    assert "21cm" not in analyze("a column of $10^{21}$ cm$^{-2}$")  # a power's digits
    assert analyze("TeV halos at 1.4 GHz") == ["tev", "halos", "ghz", "tev halos"]  # a band's unit


def test_a_hyphen_after_a_whole_number_or_before_a_lone_letter_keeps_the_word():
    """ "21-cm" was "cm", "10-fold" "fold" while "3-body" was whole; "high-z" was "high",
    "Lyman-α" "lyman", "TNF-α" "tnf". A numeral's letter still splits, as its number does."""
    assert analyze("10-fold and 3-body") == ["10-fold", "3-body"]
    assert analyze("high-z galaxies")[0] == analyze("high-$z$ galaxies")[0] == "high-z"
    assert analyze("top-k RGB-D TNF-α") == ["top-k", "rgb-d", "tnf-α", "top-k rgb-d", "rgb-d tnf-α"]
    assert analyze("Type-I, Type-II and SDSS-V") == ["type", "type", "sdss"]
    # A stop word inside a compound is no word's letter: "a-judge" had been a word (reg34 F4);
    # the compound of function words is a word too
    assert analyze("LLM-as-a-judge") == ["llm", "judge", "llm-as-a-judge"]
    assert analyze("best-of-N sampling") == ["best", "sampling", "best-of-n"]  # "of-n" no term


def test_a_hydrogen_lines_greek_letter_stays_with_its_series_however_written():
    """ "Lyman-α" and "Lyman-$\\alpha$" were read as "lyman" (a Lyman-α reader got Lyman-break
    and Lyman-continuum papers), "Ly$α$" as "ly"; none met "Lyα" or "Lyman-alpha"."""
    spellings = ["Lyman-α forest", r"Lyman-$\alpha$ forest", "Lyman-$α$ forest", "Lyα forest",
                 r"Ly$\alpha$ forest", "Ly$α$ forest", "Lyman-alpha forest", "Lyman alpha forest",
                 "Ly-alpha forest"]  # fmt: skip
    for text in spellings:
        assert analyze(text) == ["lyman-α", "forest", "lyman-α forest"], text
    assert analyze("Paβ and Br$\\gamma$") == ["paschen-β", "brackett-γ"]
    assert analyze("Lyman-break and Lyman continuum") == [
        "lyman", "break", "lyman", "continuum", "lyman break", "lyman continuum",
    ]  # fmt: skip


def test_a_subscripts_digits_belong_to_their_word_as_typed_or_in_unicode():
    """ "MoS$_2$" was read as "mos", "CO$_2$" and "H$_2$O" as nothing, "$\\sigma_8$" as "σ_8":
    a MoS2 reader found 33 of 59 MoS₂ papers of a files source, a σ8 reader 0 of 71."""
    for forms, term in [
        (["MoS$_2$", "MoS$_{2}$", "MoS₂", "MoS2"], "mos2"),
        (["CO$_2$", r"$\mathrm{CO}_2$", "CO₂", "CO2"], "co2"), (["H$_2$O", "H₂O", "H2O"], "h2o"),
        ([r"$\sigma_8$", r"$\sigma_{8}$", "σ₈", "σ8"], "σ8"), (["$S_8$", "$S_{8}$", "S8"], "s8"),
        (["La$_3$Ni$_2$O$_7$", "La₃Ni₂O₇"], "la3ni2o7"),
    ]:  # fmt: skip
        for text in forms:
            assert analyze(f"{text} films") == [term, "films", f"{term} films"], text


def test_case_plays_no_part_in_a_letterlike_or_mathematical_letter():
    """NFKC makes capitals of "ℤ₂", "ℋ₂", "𝐁𝐄𝐑𝐓", "Ｚ": read after the lower-casing, they were the
    features "Z2", "H2", "BERT", which no reader's lower-cased "Z2" met. Raw LaTeX reads as its
    decoded symbol and the plain capital do (the arXiv source stores "ℤ₂", a file LaTeX)."""
    from digest.sources.latex import to_text

    for forms, term in [
        (["ℤ₂", r"$\mathbb{Z}_2$", r"$\mathbb{Z}_{2}$", "Z₂", "Z2", "z2"], "z2"),
        (["ℝ³", r"$\mathbb{R}^3$", r"$\mathbb{R}^{3}$", "R3"], "r3"),
        (["ℋ₂", r"$\mathcal{H}_2$", "H2"], "h2"), (["ℙ¹", r"$\mathbb{P}^1$", "P1"], "p1"),
        (["ℂℙ²", r"$\mathbb{CP}^2$", "CP2"], "cp2"), (["𝐁𝐄𝐑𝐓", "Ｂｅｒｔ", "BERT"], "bert"),
    ]:  # fmt: skip
        for text in forms:
            assert analyze(f"{text} gauge") == [term, "gauge", f"{term} gauge"], text
            assert analyze(to_text(f"{text} gauge")) == analyze(f"{text} gauge"), text
    assert analyze("ΑΣ and ας") == ["ασ", "ασ"]  # a final sigma is σ, as a capital Σ is


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=40))
def test_everything_the_analyzer_reads_is_lower_case_but_a_mixed_case_words_twin(text):
    assert _read_lower(tokens._chunks(text))


def _read_lower(chunks: list[str]) -> bool:
    """Is every chunk in small letters, a unit's acronym, or a mixed-case word's own term
    beside its small letters ("GaN" beside "gan", cases.py)?"""
    return all(_lower(c) or (is_cased(c) and twin(c, chunks)) for c in chunks)


def _lower(chunk: str) -> bool:
    """Is the chunk in small letters, or a unit's acronym ("GHZ", "ML": units.unit_capitals)?"""
    return chunk == chunk.lower() or bool(_ACRONYM.fullmatch(chunk))


_ACRONYM = re.compile(UNIT_ACRONYM.pattern.upper())  # "GHZ", "ML", "DB" (units.py)


_PIECES = ["ℤ₂", "ℝ", "𝔽", "𝑥", "Ｚ", "ⁿΣ", "™", "Ⅳ", "$", "\\mathbb{R}^3", "N=4 SYM", "J/psi",
           "ψ(2S)", "∞-", "_", "-", " ", "(", "ǅ", "İ", "a"]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_the_letterlike_symbols_read_in_lower_case_in_any_company(pieces):
    assert _read_lower(tokens._chunks("".join(pieces)))


def test_a_particle_its_state_and_an_infinity_category_are_one_term_however_written():
    """ "J/ψ" was read as nothing (and "J/psi" as "psi"), "ψ(2S)" as "2s", "∞-categories" and
    "$\\mathcal{N}=4$ SYM" as "categories" and "sym": an ∞-category reader got food images."""
    for forms, term in [
        (["J/ψ", r"$J/\psi$", r"J/$\psi$", "J/psi", "J/Psi"], "j/ψ"),
        (["ψ(2S)", r"$\psi(2S)$"], "ψ(2s)"), (["Υ(1S)", r"$\Upsilon(1S)$"], "υ(1s)"),
        (["N=4", r"$\mathcal{N}=4$", "𝒩=4", "N = 4", "$N=4$"], "n=4"),
    ]:  # fmt: skip
        for text in forms:
            assert analyze(f"the {text} SYM") == [term, "sym", f"{term} sym"], text
    for text in ("∞-categories", r"$\infty$-categories", r"$(\infty,1)$-categories",
                 "(∞,1)-categories", "infinity-categories"):  # fmt: skip
        assert analyze(text) == ["infinity", "categories", "infinity categories"], text


def test_common_text_reads_as_before_beside_the_particles():
    """A ratio in math, a study's size and the slashes of prose are no particle."""
    assert analyze("1/2 of I/O, w/o A/B testing and/or") == ["i/o", "a/b", "testing", "a/b testing"]
    assert analyze("N=4 samples, n=4 SYM, (N=12) participants") == [
        "samples",
        "sym",
        "participants",
    ]
    for text in (r"$V/\sigma \sim 4$", r"$(R/λ)^{2}$", r"$T/κ= 1$", r"$\Delta V/\Delta z$",
                 "200 $μ$A/$μ$m", "L∞-norm", r"L$_{\infty}$-algebra", "H∞ control"):  # fmt: skip
        assert not any("/" in f or "infinity" in f for f in analyze(text)), text
    assert analyze("ζ(2), f(1S)") == ["1s"]  # a state is a Greek letter's, as before


def test_a_text_in_capitals_is_read_in_its_language_as_in_mixed_case():
    """Every word of a German or Spanish text in capitals had been an acronym: "VON", "LA" kept,
    von Neumann and lanthanum papers picked, "why: matched la"."""
    for caps, mixed in [
        ("MASCHINELLES LERNEN FÜR DIE VORHERSAGE VON PROTEINSTRUKTUREN UND MOLEKÜLEN",
         "Maschinelles Lernen für die Vorhersage von Proteinstrukturen und Molekülen"),
        ("APRENDIZAJE AUTOMÁTICO PARA EL PRONÓSTICO DEL TIEMPO Y LA PREDICCIÓN DE LA LLUVIA",
         "Aprendizaje automático para el pronóstico del tiempo y la predicción de la lluvia"),
        ("APPRENTISSAGE POUR LA PRÉVISION DES CRUES ET DE LA SÉCHERESSE",
         "Apprentissage pour la prévision des crues et de la sécheresse"),
    ]:  # fmt: skip
        assert analyze(caps) == analyze(mixed), caps
    # One sentence in capitals in a text otherwise in mixed case: its acronyms of that sentence
    # say nothing, the others still do.
    text = "LA PREDICCIÓN DE LA LLUVIA. Usamos un modelo para la red del SOM."
    assert not {"la", "de", "para"} & set(analyze(text)) and "som" in analyze(text)
    assert analyze("QUANTUM ERROR CORRECTION") == analyze("Quantum error correction")


def test_an_emojis_selector_or_keycap_is_no_letter_of_the_next_word():
    """U+FE0F (a mark) had become the first letter of the word glued to its emoji: "🗺️SLAM"
    was "\ufe0fslam"; a keycap "1️⃣" a word of its own."""
    spaced = analyze("🗺 SLAM and ✔ legged locomotion")
    for text in ("🗺️SLAM and ✔️legged locomotion", "🗺︎SLAM and ✔︎legged locomotion"):
        assert analyze(text) == spaced == ["slam", "legged", "locomotion", "legged locomotion"]
    assert analyze("1️⃣SLAM 2️⃣locomotion") == ["slam", "locomotion"]  # no "slam locomotion" either
    assert analyze("👩🏽‍🔬robotics ⓐ🅰️mapping") == ["robotics", "mapping"]  # ZWJ, skin tone, circled
    assert analyze("हिन्दी मॉडल") == ["हिन्दी", "मॉडल", "हिन्दी मॉडल"]  # a script's marks: its letters


def test_a_prefix_alone_is_no_word_and_its_phrase_is():
    """ "semi-arid" had been "semi": semi-supervised papers picked, "why: semi"; "sub-Saharan"
    "sub". As "non", a prefix names a topic only with its word."""
    for text, phrase in [
        ("drought in semi-arid regions", "semi arid"), ("sub-Saharan Africa", "sub saharan"),
        ("multi-drug resistance", "multi drug"), ("pre-training", "pre training"),
        ("self-supervised", "self supervised"), ("cross-lingual transfer", "cross lingual"),
        ("anti-cancer", "anti cancer"),
    ]:  # fmt: skip
        words = analyze(text)
        assert phrase in words and phrase.split()[0] not in words, text
    assert "multi task" in analyze("multi-task learning")  # a prefix and a phrase word: a phrase
    assert "first one" not in analyze("the first one")  # two phrase words still none


def test_a_range_of_numbers_is_no_word_with_a_hyphen_as_with_an_en_dash():
    """ "10-20" had been a word ("why: 10-20" for a 10-20 GHz paper), "10–20" none; a pasted
    reference list's pages "583-589" too."""
    for text in ("at 10-20 day lead times", "at 10\u201320 day lead times", "pp. 583-589 day",
                 "0.5-1.0 day", "2018-2024 day", "1-2-3 day"):  # fmt: skip
        assert not [w for w in analyze(text) if any(c.isdigit() for c in w)], text
    assert analyze("gpt-4, covid-19, 10-fold, 3-body, llama-2-7b") == [
        "gpt-4", "covid-19", "10-fold", "3-body", "llama-2-7b",
    ]  # fmt: skip


def test_an_assays_seq_is_one_word():
    """ "ChIP-seq" had been "chip" + "seq": chip-design papers, "why: chip"."""
    assert analyze("ChIP-seq and ATAC-seq") == ["chip-seq", "atac-seq"]
    assert analyze("RNA-Seq data") == analyze("RNA-seq data") == ["rna-seq", "data", "rna-seq data"]
    assert "chip" not in analyze("scRNA-seq, ChIP-seq profiles")
    assert analyze("seq-to-seq") == ["seq", "seq", "seq-to-seq"]  # "to-seq" is no assay


def test_english_texts_words_that_are_italian_make_no_italian():
    """ "non", "come", "al" (every "et al.") and a name ("Dai", "Le", "Sui") had made a short
    English text Italian: "non-Hermitian" lost its phrase."""
    for text, phrase in [
        ("Where do non-Hermitian exceptional points come from?", "non hermitian"),
        ("non-IID data in federated learning (Dai et al.)", "non iid"),
        ("Dai et al. show non-convex losses come with saddles", "non convex"),
        ("Come as you are: non-parametric tests", "non parametric"),
        ("non-Hermitian skin effect (Le and Sui, Tra et al.)", "non hermitian"),
    ]:
        assert phrase in analyze(text), text
    assert "dai" in analyze("non-IID data in federated learning (Dai et al.)")
    # The Italian and Portuguese texts are read in their language still.
    italian = analyze(
        "Modelli di linguaggio applicati ai dati e alla traduzione non supervisionata"
    )
    assert not {"ai", "alla", "non", "di"} & set(italian) and "traduzione" in italian


def test_a_significance_with_a_hyphen_before_sigma_is_no_word():
    """ "5-$\\sigma$", "2-σ" had been words while "5σ" and "5-sigma" were none (reg34 F5)."""
    for text in ["a 5-$\\sigma$ detection", "1-$\\sigma$ uncertainties", "2-σ", "3-sigma", "5σ"]:
        assert not [w for w in analyze(text) if "σ" in w or "sigma" in w], text
    assert analyze("at the 3 sigma level")[0] == "sigma"  # the word alone stays a word


def test_a_stop_word_inside_a_compound_is_no_part_of_a_word():
    """ "LLM-as-a-judge", "Text-to-3D", "one-of-a-kind" had left "a-judge", "to-3d", "a-kind":
    words of no text, said in explanations (reg34 F4). A compound after an acronym in capitals is
    a compound too ("ML-as-a-service"); a lone letter that is a word's own stays ("a-Si")."""
    cases = [
        ("LLM-as-a-judge", ["llm", "judge"], "llm-as-a-judge"),
        ("Text-to-3D generation", ["text", "3d", "generation"], "text-to-3d"),
        ("needle-in-a-haystack tests", ["haystack", "tests"], "needle-in-a-haystack"),
        ("ML-as-a-service", ["ML", "service"], "ml-as-a-service"),
    ]
    for text, parts, whole in cases:
        words = [w for w in analyze(text) if " " not in w]
        assert [w for w in words if w != whole and not w.startswith("needle")] == parts, text
        assert whole in words and not [w for w in words if "-" in w and w != whole], text
    assert "text 3d" not in analyze("Text-to-3D generation")  # "to" ends the phrase
    assert analyze("a-Si:H films")[0] == "a-si" and analyze("k-means clustering")[0] == "k-means"


def test_two_names_and_a_slash_are_a_phrase_and_two_acronyms_a_choice():
    """ "AdS/CFT" had been "ads" and "cft" apart (rank22 F2); "CPU/GPU", "TCP/IP" mean either."""
    assert analyze("the AdS/CFT correspondence")[:3] == ["ads", "cft", "correspondence"]
    assert "ads cft" in analyze("the AdS/CFT correspondence")
    assert "jwst nirspec" in analyze("JWST/NIRSpec spectra")
    assert analyze("CPU/GPU and TCP/IP") == ["cpu", "gpu", "tcp", "ip"]
    assert analyze("A/B testing")[0] == "a/b"

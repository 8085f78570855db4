"""Science's symbols as the analyzer reads them: an ion's element and numeral joined (and no
acronym that looks like one), a number and its unit joined, a subscript's digits in their word,
a hydrogen series line in one spelling, and the numerals and units that are no words alone."""

from __future__ import annotations

from digest.ranking.symbols import JOIN, NOT_WORDS, groups, ions, quantities, series, subscripts


def test_an_ions_element_and_numeral_are_joined_in_any_spelling():
    for text, ion in [
        ("[O III] emitters", "O-iii"), ("[OIII] emitters", "O-iii"), ("the O III line", "O-iii"),
        (r"[O\,{\sc iii}]", "O-iii"), (r"H\,{\sc i} gas", "H-i"), ("He~II", "He-ii"),
        ("HeII λ4686", "He-ii"), ("MgII", "Mg-ii"), ("C IV", "C-iv"), ("CIV", "C-iv"),
        ("HI gas", "H-i"), ("Fe XXVI", "Fe-xxvi"), ("[C I]", "C-i"), ("Ne V", "Ne-v"),
        ("O I${\\lambda}$8446", "O-i"), ("the [Fe X] line", "Fe-x"),
    ]:  # fmt: skip
        assert ion in ions(text).replace(JOIN, "-"), text
    assert ions("[O III] emitters").replace(JOIN, "-") == "[O-iii  emitters"  # "]" off: a phrase


def test_what_only_looks_like_an_ion_is_left_as_it_was():
    """A numeral after a word that is no element; acronyms and iodides; an English word before
    "I"; a class ("III-V") or a formula's subscript after it."""
    for text in ("Paper II", "Type III", "Population III", "HIV", "SIV", "CI", "NV centers",
                 "UV", "PII", "AI", "CsI", "NaI(Tl)", "CrI$_3$", "As I said", "In I", "B V",
                 "V I", "I II", "XIV", "MIX", "CoV", "CIVIL"):  # fmt: skip
        assert ions(text) == text, text
    assert ions("O III-V") == f"O III{JOIN}V"  # a semiconductors' class, no ion


def test_a_whole_number_and_its_unit_are_one_word():
    for text in ("21-cm", "21 cm", "21cm", "$21$-cm", r"21\,cm", "21~cm", r"21\,{ cm}"):
        assert quantities(text).strip("$}") == "21cm", text
    assert quantities("a 5 cm lens, 10 μm grains, 2 gyr") == "a 5cm lens, 10μm grains, 2gyr"
    for text in ("10^{21} cm^{-2}", "10-21 cm", "0.3 dex", "1,5 cm", "x21 cm", "21 cms"):
        assert quantities(text) == text, text
    assert quantities("1 tev and 5 ghz") == "1 tev and 5 ghz"  # a band's unit is a word


def test_numerals_and_units_alone_are_no_words_and_bands_are():
    assert {"ii", "iii", "vii", "cm", "km", "mol", "kcal", "dex", "gyr", "μm"} <= NOT_WORDS
    assert not {"xi", "tev", "gev", "ghz", "kpc", "mm", "bar", "mg", "kg", "wt"} & NOT_WORDS
    assert not {"iv", "vi", "ix"} & NOT_WORDS  # acronyms too: a reader's keyword "VI"


def test_a_subscripts_digits_join_their_word_and_its_dollar_goes():
    for text, joined in [
        ("MoS$_2$ films", "MoS2 films"), ("MoS$_{2}$ films", "MoS2 films"),
        ("H$_2$O", "H2O"), ("La$_3$Ni$_2$O$_7$", "La3Ni2O7"), ("$S_8$", "$S8"),
        (r"$\mathrm{CO}_2$", r"$\mathrm{CO2"), ("l_0", "l0"), ("x_{12}", "x12"),
    ]:  # fmt: skip
        assert subscripts(text) == joined, text
    for text in ("snake_case", "M_\\odot", "$T_c$", "_2", "x_1234"):
        assert subscripts(text) == text, text


def test_a_series_line_is_one_spelling():
    for text in ("lyα", "ly-α", "lyman-α", "lyman α", "lyman alpha", "lyman-alpha", "lyalpha",
                 "ly alpha", "Lyα", "Lyman-α", "LYMAN-α"):  # fmt: skip
        assert series(f"the {text} forest") == "the lyman-α forest", text
    assert series("paβ, brγ and pa-alpha") == "paschen-β, brackett-γ and paschen-α"
    for text in ("lyman-break", "lyman continuum", "only α", "apply alpha", "lyman-αβ"):
        assert series(text) == text, text


def test_a_groups_number_stays_with_its_name():
    read = groups("SU(2) and SE(3)-equivariant")
    assert read == "SU\ufdd02\ufdd1 and SE\ufdd03\ufdd1 equivariant"
    assert groups("O(n) and (2)") == "O(n) and (2)"


def test_an_ion_before_a_hyphen_and_a_word_is_the_ion_and_the_word():
    """An "HI-rich" had stayed "hi": an `HI` reader missed the papers that write only that."""
    from digest.ranking.tokens import analyze

    assert analyze("HI-rich galaxies")[:2] == ["h-i", "rich"]
    assert analyze("[OIII]-selected")[:2] == ["o-iii", "selected"]
    assert "o-iii" not in analyze("O III-V")  # a III-V semiconductor


def test_an_acronym_spelled_as_a_numeral_is_a_readers_keyword():
    """A keyword "VI" (variational inference) or "IV" (instrumental variables) matched nothing."""
    from digest.ranking.tokens import analyze

    assert analyze("VI") == ["vi"] and analyze("IV") == ["iv"]
    assert "vi" in analyze("variational inference (VI) at scale")
    assert "iv" in analyze("instrumental variables (IV) regression")


def test_a_lists_item_and_a_parts_number_are_no_acronym():
    """An enumeration's "(iv)" and a "Section IV" had been a reader's keyword IV: "why: matched
    iv" picked papers for their lists. Semiconductors' classes are one word each."""
    from digest.ranking.tokens import analyze

    for text in (
        "We (i) propose, (ii) test, (iii) deploy and (iv) evaluate it",
        "iv) evaluate it; vi) deploy it; (ix) evaluate",
        "In Section IV we evaluate, in Sec. VI we deploy; see Fig. IX and Appendix IV.",
        "Paper VI of the series; Chapter IX",
    ):
        assert not {"iv", "vi", "ix"} & set(analyze(text)), text
    assert analyze("II-VI and III-V semiconductors")[:2] == ["ii-vi", "iii-v"]
    assert analyze("the I-V curve")[0] == "i-v"
    assert "iv" in analyze("Type IV pili") and "dxiv" in analyze("Dxiv) x")


def test_a_capital_a_slash_and_a_greek_letter_are_a_particle_and_a_ratio_is_not():
    from digest.ranking.symbols import slashed

    for text in ("J/ψ", "J/psi", "J/Psi", r"J/\psi", r"J/$\psi$"):
        assert slashed(text) == "J\ufdd2ψ", text
    for text in ("J/PSI", "J/psis", "$V/σ = 1$", r"$(R/\lambda)^2$", r"\Delta V/\Delta z", "w/ψ"):
        assert slashed(text) == text, text


def test_a_greek_letters_state_or_mass_is_in_its_word():
    from digest.ranking.symbols import states

    assert states("ψ(2s) and λ(1405)$") == "ψ\ufdd02s\ufdd1 and λ\ufdd01405\ufdd1"
    for text in ("ζ(2)", "f(1s)", "ψ(2)", "aψ(2s)", "ψ(12345)"):
        assert states(text) == text, text


def test_a_theorys_number_of_supersymmetries_is_one_word_and_a_sample_size_is_not():
    from digest.ranking.symbols import EQUALS, supersymmetries

    for text in (r"$\mathcal{N}=4$ SYM", "N=4 SYM", "N = 4 super Yang-Mills", "𝒩=4 theories"):
        assert f"N{EQUALS}4" in supersymmetries(text), text
    for text in ("N=4 samples", "n=4 SYM", "(N=12) participants", "AN=4 SYM", "x=4"):
        assert supersymmetries(text) == text, text


def test_an_infinity_before_a_hyphen_is_the_word_infinity():
    from digest.ranking.symbols import infinities

    for text in ("∞-categories", r"$\infty$-categories", r"$(\infty,1)$-categories", "(∞,n)-topoi"):
        assert infinities(text).startswith("infinity-"), text
    for text in ("l∞-norm", r"l$_{\infty}$-algebra", "h∞ control", "∞ - 1"):
        assert infinities(text) == text, text


def test_a_unit_is_read_by_its_case_and_its_capitals_are_an_acronym():
    """ "GHZ states" (Greenberger-Horne-Zeilinger) had been the unit GHz: a GHZ reader got GHz
    radio papers, "why: ghz"; "MPC" (model predictive control) megaparsecs, "EV" electronvolts."""
    from digest.ranking.tokens import analyze

    for unit, acronym in [("1.4 GHz", "GHZ states"), ("10 Mpc", "MPC controller"),
                          ("2 eV", "EV charging"), ("5 pc", "PC algorithm"), ("1 GeV", "GEV model"),
                          ("12 kpc", "KPC"), ("the GHz band", "the GHZ")]:  # fmt: skip
        unit_word, acronym_word = analyze(unit)[0], analyze(acronym)[0]
        assert unit_word == unit_word.lower() and acronym_word == acronym_word.upper()
        assert unit_word == acronym_word.lower() and unit_word != acronym_word, unit
    # After a number, a unit in capitals is the unit (a title in capitals); a word holding the
    # letters is no acronym of a unit.
    assert analyze("AT 1.4 GHZ") == analyze("at 1.4 GHz") == ["ghz"]
    assert analyze("NMPC and MPCs and GHz-band") == ["nmpc", "mpcs", "ghz", "band", "ghz band"]
    assert analyze("GHZ-type states") == ["GHZ", "type", "states", "GHZ type", "type states"]


def test_a_unit_that_names_nothing_is_its_numbers_and_its_capitals_an_acronym():
    """ "20 kV", "5 mL", "10 ms", "1 mm", "2 kg", "5 ns" had been the acronyms KV, ML, MS, MM, KG,
    NS: a thin-film reader's "RHEED at 20 kV" picked KV-cache papers first, "why: matched kv"
    (rank21 F1). After a number the unit joins it (as "21 cm"); in capitals not after a number
    it is an acronym of its own; alone in small letters, a word ("mm-wave", a reader's "ml")."""
    from digest.ranking.tokens import analyze

    for quantity, acronym in [("20 kV", "KV cache"), ("5 mL", "ML models"), ("10 ms", "MS data"),
                              ("1 mm", "MM algorithm"), ("2 kg", "KG embeddings"),
                              ("5 ns", "NS mergers")]:  # fmt: skip
        number, unit = quantity.split()
        assert analyze(quantity) == [number + unit.lower()], quantity
        assert analyze(f"a {number}-{unit} cell") == [
            number + unit.lower(),
            "cell",
            f"{number}{unit.lower()} cell",
        ]
        word = analyze(acronym)[0]
        assert word == unit.upper() and word.lower() not in analyze(f"at {quantity}"), acronym
    assert analyze("LC-MS/MS analysis")[:3] == ["lc", "MS", "MS"]  # after a hyphen too
    assert analyze("USING 5 ML OF WATER") == ["5ml", "water"]  # a title in capitals
    assert analyze("mm-wave radar")[:2] == ["mm", "wave"] and analyze("1.3 mm dust") == [
        "mm",
        "dust",
        "mm dust",
    ]


def test_a_greek_letters_name_before_its_state_is_the_letter():
    """ "psi(2S)" had been "psi", "2s", and "ψ(2S)" "ψ(2s)": two terms for one particle."""
    from digest.ranking.tokens import analyze

    for named, lettered in [("psi(2S) production", "ψ(2S) production"),
                            ("Upsilon(1S) decays", "Υ(1S) decays"), ("Psi(3770)", "ψ(3770)"),
                            ("Lambda(1405) baryon", "Λ(1405) baryon"),
                            (r"$\psi(2S)$ production", "ψ(2S) production")]:  # fmt: skip
        assert analyze(named) == analyze(lettered), named
    assert analyze("psi(2S) production")[0] == "ψ(2s)"
    assert "ψ(2s)" not in analyze("the psi (2S) state")  # apart: a word and a bracket
    assert analyze("collapse(2s) and epsilon(2s)")[0] == "collapse"  # no letter's name


def test_a_theorys_number_of_supersymmetries_in_any_calligraphic_spelling():
    """A reader's "${\\cal N}=4$" and "$\\mathscr{N}=4$" had read no n=4."""
    from digest.ranking.tokens import analyze

    for text in (r"${\cal N}=4$ SYM", r"$\mathscr{N}=4$ SYM", r"$\cal N=4$ SYM",
                 r"${\mathcal N}=4$ SYM", r"$\mathcal{N} = 4$ SYM", "N=4 SYM"):  # fmt: skip
        assert analyze(text) == ["n=4", "sym", "n=4 sym"], text
    assert "n=2" in analyze(r"${\cal N}=2$ super Yang-Mills")


def test_every_unit_whose_capitals_are_an_acronym_is_read_by_its_case():
    """Beyond kV/mL/ms/mm/kg/ns, "10 dB" and "DB" had both been "db": a "DB systems" reader got
    denoising and mmWave papers, "why: db" (reg34 F3); "MT" (machine translation) met "5 mT",
    "MW" (the Milky Way) "5 mW", "FS" "100 fs". After a number the unit joins it; in capitals
    not after a number it is an acronym; alone in its own case a word in small letters."""
    from digest.ranking.tokens import analyze

    for quantity, acronym in [("10 dB", "DB query engines"), ("20 mV", "MV stereo"),
                              ("5 mW", "MW halo"), ("3 kW", "KW extraction"),
                              ("2 mT", "MT systems"), ("100 fs", "FS methods"),
                              ("5 ps", "PS images"), ("5 mA", "MA model"), ("10 pM", "PM data"),
                              ("64 kB", "KB question answering"), ("50 mK", "MK dwarfs"),
                              ("5 mg", "MG theory"), ("10 pF", "PF tracking"),
                              ("16 GB", "GB trees"), ("2 TB", "TB screening")]:  # fmt: skip
        number, unit = quantity.split()
        assert analyze(quantity) == [number + unit.lower()], quantity
        assert analyze(f"at {number}-{unit}")[0] == number + unit.lower(), quantity
        word = [w for w in analyze(acronym) if " " not in w]
        assert word[0] == unit.upper() and unit.lower() not in analyze(f"at {quantity}"), acronym
        if not unit.isupper():  # "GB" not after a number is the acronym
            assert analyze(f"in {unit} scale")[0] == unit.lower(), unit
    assert analyze("AT 10 DB SNR") == ["10db", "snr", "10db snr"]  # a title in capitals
    assert "db" in analyze("gains 0.6 dB PSNR")  # a decimal's unit: a word, no acronym


def test_an_acronym_after_a_names_digit_is_the_acronym_and_after_a_number_the_unit():
    """ "GPT-4 MT", "TNG50 MW", "HIV-1 TB" had read the capitals as a unit after a number, which
    no number joined (a name's digit): a bare "mt", "mw", "tb" that no "MT", "MW", "TB" reader
    met (reg37 F2). After a letter or a word's hyphen a digit is a name's; a range, a decimal and
    a number apart are still numbers."""
    from digest.ranking.tokens import analyze

    for text, acronym in [("GPT-4 MT evaluation", "MT"), ("TNG50 MW analogues", "MW"),
                          ("HIV-1 TB coinfection", "TB"), ("Gaia DR3 MW stars", "MW"),
                          ("Llama-3 KV cache", "KV"), ("COVID-19 MS patients", "MS"),
                          ("TNG100 MW/M31-like galaxies", "MW")]:  # fmt: skip
        words = analyze(text)
        assert acronym in words and acronym.lower() not in words, text
    for text, word in [("a 5 MW turbine", "5mw"), ("10-20 MW farms", "mw"), ("AT 1.4 GHZ", "ghz"),
                       ("a 16-GB card", "16gb"), ("IN 0.5 MS", "ms")]:  # fmt: skip
        assert word in analyze(text), text

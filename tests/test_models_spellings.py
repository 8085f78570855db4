"""A word's other spellings: British English as American English spells it, by rule where there
is one, and numbers in words."""

from __future__ import annotations

import pytest

from digest.models.spellings import spellings, stems


@pytest.mark.parametrize(
    ("british", "american"),
    [
        ("catalogue", "catalog"), ("monologues", "monologs"), ("epilogue", "epilog"),
        ("programme", "program"), ("kilogrammes", "kilograms"),
        ("sulphide", "sulfide"), ("disulphide", "disulfide"),
        ("defence", "defense"), ("offences", "offenses"), ("licenced", "licensed"),
        ("haematology", "hematology"), ("leukaemia", "leukemia"), ("foetus", "fetus"),
        ("oestrogen", "estrogen"), ("caesium", "cesium"), ("manoeuvre", "maneuver"),
        ("manoeuvring", "maneuvering"), ("manoeuvred", "maneuvered"), ("anaemia", "anemia"),
        ("palaeontology", "paleontology"), ("sceptical", "skeptical"), ("enquiries", "inquiries"),
        ("grey", "gray"), ("discs", "disks"), ("tyres", "tires"), ("mould", "mold"),
    ],
)  # fmt: skip
def test_a_british_spelling_has_its_american_one_by_rule_or_by_the_word(
    british: str, american: str
) -> None:
    """Only an s for a z and one edit had been one word: "catalogue", "programme", "sulphur",
    "defence" had been other words than their American spellings (reg31)."""
    assert spellings(british) == {british, american}


@pytest.mark.parametrize(
    "word",
    ["aerosol", "aerial", "poets", "does", "canoes", "michael", "tongue", "dense", "discrete",
     "maestro", "daemon", "noether", "goethe", "saedit", "moediff", "emergence", "presence",
     "science", "vogue", "rogue", "streamme", "alumina"],
)  # fmt: skip
def test_a_word_no_rule_fits_has_no_other_spelling(word: str) -> None:
    """The "ae"/"oe" and "-ence" rules are for British roots only: out of any word they had made
    "maestro" "mestro", "emergence" "emergense", and "-mme" "streamme" "stream" (reg32)."""
    assert spellings(word) == {word}


@pytest.mark.parametrize(
    ("digits", "words"),
    [("12", "twelve"), ("20", "twenty"), ("1st", "first"), ("2nd", "second"), ("3rd", "third"),
     ("11th", "eleventh"), ("11d", "elevendimensional"), ("100", "hundred")],
)  # fmt: skip
def test_a_number_in_digits_is_one_stem_with_it_in_words(digits: str, words: str) -> None:
    assert not stems(digits).isdisjoint(stems(words))


@pytest.mark.parametrize(
    ("one", "other"),
    [("100", "hundreds"), ("1000", "thousands"), ("2nd", "seconds"), ("10", "tens"),
     ("1", "ones"), ("17", "seventeens"), ("alumina", "aluminium"), ("aluminas", "aluminium"),
     ("analogue", "analogy"), ("analogues", "analogies"), ("maestro", "metro")],
)  # fmt: skip
def test_a_spelling_is_one_whole_form_never_cut_again(one: str, other: str) -> None:
    """A number's and a British word's other spelling had been cut again by the plural rules:
    "hundreds" (a plural of "hundred") had been "100", "seconds" "2nd", "alumina" (a plural's
    "aluminum") "aluminium" (reg32)."""
    assert stems(one).isdisjoint(stems(other))


@pytest.mark.parametrize(
    ("british", "american"),
    [("catalogues", "catalog"), ("catalogue", "catalogs"), ("discs", "disk"), ("greys", "gray"),
     ("aluminium", "aluminum"), ("programmes", "program"), ("chi", "χ"), ("deltas", "δ"),
     ("child", "childrens")],
)  # fmt: skip
def test_a_spelling_or_name_and_its_plural_are_one_stem(british: str, american: str) -> None:
    assert not stems(british).isdisjoint(stems(american))


@pytest.mark.parametrize(
    ("british", "american"),
    [("greyscale", "grayscale"), ("ploughing", "plowing"), ("mouldy", "moldy"),
     ("odour", "odor"), ("malodours", "malodors"), ("colourisation", "colorization"),
     ("unfavourable", "unfavorable"), ("anaesthetised", "anesthetized"),
     ("haemolysed", "hemolyzed"), ("learnt", "learned"), ("spelt", "spelled"),
     ("practising", "practicing"), ("jewellery", "jewelry"), ("cosy", "cozy")],
)  # fmt: skip
def test_a_british_spelling_in_a_longer_or_short_word_or_two_families_is_american_too(
    british: str, american: str
) -> None:
    """Only a whole _WORDS word and one edit of 5+ letters had been read: "Greyscale …",
    "Odour …", "Lessons learnt …" and "colourisation" (two edits) had been other papers than
    their American copies, sent twice (reg34)."""
    assert american in spellings(british)


@pytest.mark.parametrize("word", ["four", "hour", "tour", "your", "contour", "discrete", "three"])
def test_an_our_or_root_rule_reads_only_british_roots(word: str) -> None:
    """ "four" is no "for", "tour" no "tor", "discrete" no "diskrete"."""
    assert spellings(word) == {word}


@pytest.mark.parametrize(
    ("british", "american"),
    [("centreline", "centerline"), ("centrelines", "centerlines"), ("fibreglass", "fiberglass"),
     ("centrepiece", "centerpiece"), ("theatregoer", "theatergoer"), ("metreage", "meterage"),
     ("metrewave", "meterwave"), ("litres", "liters"), ("sabretooth", "sabertooth")],
)  # fmt: skip
def test_a_british_re_root_opening_a_longer_word_is_american_too(
    british: str, american: str
) -> None:
    """ "-re" for "-er" had been one edit only at the word's end ("centres"): within a longer
    word it was two letters swapped, a typo's, and "Centreline …" without authors another paper
    than "Centerline …" (reg36)."""
    assert american in spellings(british)
    assert not stems(british).isdisjoint(stems(american))


@pytest.mark.parametrize(
    "word", ["centred", "central", "centrality", "metric", "metrology", "spectral", "literature"]
)
def test_an_re_rule_reads_only_the_british_roots(word: str) -> None:
    assert spellings(word) == {word}


@pytest.mark.parametrize(
    ("british", "american"),
    [("kilometrescale", "kilometerscale"), ("millimetrewave", "millimeterwave"),
     ("submillimetrewave", "submillimeterwave"), ("nanofibreglass", "nanofiberglass"),
     ("centimetrescale", "centimeterscale")],
)  # fmt: skip
def test_a_british_re_root_after_a_units_prefix_is_american_too(
    british: str, american: str
) -> None:
    """The "-re" rule anchored at the word's start had missed "kilometrescale" and
    "millimetrewave": their titles without authors were other papers, sent twice (reg38)."""
    assert american in spellings(british)


@pytest.mark.parametrize("word", ["splitreason", "kilometric", "millimetric"])
def test_an_re_root_within_a_word_is_read_only_after_a_prefix(word: str) -> None:
    """ "splitreason" holds "litre": read anywhere, it had been "spliterason"."""
    assert spellings(word) == {word}

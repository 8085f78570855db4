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
        ("oestrogen", "estrogen"), ("caesium", "cesium"), ("manoeuvre", "maneuvre"),
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
    ["aerosol", "aerial", "poets", "does", "canoes", "michael", "tongue", "dense", "discrete"],
)
def test_a_word_no_rule_fits_has_no_other_spelling(word: str) -> None:
    assert spellings(word) == {word}


@pytest.mark.parametrize(
    ("digits", "words"),
    [("12", "twelve"), ("20", "twenty"), ("1st", "first"), ("2nd", "second"), ("3rd", "third"),
     ("11th", "eleventh"), ("11d", "elevendimensional"), ("100", "hundred")],
)  # fmt: skip
def test_a_number_in_digits_is_one_stem_with_it_in_words(digits: str, words: str) -> None:
    assert words in stems(digits)
    assert digits in stems(words)

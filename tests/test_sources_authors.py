"""Author lists as each source format writes them become 'First Last' names, one per author:
bioRxiv's "Last, F." lists, BibTeX's "and", semicolons, "et al.", suffixes and collaborations."""

from __future__ import annotations

import pytest

from digest.sources.authors import one, split


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # bioRxiv / medRxiv dc:creator: surname, initials, surname, initials...
        (
            "Kukla, D., Crampton, A., Wood, D., Khetani, S.",
            ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani"),
        ),
        ("Li, X., Wang, Y. Z., Serre, J.-P.", ("X. Li", "Y. Z. Wang", "J.-P. Serre")),
        # BibTeX and Zotero: "Last, First and Last, First", "and others"
        ("Lovelace, Ada and Turing, Alan and others", ("Ada Lovelace", "Alan Turing")),
        (
            "van der Berg, Jan and García Márquez, Gabriel",
            ("Jan van der Berg", "Gabriel García Márquez"),
        ),
        # a feed's one string of whole names, with a final "and" or "&"
        (
            "Ada Lovelace, Alan Turing, and Grace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        ("Ada Lovelace & Alan Turing", ("Ada Lovelace", "Alan Turing")),
        # semicolons (CSV exports) in either order of the parts
        ("Smith, J.; Doe, Jane; Grace Hopper", ("J. Smith", "Jane Doe", "Grace Hopper")),
        ("A. Smith, B. Jones et al.", ("A. Smith", "B. Jones")),
        # suffixes stay with their own name, wherever the export put them
        ("Reagle, Jr., Joseph M.", ("Joseph M. Reagle Jr.",)),
        ("Smith, John, Jr. and Doe, J.", ("John Smith Jr.", "J. Doe")),
        # a collaboration is an author of its own; affiliations in parentheses are not names
        (
            "L. Adamczyk, J. K. Adkins (STAR Collaboration)",
            ("L. Adamczyk", "J. K. Adkins", "STAR Collaboration"),
        ),
        ("Ada Lovelace (University of London)", ("Ada Lovelace",)),
        # a year or a number is never a name
        ("Smith, J. and 2019", ("J. Smith",)),
        ("Anderson, Paul", ("Paul Anderson",)),  # "and" inside a name does not split it
        # several given names after a one-word surname: one person, not "Maldacena" and "Juan"
        (
            "Maldacena, Juan Martin and Ayan, Burcu Karagol",
            ("Juan Martin Maldacena", "Burcu Karagol Ayan"),
        ),
        ("van der Berg, Jan Willem", ("Jan Willem van der Berg",)),
        ("", ()),
    ],
)
def test_each_format_splits_into_first_last_names(written: str, names: tuple[str, ...]) -> None:
    assert split(written) == names


def test_a_list_of_strings_is_split_item_by_item_without_duplicates() -> None:
    assert split(["Lovelace, Ada", "Alan Turing", "Ada Lovelace"]) == (
        "Ada Lovelace",
        "Alan Turing",
    )


def test_braces_keep_a_corporate_name_whole() -> None:
    assert split("{Barnes and Noble} and Doe, J.") == ("{Barnes and Noble}", "J. Doe")


def test_one_name_is_turned_round() -> None:
    assert one("Reagle, Jr., Joseph M.") == "Joseph M. Reagle Jr."
    assert one("Joseph M. Reagle Jr.") == "Joseph M. Reagle Jr."

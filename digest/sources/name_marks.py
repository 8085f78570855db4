"""What a name carries that is no part of it: a title before it ("Dr. Jane Doe") and the
marks after it that point to an affiliation or a footnote ("Jane Doe1", "Jean DUPONT*")."""

from __future__ import annotations

import re

# What a name carries that is no part of it, so that a followed "Jane Doe" had not matched: a
# title before it ("Dr. Jane Doe", "Prof. Dr. Jan Berg"), an affiliation's mark after it ("Doe*",
# "Smith†", "Lee¹²", "Doe#" for equal contribution, "Doe✉" for the corresponding author, LaTeX's
# "Doe$^{1}$"), and "Doe1", "DUPONT1" or "Doe 1" where the name has two words ("Team Qwen2" is
# a team's). Only "Doe1" and "Doe*" had gone: "Jean DUPONT1" and "Jane Doe 1" were no Jane Doe.
_TITLE = re.compile(r"^(?:(?:Dr|Prof|Professor)\.?\s+)+(?=[^\W\d_])")
# Each mark a symbol's run, LaTeX's superscript or (_NUMBERED) a number of one or two digits, the
# whole run of them matched once from the letter before it (possessive: no run tried two ways).
_SYMBOL = r"[*#†‡§¶‖∗⁎✉✝★☆♠♣♦♥\ufe0f\u00b9\u00b2\u00b3\u2070-\u207a]++"
_LATEX = r"\$[^$]*\^[^$]*\$|\\textsuperscript\{[^{}]*\}"
# After a letter (or a digit, for a symbol), or after a letter's dot: "Roberto M. Cesar Jr.3" and
# "Rakshitha R. T.†" had kept their marks.
_DOT = r"(?<=[^\W\d_]\.)"
_MARKS = re.compile(rf"(?:(?<=[^\W_])|{_DOT})(?:\s?(?:{_SYMBOL}|{_LATEX}))++$")
_NUMBER = r"(?<!\d)\d{1,2}(?!\d)"
_NUMBERED = re.compile(rf"(?:(?<=[^\W\d_])|{_DOT})(?:\s?(?:{_SYMBOL}|{_LATEX}|{_NUMBER}))++$")
# Dotted initials alone before a number ("Doe, J.1, Smith, J.2"): its mark, as no initial's own.
_INITIALS_NUMBERED = re.compile(r"^(?:[^\W\d_]\.-?)+\d{1,2}$")
# "AI" in capitals is a team's ("Sakana AI 2"); "Ai" is a surname ("Yuhang Ai 1" had kept its mark).
_TEAM = re.compile(r"\b(?:(?i:team|collaboration|consortium|group|lab|project)|AI)\b")


def unmarked(name: str) -> str:
    """A name without the marks after it, however many ("Doe1*", "Doe #1"); a number only
    after a name of two words or more that is no team's, or after dotted initials ("J.1")."""
    if name[-1:].isascii() and name[-1:].isalpha():
        return name  # most names: no mark ends in a letter
    numbered = (" " in name.strip() and not is_team(name)) or bool(_INITIALS_NUMBERED.match(name))
    return (_NUMBERED if numbered else _MARKS).sub("", name, count=1)


def untitled(name: str) -> str:
    """A name without the titles before it: "Prof. Dr. Jan Berg" is Jan Berg."""
    return _TITLE.sub("", name, count=1)


def is_team(name: str) -> bool:
    """Whether a name is a team's, a collaboration's or a lab's, whose digits are its own."""
    return bool(_TEAM.search(name))

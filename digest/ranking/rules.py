"""A reader's exclude words and alert keywords as one pattern, which finds them in a text as the
analyzer reads it: whole words, plurals, spellings."""

from __future__ import annotations

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass

from digest.ranking.cases import SPLIT, name_of
from digest.ranking.plurals import cased, other
from digest.ranking.spellings import unit
from digest.ranking.symbols import UNITS, series
from digest.ranking.tokens import (
    ASCII_MARKS,
    CJK_RUN,
    GREEK,
    LETTER_NAMES,
    SYMBOL_VERSION,
    fold,
    no_rule,
    respelled,
    rule_words,
)
from digest.ranking.units import UNIT_ACRONYM, name_digits, unit_case


@dataclass(frozen=True, slots=True)
class Phrases:
    """Words or phrases found in a text as the analyzer reads it: whole words, plurals too, any
    case, accents and hyphens aside ("naive" finds "Naïve", "fine-tuning" finds "fine tuning"
    and "finetuning", "pretraining" finds "pre-training"), a Greek letter as its name or in
    LaTeX and LaTeX's math letters as typed ("α-synuclein" finds "alpha-synuclein" and
    "$\\alpha$-synuclein", "p-adic" finds "$p$-adic"), a subscript's digits in their word ("MoS2"
    finds "MoS$_2$"), a hydrogen series line however written ("Lyman-α" finds "Lyα")."""

    regex: re.Pattern[str]

    def search(self, text: str) -> re.Match[str] | None:
        text = series(respelled(text))
        return self.regex.search(text if text.isascii() else fold(text).translate(ASCII_MARKS))


@functools.lru_cache(maxsize=4096)
def phrases_pattern(words: tuple[str, ...]) -> Phrases | None:
    """exclude_pattern() of these words, built once."""
    return exclude_pattern(words)


def exclude_pattern(words: Collection[str]) -> Phrases | None:
    """One pattern for a subscriber's exclude list (or alert keywords)."""
    # The rule's own typographic marks too ("Alzheimer’s", "fine‐tuning"), as the text's; a rule
    # in quotes, with a full stop or as a comma list had matched nothing, as the ranking reads it.
    # The minus sign as a hyphen: "−1", copied from a paper's PDF, had been one word of letters
    # and found "−1.5" but no "-1" (reg45 F5).
    rules = [_unmarked(r).replace("\u2212", "-") for w in words for r in _listed(w)]
    phrases = [_signed(w, _apart(rule_words(w))) for w in map(series, map(respelled, rules))]
    parts = [_bounded(phrase) for phrase in phrases if not no_rule(phrase)]
    if not parts:
        return None
    return Phrases(re.compile("|".join(parts), re.IGNORECASE))


_LIST, _QUOTES = re.compile(r"[,;]\s"), "\"'\u201c\u201d\u2018\u2019\u00ab\u00bb"
# An abbreviation keeps its full stop: dotted initials ("U.S.", "e.g.") and the usual short
# words, by their case ("No." is no "NO.", "Co." no "CO."); "DNA." or "NFT." ends a sentence.
_ABBREVIATION = re.compile(
    r"(?:(?:\b[^\W\d_]\.){2,}|\b(?:Inc|Ltd|Co|Corp|Dr|Mr|Mrs|Ms|No|vs|al|St|Jr|Sr|Fig|Eq|etc|cf)\.)$"
)


def _listed(rule: str) -> list[str]:
    """The rules a rule holds: a list's items ("diffusion, transformers"), but a rule in quotes is
    one, and so is a name whose comma is its own: "Cu, Zn superoxide dismutase" and "1, 2,
    3-triazole" had been the rules "Cu" and "1", which excluded every copper paper."""
    quoted = rule.strip()
    if len(quoted) > 1 and quoted[0] in _QUOTES and quoted[-1] in _QUOTES:
        return [quoted]
    items = [item.strip() for item in _LIST.split(rule)]
    *head, last = items
    if any(item.isdigit() for item in items):  # a chemical name's locants: "1, 2, 3-triazole"
        return [rule]
    # Symbols before a name of several words that opens with one ("Cu, Zn superoxide
    # dismutase", "Mn, Fe oxides"); "AI, ML, NLP" and "Fe; Ni" are lists.
    if head and len(words := last.split()) > 1 and all(len(i) <= 2 for i in [*head, words[0]]):
        return [rule]
    return items


def _unmarked(rule: str) -> str:
    """The rule without its quotes and a sentence's closing mark; an abbreviation keeps its full
    stop ("U.S." as "U.S" had found "U. Smith", and "Inc." was no rule)."""
    rule = rule.strip().strip(_QUOTES).strip()
    if _ABBREVIATION.search(rule):
        return rule
    return rule.rstrip(".!?:").strip()


def _bounded(phrase: list[str]) -> str:
    """The phrase as a whole word: no letter just before or after it, unless it begins or ends
    in Chinese, Japanese or Korean, whose words are written without spaces between them."""
    start = "" if CJK_RUN.match(phrase[0][0]) else r"(?<!\w)"
    end = "" if CJK_RUN.match(phrase[-1][-1]) else r"(?!\w)"
    if end and phrase[-1][-1] in "+#":  # "C++" finds "C++17", not a pitch "C#4": as analyzed
        end = rf"(?:{SYMBOL_VERSION}|(?![\w+#]))"
    elif end and not phrase[-1][-1].isalnum():
        end = r"(?![^\W\d])"
    return f"{start}(?:{_plurals(phrase)}){end}"


def _plurals(phrase: list[str]) -> str:
    """The phrase with its last word in the singular or a regular plural: -s, -es, and policy ->
    policies, analysis -> analyses; a word written in the plural also matches its singular
    (models -> model, LLMs -> LLM, studies -> study, approaches -> approach)."""
    *head, last = phrase
    numbered = [_NUMBER.fullmatch(word.lstrip("-")) is not None for word in phrase]
    spell = functools.partial(
        _spelled, alone=not head, numbered=bool(head) and numbered[-2], named=bool(head)
    )
    # A word of letters in its other number as the ranking reads it (plurals.other): "scaling
    # laws" had missed "scaling law", "gender biases" "gender bias", "X-rays" "X-ray", and
    # "goods" would find "good" (rank24 F1, F3, F4, F6); a number, a mark or a unit keeps its
    # -s, which the unit's own spelling guards ("Mpc" finds no "MPCs").
    if name_of(last) in SPLIT:  # "pLMs" as "pLM": 76 of its 85 papers had been "PLMs" (reg46)
        forms = [spell(name_of(last)) + "(?-i:s)?"]  # "GaNs", as the ranking reads it (cases.py)
    elif last.isalpha() and not _unit(last):
        forms = [spell(last), *(spell(cased(last, f)) for f in other(last.lower()))]
        forms += _acronym(last, spell)
    else:
        forms = [spell(last) + "(?:e?s)?"]
    # Words of a phrase apart or joined: "fine tuning" finds "fine-tuning" and "finetuning";
    # "Navier-Stokes" the name pair as journals write it, "Navier–Stokes" (an en dash).
    heads = [_spelled(w, False, i > 0 and numbered[i - 1], i > 0) for i, w in enumerate(head)]
    return _BETWEEN.join([*heads, "(?:" + "|".join(forms) + ")"])


_BETWEEN = "[\\s\\-\u2010-\u2014]*"
# A number with its thousands separated ("1,000") is a number too: "1,000 MW" had been no rule's
# quantity, its "MW" the acronym that no number comes before, and it found nothing (reg41 F2).
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_NUMBER = re.compile(_DIGITS)
# A number and its unit run together ("5MW", "3dB", "21cm") are the two words, as the analyzer
# reads "5MW" and "5 MW" alike ('5mw'): "5MW" had been one word, and missed "5 MW" (reg41 F10).
_JOINED = re.compile(rf"({_DIGITS})([^\W\d_]+)")


def _apart(phrase: list[str]) -> list[str]:
    """The rule's words, a number and its unit written together as two: "5MW" is "5 MW"."""
    words: list[str] = []
    for word in phrase:
        joined = _JOINED.fullmatch(word)
        words += joined.groups() if joined and _unit(joined[2]) else [word]
    return words


def _signed(rule: str, phrase: list[str]) -> list[str]:
    """The rule's words with a number's minus sign kept ("-1", "w = -1", "-40 C"): the words had
    dropped it, and "-1" excluded every paper with a "1" (reg44 F4). A hyphen after a letter or
    a digit joins ("COVID-19", "10-20 GHz")."""
    signs = [
        m.start() > 0 and rule[m.start() - 1] in _MINUS and not rule[: m.start() - 1][-1:].isalnum()
        for m in re.finditer(r"(?<![\d.,])\d", rule)
    ]
    at = [i for i, word in enumerate(phrase) if word[:1].isdigit()]
    if len(at) != len(signs) or not any(signs):
        return phrase
    return ["-" + w if i in {a for a, sign in zip(at, signs, strict=True) if sign} else w
            for i, w in enumerate(phrase)]  # fmt: skip


_MINUS = "-\u2212"


def _unit(letters: str) -> bool:
    """Are the letters a unit's, in any case the analyzer reads as one after a number?"""
    low = letters.lower()
    return low in UNITS or bool(UNIT_ACRONYM.fullmatch(low)) or unit_case(letters) or unit(letters)


def _number(word: str, alone: bool, named: bool = False) -> str:
    """A number as a whole, with its thousands separated or not ("1,000", "1000", LaTeX's
    "1{,}000", "1\\,000"): never the tail of another number. "5 MW" had found "2.5 MW", "3 dB"
    "1.3 dB", "100 GB" "1.100 GB", read by the analyzer as no such quantity (reg41 F1). Only a
    comma before three digits separates thousands, and a decimal is no decimal comma's tail:
    "0.5" finds the list "2,1.5,1,0.5" (reg44 F3), "3 dB" still not "1,3 dB". A rule of four
    digits alone that read as a year is the year: "2023" is not "2,023 participants". Nor is it
    another number's head, but after a name, its version ("Python 3" finds "Python 3.12"): "1"
    had found "1.5 GPUs", "-1" "-1.5", "2023" "2023.5" (rank25 L2)."""
    whole, point, fraction = word.replace(",", "").partition(".")
    groups = [whole[max(0, end - 3) : end] for end in range(len(whole), 0, -3)][::-1]
    year = alone and word == whole and len(whole) == 4 and whole[:2] in ("18", "19", "20")
    grouped = _THOUSANDS.join(groups) if len(groups) > 1 and not year else whole
    tail = _no_tail("." if point else whole)  # "1,0.5" is a list, no number
    head = "" if named else r"(?!\.\d)"
    return rf"{tail}(?:{whole}|{grouped}){re.escape(point + fraction)}(?!,\d{{3}}){head}"


def _no_tail(digits: str) -> str:
    """Never after another number's digits or its decimal point, nor a comma that may be a
    thousands separator or a decimal comma before up to three digits ("1,500", "1,3")."""
    return r"(?<!\d)(?<!\d\.)" + (r"(?<!\d,)" if digits.isdigit() and len(digits) <= 3 else "")


_THOUSANDS = r"(?:,|\{,\}|\\,)"


def _spelled(word: str, alone: bool, numbered: bool = False, named: bool = False) -> str:
    """A word with or without a hyphen inside: "pretraining" finds "pre-training". A Greek
    letter is also its name, and a name its letter, as the analyzer reads them in a term
    ("Hα" finds "H-alpha", "alpha helix" "α-helix"); a rule of a letter alone is that letter.
    A unit's letters in capitals after the rule's own number (numbered) are the unit."""
    if word[:1] == "-":
        return rf"[{_MINUS}]\s?" + _spelled(word[1:], alone, numbered, named)
    if _NUMBER.fullmatch(word):
        return _number(word, alone, named)
    if lead := re.match(r"\d+", word):
        # A percentage or a multiplier is whole as a number is: "7B" had found "6.7B", "5%"
        # "4.5%", "1% precision" "0.1% precision" (reg44 F1).
        return _no_tail(lead[0]) + _lettered(word, alone, numbered)
    return _lettered(word, alone, numbered)


def _lettered(word: str, alone: bool, numbered: bool) -> str:
    if word in SPLIT:  # "GaN" is no "GAN": an alert had fired on 130 GAN papers (rank25 F5)
        return f"(?-i:{re.escape(word)})"
    if (letter := GREEK.get(word.lower())) and not alone:
        return f"(?:{re.escape(word)}|{letter})"
    if word.isupper() and UNIT_ACRONYM.fullmatch(word.lower()):
        # An acronym in capitals is no unit: an "ML" rule had excluded "10 mL of ethanol". A
        # name's digit is no number: "MT" had missed "GPT-4 MT", "TB" "HIV-1 TB" (reg37 F2).
        acronym = rf"(?<!\d)(?:(?<!\d[\s-])|{_NAME_DIGITS})(?-i:{word})"
        # After the rule's own number it is the unit, as the analyzer reads "5 MW" ('5mw'): the
        # number had been taken for text before the acronym, and "5 MW" found nothing (reg39 F3).
        return rf"(?:(?:{_AFTER_NUMBER}){re.escape(word)}|{acronym})" if numbered else acronym
    if unit_case(word):
        # A unit in its own case is no acronym: a radio astronomer's "GHz" alert had found "GHZ
        # states", a "Mpc" rule "MPC" (model predictive control), "mL" every "ML" paper. Its
        # capitals after a number are still the unit ("1.4 GHZ" in a title in capitals).
        not_capitals = rf"(?!(?-i:{word.upper()})(?:e?s)?(?!\w))"
        return rf"(?:{_AFTER_NUMBER}|{not_capitals})" + re.escape(word)
    if (alone and len(word) == 1) or unit(word):
        return re.escape(word)
    return "-?".join(
        f"(?:{c}|{n})" if (n := LETTER_NAMES.get(c.lower())) else _PERCENT.get(c, re.escape(c))
        for c in word
    )


# LaTeX's percent sign, "5\%" and "$5\%$", which a rule's "5%" had missed (rank25 L2).
_PERCENT = {"%": r"\\?%"}


def _acronym(word: str, spell: functools.partial[str]) -> list[str]:
    """An acronym's other number by its letters as written: "LM" finds "LMs", "LMs" and "KPIs"
    their "LM", "KPI" (a word under three letters has no other number, and "kpis" reads as an
    -is singular, reg45 F2). Not "LMS" (least mean squares), nor "HA" "has"; the singular in
    capitals at both ends: "ADs" had found the "ad" of "ad hoc", "MRs" "Mr" (reg46 F5); "EOSs"
    finds "EoS" (reg48 F2)."""
    if word.isupper() and len(word) > 1:
        return [f"(?-i:{re.escape(word)}s)"]
    if len(word) > 2 and word[:-1].isupper() and word[-1] == "s":
        one = word[:-1]
        if not one.isalpha():
            return [f"(?-i:{spell(one)})"]
        inner = "".join(f"[{c}{c.lower()}]" for c in one[1:-1])
        return [f"(?-i:{one[0]}{inner}{one[-1]})"]
    return []


_NAME_DIGITS = "|".join(name_digits())
_NOT_NAME_DIGITS = "".join(look.replace("(?<=", "(?<!", 1) for look in name_digits())
_AFTER_NUMBER = rf"(?<=\d)|(?<=\d[\s-]){_NOT_NAME_DIGITS}"  # "5 MW", "5-MW", "5MW"

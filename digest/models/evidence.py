"""What records of papers say of themselves: whether two that share a title are two papers after
all (by their authors, or as two items of one feed), where their keys alone would make them one;
and one record per paper of a list (dedupe), as the catalogue keeps them."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from urllib.parse import parse_qsl, urlencode, urlsplit

from digest.models.identity import (
    GUID,
    STRONG,
    keys,
    kind,
    loose_title_hash,
    merge,
    same_paper,
)
from digest.models.placeholders import placeholder
from digest.models.texts import APOSTROPHE, bare_abstract, folded, normalize
from digest.models.values import Paper
from digest.models.wording import same_title

# Names shorter than this say too little: a preprint's "B. Chen" and its journal version's "Bo
# Chen" share "chen" anyway, and an organisation's one name ("Nature") is no author list.
LEAST_AUTHORS = 2
# A library's records are its owner's own list, no feed's copies of one paper to guess at: two of
# one title by other people ("Lectures on quantum field theory" by Tong, and by Srednicki and
# Weinberg) had been one liked paper, the second's authors lost.
LIBRARY_AUTHORS = 1


def two_papers(
    known: Paper,
    known_guids: Iterable[str],
    other: Paper,
    other_keys: Iterable[str],
    least: int = LEAST_AUTHORS,
) -> bool:
    """Whether two records matched by title alone are two papers: each names two or more
    authors and no name of one shares a word with the other's ("Machine learning for quantum
    materials" by two groups), or both are items of one feed with ids of their own that differ
    and texts that differ (a weekly post, "This week in quantum materials", under one title).
    `least`: the authors each record must name for its names to count (a library's 1)."""
    return _other_authors(known, other, least) or _other_items(
        known, known_guids, other, other_keys
    )


def refuses(
    kind: str,
    known: Paper,
    known_guids: Iterable[str],
    other: Paper,
    other_keys: Iterable[str],
    least: int = LEAST_AUTHORS,
) -> bool:
    """Whether the records' own words refuse a match of their keys: a title match ('t') of two
    papers (or of a title and a name: 'n'), a text match ('a') that is no copy; any other match
    stands."""
    if kind in ("t", "n"):
        return two_papers(known, known_guids, other, other_keys, least)
    return kind == "a" and not copies(known, known_guids, other, other_keys, least)


def copies(
    known: Paper,
    known_guids: Iterable[str],
    other: Paper,
    other_keys: Iterable[str],
    least: int = LEAST_AUTHORS,
) -> bool:
    """Whether two records of one long text (texts.text_keys) are one paper: their titles are
    one paper's (wording.same_title), not two groups', not two items of one feed. A journal's
    blurb as every item's text had made "… in Parkinson's disease" and "… in Alzheimer's
    disease" one: 70% of the words had been enough."""
    if _other_authors(known, other, least) or _two_items(known_guids, other_keys):
        return False
    return same_title(known.title, other.title, _same_people(known, other))


def one_paper(
    key: str, known: Paper | None, known_ids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    """identity.same_paper, and two OpenReview forums of one work (one_work): a workshop's
    record and the main conference's, of one title, one author list and one text, had been two
    papers (two forums always differed), sent twice."""
    if same_paper(key, known_ids, other_keys):
        return True
    return (
        known is not None
        and same_paper(key, known_ids, other_keys, forums=False)
        and one_work(known, other)
    )


def one_work(known: Paper, other: Paper) -> bool:
    """Whether two records of two venues are one work: one title (as its keys read it), one
    author list, one text that is no placeholder. Two notes of one venue stay two papers."""
    if not known.venue or not other.venue or normalize(known.venue) == normalize(other.venue):
        return False
    title = loose_title_hash(known.title)
    if title is None or title != loose_title_hash(other.title) or not known.authors:
        return False
    return _name_words(known.authors) == _name_words(other.authors) and _one_text(known, other)


def vouched(known: Paper, other: Paper) -> bool:
    """Whether two records of one title say more than it that they are one paper: a name in
    common, or one text. A title alone folds no two stored papers into one (catalog's bridges)."""
    return _same_people(known, other) or _one_text(known, other)


def _one_text(known: Paper, other: Paper) -> bool:
    text = _told(bare_abstract(known.abstract))
    return bool(text) and text == _told(bare_abstract(other.abstract))


def _same_people(known: Paper, other: Paper) -> bool:
    """Do the two author lists share a name?"""
    mine, theirs = _name_words(known.authors), _name_words(other.authors)
    return bool(mine & theirs)


def _two_items(known_guids: Iterable[str], other_keys: Iterable[str]) -> bool:
    """Are these ids of two items of one feed (whatever their texts)?"""
    mine = {_item(k) for k in known_guids if k.startswith(f"{GUID}:")}
    theirs = {_item(k) for k in other_keys if k.startswith(f"{GUID}:")}
    if not mine or not theirs or not mine.isdisjoint(theirs):
        return False
    return not {_scope(k) for k in mine}.isdisjoint(_scope(k) for k in theirs)


def _other_authors(known: Paper, other: Paper, least: int = LEAST_AUTHORS) -> bool:
    if min(len(known.authors), len(other.authors)) < least:
        return False
    mine, theirs = _name_words(known.authors), _name_words(other.authors)
    # Names in two scripts (Chinese and romanized) say nothing of each other.
    return _latin(mine) == _latin(theirs) and mine.isdisjoint(theirs)


def _name_words(names: Iterable[str]) -> set[str]:
    """The names' words as ASCII writes them: "Müller" is "muller" and "mueller" (split at its
    mark, it had been "mu" and "ller"), "Głowacki" "glowacki", "Weiß" "weiss", "Kaʻiulani"
    "kaiulani": a preprint's names and its journal version's in ASCII had been two groups'."""
    text = APOSTROPHE.sub("", unicodedata.normalize("NFKD", " ".join(names)).lower())
    words: set[str] = set()
    for spelled in (text, _UMLAUT.sub(r"\1e", text)):  # "Mueller" is German's other spelling
        words.update(w for w in _WORD.findall(folded(spelled)) if len(w) > 1)
    return words


def _former_name_words(names: Iterable[str]) -> set[str]:
    """The names' words as n: keys were made before _name_words folded ł, ß, ...: those of the
    papers stored then."""
    marked = unicodedata.normalize("NFKD", " ".join(names)).lower()
    text = "".join(c for c in marked if not unicodedata.combining(c))
    return {w for w in _WORD.findall(text) if len(w) > 1}


def _latin(words: set[str]) -> bool:
    """Are the names in the Latin script (those _folded left: "ʒ", "ə")?"""
    return all(c.isascii() or unicodedata.name(c, "").startswith("LATIN") for w in words for c in w)


_WORD = re.compile(r"[^\W\d_]+")
_UMLAUT = re.compile("([aou])\u0308")


def _other_items(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    if not _two_items(known_guids, other_keys):
        return False  # one item seen again, items of two feeds (one paper's have two ids), or none
    texts = sorted((_read(known.abstract), _read(other.abstract)), key=len)
    # No text, or one a cut of the other (a feed's excerpt "…"), tells nothing apart.
    return bool(texts[0]) and not texts[1].startswith(texts[0])


def _told(text: str) -> str:
    """The text's words, none for a placeholder: "Abstract not available yet." had been read as
    a text that differs from the abstract a re-keyed item brought the next day (sent twice)."""
    return "" if placeholder(text) else normalize(text)


def _read(text: str) -> str:
    """The text's words as any reading of its markup gives them: without an "Abstract" or
    "Summary" heading before them, run together (a reference's number set apart or not), the
    marks gone (a section title's ":", a list's "; "). A re-keyed item stored with "Abstract
    Methods We image ... cells1." and read since as "Methods: We image ... cells 1." had been
    two items of one feed, mailed again after the upgrade; other words still tell two apart."""
    return _HEADED.sub("", _told(text)).replace(" ", "")


_HEADED = re.compile(r"^(?:(?:graphical |visual )?(?:abstract|summary)(?: |$))+")


def _item(key: str) -> str:
    """A feed item's id without what names no item: an address's query values that hold no
    digit (?rss=latest, ?utm_source=feed) and its fragment; ?p=100002 stays."""
    value = key.removeprefix(f"{GUID}:")
    if not _HOST.match(value):
        return value
    parts = urlsplit(value)
    kept = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if _DIGIT.search(v)]
    return parts._replace(query=urlencode(kept), fragment="").geturl()


def _scope(item: str) -> str:
    """Where a feed item's id is one: an address's host, a URN's or tag's namespace, else the
    feed (identity.guid_key writes an opaque id as 'guid:<source>:<id>')."""
    found = _HOST.match(item)
    if found:
        return found[1].lower()
    head, _, rest = item.partition(":")
    return f"{head}:{rest.split(':', 1)[0].split(',', 1)[0]}" if head in ("urn", "tag") else head


_HOST = re.compile(r"(?i)^https?://([^/?#]+)")
_DIGIT = re.compile(r"\d")


def name_keys(paper: Paper) -> list[str]:
    """'n:' keys of the paper's title with each word of its authors' names: a paper whose title
    another paper holds (two groups' "Machine learning for quantum materials") is found by them
    when its journal version comes, which that title alone led to the other group's paper."""
    title = loose_title_hash(paper.title)
    if title is None:
        return []
    named = paper.authors[:NAMED_AUTHORS]
    words = sorted(_name_words(named) | _former_name_words(named))
    return ["n:" + hashlib.sha256(f"{title}|{w}".encode()).hexdigest()[:16] for w in words]


NAMED_AUTHORS = 12  # a consortium's 500 names would be 1,000 keys; its journal version's first


def own_id(paper: Paper, keys: Iterable[str]) -> str:
    """An id of its own for a paper whose title (its id) another paper has: its feed item's id,
    else its title and text together."""
    guid = next((k for k in keys if k.startswith(f"{GUID}:")), None)
    if guid is not None:
        return guid
    both = f"{normalize(paper.title)}|{normalize(paper.abstract)}"
    return "t:" + hashlib.sha256(both.encode()).hexdigest()[:16]


def dedupe(papers: Iterable[Paper], least_authors: int = LEAST_AUTHORS) -> list[Paper]:
    """One record per paper, in first-seen order, each completed by its later duplicates; two
    records of one title that say they are two papers stay two, the second under an id of its
    own, as the catalogue keeps them (a preview had merged what the run sent). least_authors:
    the authors each of two records must name for names without one in common to make two
    papers (a library's records, no feed's guesses, say so with one: LIBRARY_AUTHORS)."""
    merged: list[Paper] = []
    # Each record's strong keys and item ids, kept as it grows: all that same_paper and
    # two_papers read. Reading keys() of a record that has merged thousands of copies, for every
    # copy, was quadratic.
    strong: list[list[str]] = []
    guids: list[set[str]] = []
    later: list[list[Paper]] = []
    owner: dict[str, int] = {}
    for paper in papers:
        paper_keys = keys(paper)
        seen = (owner, strong, guids, merged)
        hit, apart = _hit(paper, paper_keys, paper_keys, seen, least_authors)
        if hit is None and apart:
            paper = dataclasses.replace(paper, id=own_id(paper, paper_keys))
            paper_keys = keys(paper)
        titles = [owner[k] for k in paper_keys if kind(k) == "t" and k in owner]
        named = name_keys(paper) if titles and hit is None else []
        if named:  # its title is another's: its own earlier record by a name
            hit, _ = _hit(paper, named, paper_keys, seen, least_authors)
        if hit is None:
            hit = len(merged)
            merged.append(paper)
            strong.append([])
            guids.append(set())
            later.append([])
        else:
            later[hit].append(paper)
        strong[hit] += [k for k in paper_keys if kind(k) in STRONG and k not in strong[hit]]
        guids[hit] |= {k for k in paper_keys if kind(k) == GUID}
        for key in paper_keys:
            owner.setdefault(key, hit)
        if any(i != hit for i in titles):
            for key in named or name_keys(paper):
                owner.setdefault(key, hit)
    return [_merged(first, rest) for first, rest in zip(merged, later, strict=True)]


def _hit(
    paper: Paper, among: list[str], paper_keys: list[str], seen: _Seen, least: int
) -> tuple[int | None, bool]:
    """(the record one of the keys `among` names that this one is, or None; whether a record
    of its id said it is another)."""
    owner, strong, guids, merged = seen
    apart = False
    for key in (k for k in among if k in owner):
        i = owner[key]
        if not one_paper(key, merged[i], strong[i], paper, paper_keys):
            continue
        if refuses(kind(key), merged[i], guids[i], paper, paper_keys, least):
            apart = apart or (kind(key) == "t" and merged[i].id == paper.id)
            continue
        return i, False
    return None, apart


# What dedupe has seen: each key's record, and each record's strong keys, item ids and Paper.
_Seen = tuple[dict[str, int], Sequence[list[str]], Sequence[set[str]], Sequence[Paper]]


def _merged(first: Paper, rest: list[Paper]) -> Paper:
    """merge() of every later record into the first, in order; the aliases gathered once at the
    end rather than rebuilt at each step."""
    if not rest:
        return first
    known = dataclasses.replace(first, aliases=())
    for other in rest:
        known = dataclasses.replace(
            merge(known, dataclasses.replace(other, aliases=())), aliases=()
        )
    aliases = dict.fromkeys((*first.aliases, *(a for o in rest for a in (o.id, *o.aliases))))
    kept = tuple(a for a in aliases if a and a != first.id)
    return dataclasses.replace(known, aliases=kept)

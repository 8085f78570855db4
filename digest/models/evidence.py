"""What two records that share a title say of themselves: whether they are two papers after all
(by their authors, or as two items of one feed), where their keys alone would make them one."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable

from digest.models.identity import GUID, normalize
from digest.models.values import Paper

# Names shorter than this say too little: a preprint's "B. Chen" and its journal version's "Bo
# Chen" share "chen" anyway, and an organisation's one name ("Nature") is no author list.
LEAST_AUTHORS = 2


def two_papers(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    """Whether two records matched by title alone are two papers: each names two or more
    authors and no name of one shares a word with the other's ("Machine learning for quantum
    materials" by two groups), or both are items of one feed with ids of their own that differ
    and texts that differ (a weekly post, "This week in quantum materials", under one title)."""
    return _other_authors(known, other) or _other_items(known, known_guids, other, other_keys)


def _other_authors(known: Paper, other: Paper) -> bool:
    if min(len(known.authors), len(other.authors)) < LEAST_AUTHORS:
        return False
    return _name_words(known.authors).isdisjoint(_name_words(other.authors))


def _name_words(names: Iterable[str]) -> set[str]:
    text = unicodedata.normalize("NFKD", " ".join(names)).lower()
    return {w for w in _WORD.findall(text) if len(w) > 1}


_WORD = re.compile(r"[^\W\d_]+")


def _other_items(
    known: Paper, known_guids: Iterable[str], other: Paper, other_keys: Iterable[str]
) -> bool:
    if not known.abstract or not other.abstract:
        return False  # one says too little to tell
    known_guids = set(known_guids)
    guids = {k for k in other_keys if k.startswith(f"{GUID}:")}
    if not guids.isdisjoint(known_guids):
        return False  # one item, seen again
    if {_scope(k) for k in known_guids}.isdisjoint(_scope(k) for k in guids):
        return False  # items of two feeds: one paper's have two ids
    return normalize(known.abstract) != normalize(other.abstract)


def _scope(key: str) -> str:
    """Where a feed item's id is one: an address's host, a URN's or tag's namespace, else the
    feed (identity.guid_key writes an opaque id as 'guid:<source>:<id>')."""
    value = key.removeprefix(f"{GUID}:")
    found = _HOST.match(value)
    if found:
        return found[1].lower()
    head, _, rest = value.partition(":")
    return f"{head}:{rest.split(':', 1)[0].split(',', 1)[0]}" if head in ("urn", "tag") else head


_HOST = re.compile(r"(?i)^https?://([^/?#]+)")


def own_id(paper: Paper, keys: Iterable[str]) -> str:
    """An id of its own for a paper whose title (its id) another paper has: its feed item's id,
    else its title and text together."""
    guid = next((k for k in keys if k.startswith(f"{GUID}:")), None)
    if guid is not None:
        return guid
    both = f"{normalize(paper.title)}|{normalize(paper.abstract)}"
    return "t:" + hashlib.sha256(both.encode()).hexdigest()[:16]

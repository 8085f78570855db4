"""A paper's identity: the keys it may be known by (arXiv id without version, DOI, OpenReview
forum id, hashes of its normalized title, abstract and text) and the merge of two records of one
paper. A record's own title ('title:…') refuses an abstract match between two records whose titles
differ (two papers with one placeholder abstract, "No abstract available.")."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import unicodedata
from collections.abc import Iterable
from urllib.parse import parse_qs, urlsplit

from digest.models.dois import doi as doi  # read here since sources ask identity
from digest.models.placeholders import placeholder
from digest.models.texts import bare_abstract, normalize, text_keys
from digest.models.values import Paper


def abstract_id(abstract: str) -> str:
    """Identity of a paper known only by its abstract; survives re-wrapping and case changes."""
    return "h:" + hashlib.sha256(normalize(abstract).encode()).hexdigest()[:16]


# New style 2501.01234, old style hep-th/9901001 or math.GT/0309136; any version suffix dropped.
_ARXIV = re.compile(
    r"^(?:arxiv:|oai:arxiv\.org:|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/"
    r"|(?:doi:|https?://(?:dx\.)?doi\.org/)?10\.48550/arxiv\.)?"
    r"(\d{4}\.\d{4,5}|[a-z][a-z-]*(?:\.[a-z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$",
    re.IGNORECASE,
)
_OPENREVIEW_HOSTS = ("openreview.net", "www.openreview.net")
# The title a record of a paper file came with (not derived): 'title:<hash>', the title hash's
# twin. Only an abstract match reads it; it is "strong" so that the state's catalogue hands it
# to same_paper with the stored paper's ids.
TITLED = "title"
# Kinds of key that name one paper for sure: two with different keys of one kind differ.
IDS = ("arxiv", "doi", "openreview")  # the kinds of key a source gives as a paper's id
STRONG = (*IDS, TITLED)
# Shorter titles ("Introduction", "Attention") are shared by too many papers to identify one.
MIN_TITLE_WORDS = 3
# Chinese, Japanese and Korean write no spaces between words: each two letters count as one (a
# CNKI feed's three papers of one "暂无摘要" placeholder became one). As ranking.tokens.CJK_RUN.
_CJK = re.compile(
    "[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
)


def arxiv_id(value: str) -> str | None:
    """'2501.01234' from '2501.01234v2', 'arXiv:2501.01234', an abs/pdf URL or arXiv's DOI;
    'math/0309136' from 'math.GT/0309136': a subject class is no part of the id arXiv gives
    (a library citing it so had its own paper recommended back)."""
    match = _ARXIV.match(value.strip())
    if not match:
        return None
    ident = match[1]
    if "/" in ident:
        archive, number = ident.split("/")
        ident = f"{archive.partition('.')[0].lower()}/{number}"
    return ident


_ARCHIVES = set(
    "acc-phys adap-org alg-geom ao-sci astro-ph atom-ph bayes-an chao-dyn chem-ph cmp-lg comp-gas"
    " cond-mat cs dg-ga econ eess funct-an gr-qc hep-ex hep-lat hep-ph hep-th math math-ph"
    " mtrl-th nlin nucl-ex nucl-th patt-sol physics plasm-ph q-alg q-bio q-fin quant-ph solv-int"
    " stat supr-con".split()
)


def plausible_arxiv_id(ident: str) -> bool:
    """Whether arxiv_id()'s result can be an arXiv id: a month 01-12 (YYMM.NNNNN), an archive
    arXiv has (hep-th/9711201). arXiv refuses a whole lookup over one that is not."""
    if "/" in ident:
        archive, number = ident.split("/")
        return archive.partition(".")[0] in _ARCHIVES and 1 <= int(number[2:4]) <= 12
    return 1 <= int(ident[2:4]) <= 12


def squeezed_title_hash(title: str) -> str | None:
    """The title hash of the title's letters and digits run together: a key, so that a title
    whose math a newer digest writes otherwise (T^(2/3) for T2/3, "n log n" for "nlog n", 1/2 for
    12, √s for s) still finds the paper stored under the older text."""
    if title_hash(title) is None:
        return None
    # Digits apart by a mark of math run together, as older text wrote them (½ read "12"); apart
    # by anything else a mark stays: "Version 1.4" and "Version 14", "1-2 GHz" and "12 GHz".
    text = _MATH_BETWEEN_DIGITS.sub("", unicodedata.normalize("NFKC", title))
    squeezed = re.sub(r"(?<=\d) (?=\d)", "|", normalize(text)).replace(" ", "")
    return "t:" + hashlib.sha256(squeezed.encode()).hexdigest()[:16]


_MATH_BETWEEN_DIGITS = re.compile(r"(?<=\d)[/^_(){}\u2044\u2215]+(?=\d)")


def openreview_id(value: str) -> str | None:
    """The forum id from 'openreview:ID' or an openreview.net forum/pdf URL."""
    value = value.strip()
    if value.lower().startswith("openreview:"):
        return value.split(":", 1)[1] or None
    parts = urlsplit(value)
    if parts.hostname in _OPENREVIEW_HOSTS and parts.path in ("/forum", "/pdf"):
        ident = parse_qs(parts.query).get("id", [""])[0]
        return ident or None
    return None


def title_hash(title: str) -> str | None:
    """'t:<hash>' of the normalized title, or None for titles too short to tell papers apart."""
    text = normalize(title)
    letters = 0 if text.isascii() else len(_CJK.findall(text))
    if len(text.split()) + letters // 2 < MIN_TITLE_WORDS:
        return None
    return "t:" + hashlib.sha256(text.encode()).hexdigest()[:16]


def loose_title_hash(title: str) -> str | None:
    """A second title key, of the title as publishers rewrite it: Latin letters' accents
    dropped ("Schrodinger"), "&" as "and", a hyphen between letters gone ("Pre-Training" is
    "Pretraining"). A journal's copy of an arXiv paper was sent again. Nothing else is folded:
    カラス and ガラス stay two titles, "Version 1.4" and "Version 14" too."""
    if title_hash(title) is None:
        return None
    marked = unicodedata.normalize("NFD", title.replace("&", " and "))
    bare = unicodedata.normalize("NFC", _LATIN_MARK.sub("", marked))
    joined = _HYPHENATED.sub("", bare)
    return "t:" + hashlib.sha256(("~" + normalize(joined)).encode()).hexdigest()[:16]


# A combining mark on a Latin letter (é, ö, ñ); marks of other scripts (the voicing mark of
# ガ) make another word.
_LATIN_MARK = re.compile(r"(?<=[A-Za-z])[\u0300-\u036f]+")
_HYPHENATED = re.compile(r"(?<=[^\W\d_])[-\u2010\u2011](?=[^\W\d_])")


def paper_id(
    *, arxiv: str = "", doi_: str = "", openreview: str = "", title: str = "", fallback: str = ""
) -> str:
    """The id a source gives a paper: arXiv id, else DOI, else OpenReview forum, else title hash."""
    if arxiv and (found := arxiv_id(arxiv)):
        return found
    if doi_ and (found := doi(doi_)):
        return found
    if openreview:
        return f"openreview:{openreview}"
    return title_hash(title) or fallback


def former_ids(ident: str, title: str, abstract: str) -> tuple[str, ...]:
    """The abstract hash a feed's item had as its id before, so the papers stored then are
    found by it: known by a title of Chinese, Japanese or Korean, before such letters counted as
    words (title_hash), the title must agree (same_paper), as for a paper file's record. Known by
    a DOI and by no title (none, or too short), before its `/doi/` link was read: the abstract
    hash stays a weak key beside the DOI, that a paper of another DOI does not match."""
    if kind(ident) == "t" and len(normalize(title).split()) < MIN_TITLE_WORDS:
        return (abstract_id(abstract or title),)
    if doi(ident) and title_hash(title) is None:
        return (abstract_id(abstract or title),)
    return ()


def record_id(title: str, abstract: str) -> tuple[str, tuple[str, ...]]:
    """The id and aliases of a paper file's record that has no id: its title hash, as a feed's
    item without ids gets, and as an alias the abstract hash such a record was known by before
    (papers stored then are found by it; see the module's docstring). A title too short to
    tell papers apart leaves the abstract hash as the id, as before."""
    old = abstract_id(abstract or title)
    title_key = title_hash(title)
    return (title_key, (old,)) if title_key else (old, ())


def keys(paper: Paper) -> list[str]:
    """Every key the paper may be known by, strongest first: 'arxiv:…', 'doi:…', 'openreview:…',
    then 't:…' (title) or the paper's own id when it is of no other kind; a paper file's record
    known by its title also by its former abstract hash and 'title:…' (see record_id)."""
    found: dict[str, None] = {}
    abstract_keys = [a for a in paper.aliases if kind(a) == "h"]
    for value in (paper.id, *paper.aliases, paper.url):
        if not value:
            continue
        if value.startswith(f"{GUID}:"):
            found[value] = None
        elif ident := arxiv_id(value):
            found[f"arxiv:{ident}"] = None
        elif ident := doi(value):
            found[f"doi:{ident}"] = None
            found[unversioned(f"doi:{ident}")] = None
        elif ident := openreview_id(value):
            found[f"openreview:{ident}"] = None
    if not any(k.startswith(STRONG) for k in found) or paper.id.startswith(("h:", "t:")):
        found.setdefault(paper.id, None)  # abstract hash, title hash or an id of no known kind
    # A derived title (papers known by their abstract) says too little to merge on.
    title = None if paper.id.startswith("h:") else title_hash(paper.title)
    if title:
        found.setdefault(title, None)
        found.setdefault(squeezed_title_hash(paper.title) or title, None)
        found.setdefault(loose_title_hash(paper.title) or title, None)
        if abstract_keys:  # its own title, which an abstract match must agree with
            found.setdefault(f"{TITLED}:{title[2:]}", None)
        for text in dict.fromkeys((paper.abstract, bare_abstract(paper.abstract))):
            for key in text_keys(paper.title, text):
                found.setdefault(key, None)
    for key in abstract_keys:
        found.setdefault(key, None)
    return list(found)


def kind(key: str) -> str:
    """'arxiv', 'doi', 'openreview', 'title' (a record's own title), 't' (title), 'h'
    (abstract), 'a' (text), 'n' (title and an author's name: evidence.name_keys) or 'guid' (a
    feed item's own id); '' for a plain id."""
    head = key.split(":", 1)[0]
    return head if ":" in key and head in (*STRONG, "t", "h", "a", "n", GUID) else ""


# A feed item's own id (RSS guid, Atom id) of a paper known otherwise only by its title: a
# corrected title ("Learing" to "Learning") or text decoded better the next day was a new paper,
# sent again. A match on it is certain; two of them differing say nothing (one paper's items in
# two feeds have two). An address or URI is one everywhere; an opaque id only within its feed,
# and only when it is long enough not to be a position ("1", "2", ...).
GUID = "guid"
_GUID_MIN = 8
# An item's id names one item when it holds an item's number (5+ digits: a document number, a
# PMID, a DOI's) or a hash (16+ hex letters): a fixed "featured paper" link reused by every
# day's item had merged each new paper into the first, never sent.
_ITEM_LIKE = re.compile(r"\d{5}|[0-9a-f]{16}|[0-9a-f]{8}-[0-9a-f]{4}-", re.IGNORECASE)


def guid_key(guid: str, source: str) -> str | None:
    """The key of a feed item's own id, or None when it is too short to name one item."""
    guid = guid.strip()
    if len(guid) < _GUID_MIN or any(c.isspace() for c in guid) or not _ITEM_LIKE.search(guid):
        return None
    if re.match(r"(?i)^(?:https?://[^/]+/.|urn:|tag:)", guid):
        return f"{GUID}:{guid}"
    return f"{GUID}:{source}:{guid}"


def merge(known: Paper, other: Paper) -> Paper:
    """The known record completed with what the other record of the same paper adds (code link,
    venue, the other ids...); the known record's id and text win where both have one."""
    changes: dict[str, object] = {}
    for name in ("title", "abstract", "venue", "url", "code_url"):
        if not getattr(known, name) and getattr(other, name):
            changes[name] = getattr(other, name)
    # A placeholder ("Abstract not available yet.") is no text: the abstract that replaces it wins.
    if known.abstract and placeholder(known.abstract) and not placeholder(other.abstract):
        changes["abstract"] = other.abstract
    # A listing ("arXiv cs.LG", "cs.CR updates on arXiv.org") gives way to where it was published.
    if _listing(known.venue) and other.venue and not _listing(other.venue):
        changes["venue"] = other.venue
    if not known.authors and other.authors:
        changes["authors"] = other.authors
    if known.published is None and other.published is not None:
        changes["published"] = other.published
    categories = tuple(dict.fromkeys((*known.categories, *other.categories)))
    if categories != known.categories:
        changes["categories"] = categories
    aliases = tuple(a for a in dict.fromkeys((*known.aliases, other.id, *other.aliases)))
    aliases = tuple(a for a in aliases if a and a != known.id)
    if aliases != known.aliases:
        changes["aliases"] = aliases
    return dataclasses.replace(known, **changes) if changes else known  # type: ignore[arg-type]


def _listing(venue: str) -> bool:
    return "arxiv" in venue.lower()


def same_paper(
    matched: str, known: Iterable[str], incoming: Iterable[str], forums: bool = True
) -> bool:
    """Whether a record whose keys include `matched` is the known paper. An id match is certain;
    a title or text match is not when a strong key of one kind differs (two arXiv papers of one
    title are two); an abstract match is not when the records' own titles differ. forums=False:
    two OpenReview forums do not differ (evidence.one_work, whose records say they are one)."""
    matched_kind = kind(matched)
    if matched_kind not in ("t", "h", "a", "n"):
        return True
    # A title match merges title variants whatever their own titles; an abstract match reads
    # them, and the ids too: a DOI's item kept the abstract hash it had been known by (former_ids),
    # and two items of two DOIs with one placeholder text ("No abstract available") are two.
    ids = (*(k for k in STRONG if k != TITLED and (forums or k != "openreview")), PREPRINT)
    kinds = (TITLED, *ids) if matched_kind == "h" else ids
    mine: dict[str, set[str]] = {}
    for key in known:
        mine.setdefault(_conflicting(key), set()).add(unversioned(key))
    for key in incoming:
        k = _conflicting(key)
        if k in kinds and k in mine and unversioned(key) not in mine[k]:
            return False
    return True


def unversioned(key: str) -> str:
    """A DOI key without the version a preprint server writes into it (`.v2`, `/v2`, `-v2`,
    `_v2` on any DOI; eLife's, ESSOAr's, Qeios's and the F1000 journals' bare `.2`; PeerJ
    Preprints' and bioRxiv's `v2` after the number). A new version is the same paper, as an
    arXiv id's is; it had been a new paper, sent again. An old-style arXiv key
    stored with its subject class ('arxiv:math.GT/0309136', before arxiv_id dropped it) as
    arXiv's own."""
    if key.startswith("arxiv:") and "/" in key:
        return "arxiv:" + (arxiv_id(key[6:]) or key[6:])
    found = _VERSIONED.fullmatch(key)
    return next(g for g in found.groups() if g) if found else key


# DOI prefixes of preprint servers: a preprint's DOI and its journal version's always differ, so
# they do not make two papers of one title, as an arXiv id and a DOI do not. Registrants of
# preprints alone: Research Square, ChemRxiv, Cambridge Open Engage, SSRN, Preprints.org,
# Authorea (ESSOAr's since), TechRxiv, Qeios, SAGE Advance, openRxiv's bioRxiv and medRxiv
# since December 2025 (10.64898: had been a journal's DOI beside the journal version, sent
# twice), EcoEvoRxiv, EdArXiv, IndiaRxiv, AfricArXiv, Jxiv, SportRxiv, NeuroLibre, and the
# Center for Open Science's block 10.31219-10.31237 (OSF Preprints, AgriRxiv, MetaArXiv,
# EarthArXiv, engrXiv, PsyArXiv, SocArXiv...: EarthArXiv's and engrXiv's no longer `osf.io/`).
PREPRINT = "preprint"
_PREPRINT_PREFIXES = (
    "21203 26434 33774 2139 20944 22541 36227 32388 31124 64898 32942 35542 35543 31730 51094"
    " 51224 55458".split()
    + [str(n) for n in range(31219, 31238)]
)
# A registrant that also publishes journals counts by its preprints' own shape: bioRxiv's and
# medRxiv's numbers under 10.1101 (CSHL's journals are `gr.`, `gad.`...), JMIR Preprints,
# SciELO Preprints, ESSOAr's first (Wiley's), Beilstein Archives, PeerJ Preprints, VeriXiv (the
# F1000 platform's), Copernicus's EGUsphere and its journals' discussion papers (`hess-2022-123`;
# the final paper is `hess-27-1234-2023`), and any OSF server's `osf.io/`, whatever its prefix.
_PREPRINT_DOI = re.compile(
    r"doi:10\.(?:(?:" + "|".join(_PREPRINT_PREFIXES) + r")/"
    r"|1101/\d|2196/preprints\.|1590/scielopreprints\.|1002/essoar\.|3762/bxiv\."
    r"|7287/peerj\.preprints\.|12688/verixiv\.|5194/egusphere-|5194/[a-z]+-(?:19|20)\d\d-\d+$"
    r"|\d+/osf\.io/)"
)


# The DOIs that carry a version, by their shape, not a list of registrants: OSF hosts dozens of
# servers (EdArXiv, MetaArXiv...), figshare's portals and ChemRxiv's platform more, each with a
# prefix of its own and a `vN` of the same few shapes. A bare `.N` ends many journals' DOIs
# (10.1109/5.771073, a Lancet's or a Springer chapter's): it is a version only on the servers
# named here. ESSOAr, Qeios; the F1000 platform's journals (10.12688, Emerald Open Research,
# NIHR Open Research, MedEdPublish); eLife's Reviewed Preprints and Versions of Record
# (eLife.101234.2: each version had been a new paper, sent again), whose zero-padded `.011` is a
# figure's or a review's, no version. A `vN` right after the number: PeerJ Preprints'
# (preprints.3151v1) and bioRxiv's and medRxiv's DOI as their page's address writes it.
_VERSIONED = re.compile(
    r"(doi:10\.\d+/.+?)[./_-]v\d{1,3}"
    r"|(doi:10\.1002/essoar\.\d+)\.\d{1,3}"
    r"|(doi:10\.32388/[a-z0-9]{6})\.\d{1,3}"
    r"|(doi:10\.(?:12688/[a-z0-9]+|35241/emeraldopenres|3310/nihropenres)\.\d+)\.\d{1,3}"
    r"|(doi:10\.15694/mep\.\d{4}\.\d{6,7})\.\d{1,3}"
    r"|(doi:10\.7554/elife\.\d{5,6})\.[1-9]\d?"
    r"|(doi:10\.7287/peerj\.preprints\.\d+)v\d{1,3}"
    r"|(doi:10\.(?:1101|64898)/(?:\d{4}\.\d\d\.\d\d\.)?\d{6,8})v\d{1,3}",
    re.IGNORECASE,
)


def _conflicting(key: str) -> str:
    """The kind of key two records of one paper cannot differ in: a preprint server's DOI is
    its own kind beside the journals' DOIs."""
    return PREPRINT if _PREPRINT_DOI.match(key) else kind(key)

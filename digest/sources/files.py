"""Paper files: the paper JSONL format of DESIGN.md (also gzipped) and CSV with the same columns,
their titles' and abstracts' markup (HTML, JATS, MathML, entities) and LaTeX read as text. A bad
record is one warning naming file and line; the rest of the file is still read.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import itertools
import json
import re
import zlib
from collections.abc import Iterable, Iterator, Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from digest.models import InputError, Paper, SourceConfig, Warn
from digest.models.identity import arxiv_id, kind, record_id, title_hash
from digest.sources import authors as names
from digest.sources import headings
from digest.sources.common import clean, code_links
from digest.sources.latex import to_text
from digest.sources.markup import plain
from digest.sources.progress import QUIET, Progress
from digest.sources.seeds import list_files, source_path, text_lines
from digest.sources.titles import derive_title

SUFFIXES = (".jsonl", ".jsonl.gz", ".csv")
# csv's default cap on a field is 128 KiB; an abstract may be longer (JSONL has no cap either).
# The same number whatever the platform's C long.
CSV_FIELD_LIMIT = 2**31 - 1
_ARXIV_PREFIX = re.compile(r"^(?:arxiv:|https?://(?:www\.)?arxiv\.org/(?:abs|pdf)/)", re.IGNORECASE)


class BadRecord(ValueError):
    """A record that cannot become a Paper; the message says what is wrong with it."""


def normalize_id(raw: str) -> str:
    """arXiv ids without prefix and version; any other id (DOI, OpenReview) as given."""
    ident = raw.strip()
    return arxiv_id(ident) or _ARXIV_PREFIX.sub("", ident) or ident


def _text(record: Mapping[str, Any], key: str) -> str:
    value = record.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise BadRecord(f"{key} must be a string, got {type(value).__name__}")
    return value.strip()


def _names(record: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = record.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadRecord(f"{key} must be a list of strings, got {json.dumps(value)[:60]}")
    if key == "authors":  # "Lovelace, Ada" is Ada Lovelace here too; "Jos&eacute;" is José
        return names.split([plain(v, lines=True) for v in value])
    return tuple(v.strip() for v in value if v.strip())


def _published(record: Mapping[str, Any]) -> date | None:
    value = record.get("published")
    if value is None or value == "":
        return None
    # arXiv feeds carry full timestamps; the day is what a digest shows.
    if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}(?:[T ].*)?", value.strip()):
        try:
            return date.fromisoformat(value.strip()[:10])
        except ValueError:
            pass
    raise BadRecord(f"published must be YYYY-MM-DD or null, got {json.dumps(value)[:40]}")


def _web_address(text: str) -> str:
    """`text` if it is an http(s) address, else "": an export's "n/a" or a `javascript:` link,
    never shown, had also kept the abstract's own code link from being looked for (sec1 F2)."""
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return ""
    return text.strip() if parts.scheme.lower() in ("http", "https") and parts.netloc else ""


def to_paper(record: Mapping[str, Any], source: str, links: bool = True) -> Paper:
    """One record of the paper format as a Paper, or BadRecord saying what is wrong. links=False
    skips looking for code links in the abstract (for papers that are only ranked)."""
    written, written_title = _text(record, "abstract"), _text(record, "title")
    if not written and not written_title:
        raise BadRecord("record has neither abstract nor title")
    raw_id = record.get("id")
    if raw_id is not None and not isinstance(raw_id, str):
        raise BadRecord(f"id must be a string, got {type(raw_id).__name__}")
    code_url = _web_address(_text(record, "code_url"))
    if not code_url and links:
        found = code_links(written)
        code_url = found[0] if found else ""
    # As the arXiv, RSS and OpenReview sources store them: a journal's feed of the same paper
    # (MoS₂, z∼6) had been another paper, sent again, and `MoS$_2$` no "MoS2" to a keyword. A
    # paper only ranked keeps its abstract's LaTeX, which the analyzer reads itself: decoding
    # every abstract cost `digest rank` a second per 10,000 papers, 1.66x its lower bound. Its
    # markup is read in both, as the RSS source reads it: a Crossref or Zotero export's
    # <jats:title>Abstract</jats:title>, <mml:mi> and &amp; had been words ("why: matched mml,
    # jats, title, mo, mi").
    bare_title, bare = plain(written_title), plain(headings.dropped(written))
    title = to_text(bare_title).strip()
    abstract = to_text(bare).strip() if links else bare.strip()
    aliases: tuple[str, ...] = ()
    if raw_id and raw_id.strip():
        ident = normalize_id(raw_id)
    else:
        # Known by its abstract (no title to tell it by): the id a run stores, of its text
        # read, or a library's paper had been recommended to its own reader. One decode, here.
        read = abstract if links or title_hash(written_title) else to_text(bare).strip()
        marked = (bare_title, bare) != (written_title, written)
        before = (to_text(written_title).strip(), to_text(written).strip()) if marked else None
        ident, aliases = _record_id(written_title, written, (title, read), before)
    return Paper(
        id=ident,
        title=title or derive_title(bare),  # which reads the LaTeX itself: not twice
        abstract=abstract,
        authors=_names(record, "authors"),
        venue=plain(_text(record, "venue")),
        url=_text(record, "url"),
        code_url=code_url,
        published=_published(record),
        source=source,
        categories=_names(record, "categories"),
        aliases=aliases,
    )


def _record_id(
    written_title: str,
    written: str,
    read: tuple[str, str],
    before: tuple[str, str] | None = None,
) -> tuple[str, tuple[str, ...]]:
    """The id and aliases of a record without an id: its title's hash (as a feed's item gets),
    of the title as written, the id it was stored under before its LaTeX was read (identity.keys
    reads no title hash among the aliases; the title read gives the other title keys); else
    the abstract hash of its texts read. The abstract hashes of all its texts are aliases (see
    record_id). A record holding markup is known by its texts read `before` its markup was
    (their LaTeX alone): a paper stored then keeps its id and is not sent again, and the hash
    of its texts read now, that a feed's copy of the paper has, is one of its aliases."""
    former, formers = record_id(written_title, written)
    decoded, more = record_id(*read)
    earlier, most = record_id(*before) if before else (decoded, ())
    ident = former if kind(former) == "t" else earlier
    hashes = (former, *formers, earlier, *most, decoded, *more)
    return ident, tuple(k for k in dict.fromkeys(hashes) if kind(k) == "h" and k != ident)


# A paper's record is a few KiB: a longer line is no record. One 1.5 GB line (1.4 MB gzipped)
# had ended a library's read in a MemoryError.
MAX_LINE = 16 * 2**20


def _bounded_lines(stream: Any) -> Iterator[bytes | None]:
    """The lines of a binary stream (a file's, gzip's); None for one over MAX_LINE, which is read
    past, never held."""
    while raw := stream.readline(MAX_LINE + 1):
        if len(raw) <= MAX_LINE or raw.endswith(b"\n"):
            yield raw
            continue
        while (rest := stream.readline(MAX_LINE)) and not rest.endswith(b"\n"):
            pass
        yield None


def _jsonl_lines(path: Path, warn: Warn) -> Iterator[tuple[int, str]]:
    """(line number, decoded line) of a plain or gzipped JSONL file; bad bytes skip one line.
    A NUL byte in the first line is a binary file, skipped; in a later one, that line."""
    offset = 0
    try:
        with gzip.open(path) if path.name.endswith(".gz") else path.open("rb") as stream:
            if stream.peek(2)[:2] in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE):
                yield from _utf16_lines(stream, path, warn)  # Excel's "Unicode text"
                return
            for number, raw in enumerate(_bounded_lines(stream), start=1):
                if raw is None:
                    warn(f"{path}:{number}: a line over {MAX_LINE // 2**20} MiB, skipped")
                    continue
                if b"\x00" in raw:
                    if number == 1:
                        warn(f"{path}: binary file, skipped")
                        return
                    at = offset + raw.index(b"\x00")
                    warn(f"{path}:{number}: a NUL byte at offset {at}, line skipped")
                    offset += len(raw)
                    continue
                try:
                    line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                except UnicodeDecodeError as exc:
                    where = f"byte 0x{raw[exc.start]:02x} at offset {offset + exc.start}"
                    warn(f"{path}:{number}: not valid UTF-8 ({where})")
                else:
                    yield number, line
                offset += len(raw)
    except (OSError, EOFError, zlib.error) as exc:
        # A corrupt or truncated gzip stream, or an unreadable file: keep what was read.
        warn(f"{path}: cannot read ({getattr(exc, 'strerror', None) or exc})")


def _utf16_lines(stream: Any, path: Path, warn: Warn) -> Iterator[tuple[int, str]]:
    """(line number, line) of a UTF-16 file with its byte order mark; bad bytes replaced."""
    text = io.TextIOWrapper(stream, encoding="utf-16", errors="replace", newline="")
    number = 0
    while line := text.readline(MAX_LINE + 1):
        number += 1
        if len(line) > MAX_LINE and not line.endswith("\n"):
            warn(f"{path}:{number}: a line over {MAX_LINE // 2**20} Mi characters, skipped")
            while (rest := text.readline(MAX_LINE)) and not rest.endswith("\n"):
                pass
            continue
        yield number, line


def parse_jsonl(path: Path, warn: Warn, links: bool = True) -> Iterator[Paper]:
    source = f"files:{path.name}"
    for number, line in _jsonl_lines(path, warn):
        if not line.strip():
            continue
        try:
            record = orjson.loads(line)
        except orjson.JSONDecodeError as exc:
            warn(f"{path}:{number}: invalid JSON ({exc.msg} at column {exc.colno})")
            continue
        if not isinstance(record, dict):
            warn(f"{path}:{number}: expected a JSON object, got {type(record).__name__}")
            continue
        try:
            yield to_paper(record, source, links)
        except BadRecord as exc:
            warn(f"{path}:{number}: {exc}")


def parse_csv(path: Path, warn: Warn, links: bool = True) -> Iterator[Paper]:
    lines = text_lines(path, warn, newline="")  # read as the rows are: memory stays flat
    if lines is None:
        return
    if csv.field_size_limit() < CSV_FIELD_LIMIT:
        csv.field_size_limit(CSV_FIELD_LIMIT)
    first = next(lines, None)
    # Tabs and no comma in the header: tab-separated, as Excel's "Unicode Text" writes it.
    tabbed = first is not None and "\t" in first and "," not in first
    rows = itertools.chain([] if first is None else [first], lines)
    reader = csv.reader(rows, delimiter="\t" if tabbed else ",")
    try:
        header = [name.strip().lower() for name in next(reader)]
    except StopIteration:
        warn(f"{path}: empty file, no header row")
        return
    except csv.Error as exc:
        warn(f"{path}:1: bad CSV header ({exc})")
        return
    if "abstract" not in header and "title" not in header:
        warn(f"{path}:1: header row needs an 'abstract' or 'title' column, got {header[:8]}")
        return
    source, number = f"files:{path.name}", reader.line_num
    while True:
        start = number + 1  # a quoted field may span lines; report where the row starts
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            # The reader starts afresh at the next line: one record lost, the rest still read.
            if reader.line_num == number:  # nothing consumed: it would fail again and again
                warn(f"{path}:{start}: bad CSV ({exc}); the rest of the file not read")
                return
            number = reader.line_num
            warn(f"{path}:{start}: bad CSV ({exc}); record skipped")
            continue
        number = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            warn(f"{path}:{start}: row has {len(row)} fields, the header has {len(header)}")
            continue
        record: dict[str, Any] = {k: (v.strip() or None) for k, v in zip(header, row, strict=True)}
        if record.get("categories"):
            record["categories"] = [part.strip() for part in record["categories"].split(";")]
        if record.get("authors"):  # "A; B", "Last, F., Last, F.", "A, B and C": names.split's,
            # its entities read first: the ";" of "Jos&eacute;" parts no names
            record["authors"] = list(names.split(plain(record["authors"], lines=True)))
        try:
            yield to_paper(record, source, links)
        except BadRecord as exc:
            warn(f"{path}:{start}: {exc}")


def parse_file(path: Path, warn: Warn, links: bool = True) -> Iterator[Paper]:
    """Papers of one file, the format chosen by its name (.csv, else JSONL, gzipped if .gz)."""
    if path.name.lower().endswith(".csv"):
        return parse_csv(path, warn, links)
    return parse_jsonl(path, warn, links)


def read_papers(path: str, warn: Warn, *, links: bool = True) -> list[Paper]:
    """The papers of one file named on the command line (`digest rank --papers FILE.jsonl`)."""
    file = Path(path)
    if file.is_dir():
        raise InputError(f"{path}: a folder; name one paper file (JSONL, JSONL.gz or CSV)")
    if not file.exists():
        raise InputError(f"{path}: no such file")
    if not file.is_file():
        raise InputError(f"{path}: not a regular file; name one paper file")
    return [clean(p) for p in parse_file(file, warn, links)]


class FilesSource:
    """`path`: one paper file, or a folder whose *.jsonl, *.jsonl.gz and *.csv files are read."""

    kind = "files"

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = None,  # local files need no clock
        progress: Progress = QUIET,  # nor progress: they are read in a moment
    ) -> Iterator[Paper]:
        # Resolve the path now, so a missing path fails the call rather than the first iteration.
        files = list_files(source_path(config), SUFFIXES, warn)
        return self._papers(files, warn)

    def _papers(self, files: Iterable[Path], warn: Warn) -> Iterator[Paper]:
        for path in files:
            yield from parse_file(path, warn)

"""The seed text format: a header line naming the collection, then one abstract per blank-line
separated paragraph. Papers get their id from the abstract hash and a derived title.
"""

from __future__ import annotations

import codecs
import re
import stat
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path

from digest.models import Notice, Paper, SourceConfig, SourceError, Warn
from digest.models.identity import abstract_id
from digest.sources.common import code_links
from digest.sources.progress import QUIET, Progress
from digest.sources.titles import derive_title

# Shorter than this is a stray line or a heading, not an abstract worth ranking.
MIN_ABSTRACT_CHARS = 20
CHUNK = 1 << 20  # bytes read at a time when a text file is checked
# Words after a venue that only say the file lists its papers: "NeurIPS 2025 Accepted Papers",
# "NeurIPS 2025 论文列表", "ICML 2025 - paper list". Stripped from the end, one at a time.
_LISTING_WORD = re.compile(
    r"(?:(?:[\s:：\-–—|·,，/]|^)(?:list\s+of\s+(?:accepted\s+)?papers|papers?|paper\s*list"
    r"|accepted|selected|abstracts?|articles?|lists?|reading|publications?)"
    # Chinese needs no space before a word.
    r"|论文列表|论文清单|论文合集|论文汇总|论文|列表|清单|合集|汇总|已?接收|已?录用|收录|文章|摘要)"
    r"[\s:：\-–—|·,，/()（）\[\]【】]*$",
    re.IGNORECASE,
)


def venue_of(header: str) -> str:
    """The venue a seed list's header names, without the words that say it is a list of papers
    or the Markdown heading marks around it."""
    venue = header.strip().lstrip("#").strip().strip("*_\"'“”「」【】[]").strip()
    while (match := _LISTING_WORD.search(venue)) and match.start() > 0:
        venue = venue[: match.start()].rstrip(" :：-–—|·,，/(（")
    return venue or header.strip()


def source_path(config: SourceConfig) -> Path:
    """The configured file or folder; a source that cannot start fails as a whole."""
    raw = config.options.get("path")
    if not isinstance(raw, str) or not raw.strip():
        raise SourceError(f"source {config.name!r}: option 'path' must name a file or folder")
    path = Path(raw)
    try:
        path = path.expanduser()
    except RuntimeError:  # "~name" of no such user: a name as written, as a shell keeps it
        pass
    try:
        there = path.exists()
    except (OSError, ValueError) as exc:  # a name too long for the system, a NUL byte
        raise SourceError(f"{raw[:80]!r}: not a usable path ({exc.__class__.__name__})") from None
    if not there:
        raise SourceError(f"{path}: no such file or folder")
    return path


def is_device(path: Path) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def list_files(path: Path, suffixes: tuple[str, ...], warn: Warn) -> list[Path]:
    """`path` itself, or the matching files directly inside the folder, sorted by name."""
    if not path.is_dir():
        if is_device(path):  # /dev/zero: read until stopped, checked whole first
            raise SourceError(f"{path}: a device, not a file or folder")
        return [path]  # a pipe too: it ends when its writer closes it
    try:
        files = sorted(p for p in path.iterdir() if p.is_file() and p.name.endswith(suffixes))
    except OSError as exc:
        raise SourceError(f"{path}: cannot read the folder ({exc.strerror or exc})") from None
    if not files:
        warn(Notice(f"{path}: no {' or '.join('*' + s for s in suffixes)} files in folder"))
    return files


def text_lines(path: Path, warn: Warn, *, newline: str | None = None) -> Iterator[str] | None:
    """The lines of a UTF-8 text file (a BOM is fine), read as they are needed, or None after one
    warning naming the problem. The whole file is checked first, a chunk at a time, so memory
    stays flat however large it is; a file with bytes that are not UTF-8 is one warning naming
    the first such line, and those lines are read as Windows-1252 (older exports are). A binary
    file is skipped. newline="" gives the raw lines, ends kept (for csv); else the lines of
    str.splitlines()."""
    if _utf16(path):  # Excel's "Unicode text", a PowerShell redirect: read, never "binary"
        lines = _raw_lines(path, "utf-16") if newline == "" else _split_lines(path, "utf-16")
        return _unnulled(lines)
    bad = _checked(path, warn)
    if bad is None:
        return None
    if bad:
        warn(Notice(f"{path}:{bad}; lines that are not UTF-8 read as Windows-1252"))
        return _unnulled(_mixed_lines(path, raw=newline == ""))
    return _unnulled(_raw_lines(path) if newline == "" else _split_lines(path))


def _unnulled(lines: Iterator[str]) -> Iterator[str]:
    """The lines without NUL bytes (_checked warned of them): as a text's controls, they go."""
    return (line.replace("\x00", "") if "\x00" in line else line for line in lines)


# A NUL byte this near the start, or in a file that is not UTF-8, makes a binary file.
BINARY_HEAD = 1024


def _checked(path: Path, warn: Warn) -> str | None:
    """'' for a UTF-8 file, "LINE: not valid UTF-8 (...)" for the first bad byte of another, or
    None after a warning: a binary file (see BINARY_HEAD) or one that cannot be read. A NUL
    byte in a text is a warning of its own, and is left out."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    done = lines = 0  # bytes and line breaks before this chunk
    bad = ""  # the first decoding problem
    nul = first = 0  # the line and offset of the first NUL byte
    try:
        with path.open("rb") as stream:
            while chunk := stream.read(CHUNK):
                if not nul and (at := chunk.find(b"\x00")) >= 0:
                    nul, first = lines + chunk.count(b"\n", 0, at) + 1, done + at
                if not bad:
                    pending = decoder.getstate()[0]  # a character cut by the previous chunk
                    bad = _problem(decoder, pending, chunk, done - len(pending), lines)
                done, lines = done + len(chunk), lines + chunk.count(b"\n")
            if not bad:
                pending = decoder.getstate()[0]
                bad = _problem(decoder, pending, b"", done - len(pending), lines, final=True)
    except OSError as exc:
        warn(f"{path}: cannot read ({exc.strerror or exc})")
        return None
    if nul and (bad or first < BINARY_HEAD):  # an image, an archive, UTF-16: not a text
        warn(f"{path}: binary file, skipped")
        return None
    if nul:  # one bad row of 500,000 had skipped the whole file
        warn(Notice(f"{path}:{nul}: a NUL byte (and any later ones) left out"))  # no record lost
    return bad


def _problem(
    decoder: codecs.IncrementalDecoder,
    pending: bytes,
    chunk: bytes,
    at: int,
    lines: int,
    final: bool = False,
) -> str:
    """'' or "LINE: not valid UTF-8 (...)" for the bytes `pending + chunk`, which start at
    offset `at` of the file after `lines` line breaks."""
    try:
        decoder.decode(chunk, final)
    except UnicodeDecodeError as exc:
        data = pending + chunk
        line = lines + data.count(b"\n", 0, exc.start) + 1
        return f"{line}: not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {at + exc.start})"
    return ""


def _utf16(path: Path) -> bool:
    """Whether the file starts with a UTF-16 byte order mark (unreadable: _checked says so)."""
    try:
        with path.open("rb") as stream:
            return stream.read(2) in (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
    except OSError:
        return False


def _raw_lines(path: Path, encoding: str = "utf-8-sig") -> Iterator[str]:
    with path.open(encoding=encoding, errors="replace", newline="") as stream:
        yield from stream


def _split_lines(path: Path, encoding: str = "utf-8-sig") -> Iterator[str]:
    # Universal newlines, then str.splitlines for the rarer breaks (form feed, U+2028...), so
    # the lines and their numbers are those of the whole text's splitlines().
    with path.open(encoding=encoding, errors="replace") as stream:
        for line in stream:
            yield from line.splitlines() or [""]


def _mixed_lines(path: Path, raw: bool) -> Iterator[str]:
    """The lines of a file that is mostly UTF-8: each line that is not is Windows-1252. A line
    break is one byte in both, so the lines, and their numbers, are those of either reading."""
    with path.open("rb") as stream:
        for number, data in enumerate(stream, start=1):
            try:
                line = data.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                line = data.decode("cp1252", errors="replace")
            if raw:
                yield line
            else:
                yield from line.splitlines() or [""]


def paragraphs(numbered: Iterable[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """(1-based line number, text) of each blank-line-separated paragraph of the numbered lines."""
    start = 0
    chunk: list[str] = []
    for number, line in numbered:
        if line.strip():
            if not chunk:
                start = number
            chunk.append(line.strip())
        elif chunk:
            yield start, " ".join(" ".join(chunk).split())
            chunk = []
    if chunk:
        yield start, " ".join(" ".join(chunk).split())


def parse_seeds(path: Path, text: str | Iterable[str], warn: Warn) -> Iterator[Paper]:
    """Papers of one seed file (its text, or its lines as they are read); every skipped
    paragraph or file is one warning."""
    numbered = enumerate(text.splitlines() if isinstance(text, str) else text, start=1)
    header = next((line for _, line in numbered if line.strip()), None)
    if header is None:
        warn(f"{path}: empty file, no header line")
        return
    venue = venue_of(header)
    found = False
    for number, abstract in paragraphs(numbered):
        found = True
        if len(abstract) < MIN_ABSTRACT_CHARS:
            warn(f"{path}:{number}: paragraph too short for an abstract ({abstract!r}), skipped")
            continue
        links = code_links(abstract)
        yield Paper(
            id=abstract_id(abstract),
            title=derive_title(abstract),
            abstract=abstract,
            venue=venue,
            code_url=links[0] if links else "",
            source=f"seeds:{path.name}",
        )
    if not found:
        warn(f"{path}: header only, no abstracts")


class SeedsSource:
    """`path`: one seed file, or a folder whose *.txt files are read in name order."""

    kind = "seeds"

    def fetch(
        self,
        config: SourceConfig,
        warn: Warn,
        *,
        now: datetime | None = None,  # local files need no clock
        progress: Progress = QUIET,  # nor progress: they are read in a moment
    ) -> Iterator[Paper]:
        # Resolve the path now, so a missing path fails the call rather than the first iteration.
        files = list_files(source_path(config), (".txt",), warn)
        return self._papers(files, warn)

    def _papers(self, files: list[Path], warn: Warn) -> Iterator[Paper]:
        read = 0
        for path in files:
            lines = text_lines(path, warn)
            if lines is not None:
                read += 1
                yield from parse_seeds(path, lines, warn)
        if files and not read:  # not a quiet day: the source cannot be read at all
            raise SourceError(f"none of the {len(files)} abstract list(s) could be read")

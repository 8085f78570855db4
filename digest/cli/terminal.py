"""What the command writes, made safe for a terminal. Titles, ids, authors and servers' answers
are untrusted, and a terminal obeys the control characters in them: ESC sequences clear it, set
its title, colours and links, BEL rings, bidi controls turn digest's own text around. Each one is
shown as a visible escape (`\\x1b`, `\\u202e`) instead; newline and tab stay."""

from __future__ import annotations

import io
import re
import sys
from typing import TextIO

from digest.models.characters import BIDI, C0_BUT_TAB_NEWLINE, C1, SEPARATORS
from digest.models.errors import OutputError

# C0 controls but tab and newline, DEL, C1 controls, line and paragraph separators, and the bidi
# embeddings, overrides and isolates.
_UNSAFE = re.compile(f"[{C0_BUT_TAB_NEWLINE}{C1}{SEPARATORS}{BIDI}]")
# What json.dumps leaves raw of those (it escapes the C0 controls itself).
_UNSAFE_IN_JSON = re.compile(f"[{C1}{SEPARATORS}{BIDI}]")


def shown(text: str) -> str:
    """`text` with every character a terminal would obey written out as an escape."""
    return _UNSAFE.sub(_escape, text)


def shown_json(text: str) -> str:
    """JSON text with those characters as \\u escapes: the same values to a parser."""
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


def say(text: str, file: TextIO | None = None) -> None:
    """Print one text (lines of it) to stdout, or `file`, safe for a terminal."""
    write(shown(text) + "\n", file)


def write(text: str, file: TextIO | None = None) -> None:
    """Write to stdout, or `file`: nothing when it is closed (`>&-`), an OutputError when it
    cannot be written (a full disk under `>> cron.log`); a closed pipe is the caller's."""
    stream = sys.stdout if file is None else file
    if not stream:  # closed (`>&-`, `2>&-`): Python made it None
        return
    try:
        stream.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"could not write the output: {exc.strerror or exc}") from None


def readable_output() -> None:
    """Standard output and error that never fail on a character their encoding lacks
    (PYTHONIOENCODING=ascii, a latin-1 terminal): such a character is written as an escape."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

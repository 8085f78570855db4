"""The `digest` command: parses arguments, runs one command, and turns the package's exceptions
into one line on stderr each and an exit code (0 ok, 1 needs attention, 2 bad config or input,
141 the reader of its output went away, as after SIGPIPE: `digest status | head -1`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from digest.cli import parser
from digest.cli.logs import REDACTOR, setup_logging
from digest.cli.terminal import readable_output, say
from digest.models import ConfigError, DigestError, InputError, StateError, redact
from digest.models.errors import OutputError

BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for a command whose reader left


def main(argv: Sequence[str] | None = None) -> int:
    readable_output()
    try:
        args = parser.parse(argv)  # --help and --version write here (and may fail to)
        setup_logging(args.verbose)
        code = int(args.command(args))
        _flush()  # a closed pipe shows here, not at exit where it would be a traceback
        return code
    except BrokenPipeError:
        _silence_stdout()
        return BROKEN_PIPE
    except OutputError as exc:  # the work is done; what it would have said is lost
        _silence_stdout()
        _say(exc)
        return 2
    except (ConfigError, InputError, StateError) as exc:
        _say(exc)
        return 2
    except DigestError as exc:
        _say(exc)
        return 1
    except KeyboardInterrupt:
        if sys.stderr is not None:
            print("digest: interrupted", file=sys.stderr)
        return 130


def _say(exc: DigestError) -> None:
    # A ConfigErrors holds one problem per line: each is said as a line of its own.
    if sys.stderr is None:  # closed (`2>&-`): not on stdout, which may be a command's JSON
        return
    try:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            say(f"digest: {redact(line, REDACTOR.secrets)}", file=sys.stderr)
    except OutputError:  # stderr cannot be written either: the exit code is all that is left
        pass


def _flush() -> None:
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"could not write the output: {exc.strerror or exc}") from None


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush at exit finds no closed pipe."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # not a real file (a test's capture): no flush
        pass

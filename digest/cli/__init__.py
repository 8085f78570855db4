"""The `digest` command: parses arguments, runs one command, and turns the package's exceptions
into one line on stderr and an exit code (0 ok, 1 needs attention, 2 bad config or input)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from digest.cli import parser
from digest.cli.logs import REDACTOR, setup_logging
from digest.models import ConfigError, DigestError, InputError, StateError, redact


def main(argv: Sequence[str] | None = None) -> int:
    args = parser.build().parse_args(argv)
    setup_logging(args.verbose)
    try:
        return int(args.command(args))
    except (ConfigError, InputError, StateError) as exc:
        print(f"digest: {redact(str(exc), REDACTOR.secrets)}", file=sys.stderr)
        return 2
    except DigestError as exc:
        print(f"digest: {redact(str(exc), REDACTOR.secrets)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("digest: interrupted", file=sys.stderr)
        return 130

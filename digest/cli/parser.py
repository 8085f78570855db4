"""The argument tree of the `digest` command: global options, one sub-command per command, and
the options every command shares (--config, --state, --now)."""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, NoReturn

from digest import __version__
from digest.cli import commands
from digest.models.errors import OutputError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

DEFAULT_CONFIG = "config/digest.toml"


def parse(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The parsed command line; -v counts before and after the command (`digest run -v`)."""
    args = build().parse_args(argv)
    args.verbose += getattr(args, "verbose_after", 0)
    return args


class _Parser(argparse.ArgumentParser):
    """argparse, but a mistake is one line (with where to look), not the usage block and then it:
    cron mails and container logs keep the line that says what is wrong."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        # argparse drops a write that fails: `digest --help > /dev/full` said nothing, exit 0.
        if not message:
            return
        stream = file or sys.stderr
        try:
            stream.write(message)
            if flush := getattr(stream, "flush", None):
                flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise OutputError(f"could not write the output: {exc.strerror or exc}") from None


class _Command(_Parser):
    """A sub-command's parser: an argument it does not know is its own mistake. argparse hands
    it up to the top-level parser, whose line named `digest` (see digest --help), not the
    command whose help lists what it takes."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: Any = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build() -> argparse.ArgumentParser:
    parser = _Parser(prog="digest", description="A daily research-paper digest and alert bot.")
    parser.add_argument("--version", action="version", version=f"digest {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    subparsers = parser.add_subparsers(
        title="commands", required=True, metavar="COMMAND", parser_class=_Command
    )

    def command(name: str, func: object, help: str, state: bool = True) -> argparse.ArgumentParser:
        sub = subparsers.add_parser(name, help=help, description=help)
        sub.add_argument(
            "-v",
            "--verbose",
            dest="verbose_after",
            action="count",
            default=0,
            help="log more (-vv: debug), as before the command",
        )
        sub.add_argument(
            "--config",
            type=_config,
            default=_default_config(),
            help=f"the config file (default: $DIGEST_CONFIG or {DEFAULT_CONFIG})",
        )
        if state:
            sub.add_argument(
                "--state",
                help="the state database (default: $DIGEST_STATE, else the config's [state], "
                "else $DIGEST_DEFAULT_STATE, else state/digest.db)",
            )
            sub.add_argument(
                "--now",
                type=_instant,
                help="the run's clock, ISO 8601 "
                "(default: the real time; no offset means local time)",
            )
        sub.set_defaults(command=func)
        return sub

    run = command(
        "run",
        commands.run,
        "ingest, rank, render and deliver once; exit 1 if a delivery is pending or failed",
    )
    run.add_argument(
        "--wait",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for another run holding the state lock, then skip with exit 1 "
        "(default 60)",
    )
    rank = command(
        "rank", commands.rank, "rank papers for every subscriber, read-only, as JSON", state=False
    )
    rank.add_argument(
        "--papers",
        action="append",
        required=True,
        metavar="FILE.jsonl",
        help="papers to rank (repeatable)",
    )
    rank.add_argument(
        "--top", type=_count, default=10, help="papers per subscriber (default 10, up to 1000)"
    )
    rank.add_argument("--format", choices=["json"], default="json")
    rank.add_argument(
        "--state",
        help="the state database whose ratings (`digest feedback`) apply, if it exists; never "
        "created (default: $DIGEST_STATE, else the config's [state], else $DIGEST_DEFAULT_STATE, "
        "else state/digest.db)",
    )
    feedback = command(
        "feedback",
        commands.feedback,
        "rate a paper for a subscriber: up (more like it) or down (less); the next rank and "
        "digest follow it",
    )
    feedback.add_argument("subscriber", metavar="SUBSCRIBER")
    feedback.add_argument("paper", metavar="PAPER_ID", help="a paper in the state database")
    feedback.add_argument("rating", choices=["up", "down"])
    preview = command(
        "preview", commands.preview, "render a subscriber's next digest without changing any state"
    )
    preview.add_argument("--subscriber", required=True)
    preview.add_argument("--format", choices=["text", "html", "subject"], default="text")
    command(
        "validate",
        commands.validate,
        "check the config, libraries and templates; run nothing",
        state=False,
    )
    retry = command(
        "retry",
        commands.retry,
        "send dead deliveries again, after fixing their cause; exit 1 if any is still undelivered",
    )
    retry.add_argument(
        "--subscriber",
        help="only this subscriber's deliveries: its dead ones revived and sent with its due ones,"
        " no other subscriber's",
    )
    retry.add_argument(
        "--drop",
        nargs="*",
        metavar="SUBSCRIBER/CHANNEL",
        help="give these dead deliveries up instead of sending them again (none named: every "
        "dead one, or --subscriber's), e.g. a Slack part that got no answer: they are kept as "
        "dropped and no longer count as dead",
    )
    serve = command(
        "serve",
        commands.serve,
        "run by itself: each subscriber's digest on its schedule, polls for new papers and "
        "alerts; stops cleanly on SIGTERM or SIGINT",
        state=False,
    )
    serve.add_argument("--state", help="the state database (as for run)")
    web = command(
        "web",
        commands.web,
        "run the web face alone ([web]: rating links, unsubscribe, archive, feed, Slack "
        "actions), e.g. in its own container behind a reverse proxy; stops on SIGTERM or SIGINT",
        state=False,
    )
    web.add_argument("--state", help="the state database (as for run)")
    ratings = command(
        "ratings",
        commands.ratings,
        "list the readers' ratings (from `digest feedback`, the web, Matrix and Slack)",
    )
    ratings.add_argument("--subscriber", help="only this subscriber's ratings")
    ratings.add_argument("--format", choices=["text", "json"], default="text")
    resume = command(
        "resume",
        commands.resume,
        "send e-mail again to a subscriber who unsubscribed with the one-click link",
    )
    resume.add_argument("name", metavar="NAME", help="the subscriber")
    command(
        "status",
        commands.status,
        "last runs, next digests, sources, pending and dead deliveries; exit 1 if any needs "
        "attention",
    )
    command(
        "health",
        commands.health,
        "exit 0 if a `digest serve` over this state is ticking, else 1 (the container's check)",
    )
    return parser


def _default_config() -> str:
    # Empty is unset, as for $DIGEST_STATE (compose's ${DIGEST_CONFIG} of nothing); blank too,
    # which names no file either.
    given = os.environ.get("DIGEST_CONFIG", "")
    return given if given.strip() else DEFAULT_CONFIG


def _config(text: str) -> str:
    if not text.strip():  # `--config "$UNSET"` had read the working directory, ".": not a file
        raise argparse.ArgumentTypeError(
            f"blank; name the config file, or leave it out for $DIGEST_CONFIG or {DEFAULT_CONFIG}"
        )
    return text


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or not 0 <= value <= 86400:
        raise argparse.ArgumentTypeError(f"not a number of seconds from 0 to 86400: {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 1000:
        raise argparse.ArgumentTypeError(f"not a whole number from 1 to 1000: {text!r}")
    return value


def _instant(text: str) -> datetime:
    # A leap second (23:59:60, as a log in UTC writes it) is ISO 8601 that no datetime holds: it
    # reads as POSIX time reads it, the first second of the next minute.
    held, leap = re.subn(r"(?<=\d\d:\d\d):60(?!\d)", ":59", text, count=1)
    try:
        moment = datetime.fromisoformat(held) + timedelta(seconds=leap)
    except (ValueError, OverflowError):  # the second after 9999-12-31T23:59:59 overflows
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None
    # Periods look back years and schedules forward: the ends of the calendar overflow.
    if not 1971 <= moment.year <= 9000:
        raise argparse.ArgumentTypeError(f"{text!r}: the year must be 1971 to 9000")
    if moment.tzinfo:
        return moment
    local = moment.astimezone()
    if local.replace(tzinfo=None) != moment:  # a time the clocks skip: read as an hour off
        raise argparse.ArgumentTypeError(
            f"{text!r} does not exist in this machine's time zone (the clocks skip it);"
            " give the time with its UTC offset"
        )
    return local

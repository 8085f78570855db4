"""The `digest` command: parses arguments, runs one command, and turns the package's exceptions
into one line on stderr and an exit code (0 ok, 1 needs attention, 2 bad config or input)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from digest import __version__
from digest.models import ConfigError, DigestError, InputError, Settings, StateError, redact

if TYPE_CHECKING:
    from digest.pipeline import RunReport

log = logging.getLogger("digest")
DEFAULT_CONFIG = "config/digest.toml"


class Redactor(logging.Filter):
    """Replaces every known secret in a log record before any handler sees it."""

    secrets: frozenset[str] = frozenset()

    def filter(self, record: logging.LogRecord) -> bool:
        if self.secrets:
            record.msg, record.args = redact(record.getMessage(), self.secrets), None
        return True


REDACTOR = Redactor()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    _setup_logging(args.verbose)
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="digest", description="A daily research-paper digest and alert bot."
    )
    parser.add_argument("--version", action="version", version=f"digest {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")

    def command(name: str, func: object, help: str, state: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help, description=help)
        sub.add_argument(
            "--config",
            default=os.environ.get("DIGEST_CONFIG", DEFAULT_CONFIG),
            help=f"the config file (default: $DIGEST_CONFIG or {DEFAULT_CONFIG})",
        )
        if state:
            sub.add_argument(
                "--state",
                help="the state database (default: $DIGEST_STATE, "
                "else [state].path, else state/digest.db)",
            )
            sub.add_argument(
                "--now",
                type=_instant,
                help="the run's clock, ISO 8601 "
                "(default: the real time; no offset means local time)",
            )
        sub.set_defaults(command=func)
        return sub

    command(
        "run",
        _run,
        "ingest, rank, render and deliver once; exit 1 if a delivery is pending or failed",
    )
    rank = command(
        "rank", _rank, "rank papers for every subscriber, read-only, as JSON", state=False
    )
    rank.add_argument(
        "--papers",
        action="append",
        required=True,
        metavar="FILE.jsonl",
        help="papers to rank (repeatable)",
    )
    rank.add_argument("--top", type=int, default=10, help="papers per subscriber (default 10)")
    rank.add_argument("--format", choices=["json"], default="json")
    preview = command(
        "preview", _preview, "render a subscriber's next digest without changing any state"
    )
    preview.add_argument("--subscriber", required=True)
    preview.add_argument("--format", choices=["text", "html", "subject"], default="text")
    command(
        "validate", _validate, "check the config, libraries and templates; run nothing", state=False
    )
    return parser


def _instant(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an ISO 8601 time: {text!r}") from None
    return moment if moment.tzinfo else moment.astimezone()


def _setup_logging(verbose: int) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("digest: %(levelname)s: %(message)s"))
    handler.addFilter(REDACTOR)
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel([logging.WARNING, logging.INFO, logging.DEBUG][min(verbose, 2)])


def _settings(args: argparse.Namespace) -> Settings:
    from digest import config

    settings = config.load(args.config)
    REDACTOR.secrets = settings.secrets
    return settings


def _state_path(args: argparse.Namespace, settings: Settings) -> str:
    return args.state or os.environ.get("DIGEST_STATE") or settings.state_path


def _now(args: argparse.Namespace) -> datetime:
    return args.now or datetime.now().astimezone()


def _run(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.store import Store

    settings = _settings(args)
    with Store(_state_path(args, settings)) as store:
        report = pipeline.run_once(settings, store, _now(args))
    print(_describe(report))
    return report.exit_code


def _describe(report: RunReport) -> str:
    papers = report.summary()["papers"]
    lines = [
        f"digest run at {report.now.isoformat(timespec='minutes')}",
        f"papers: {papers['read']} read, {papers['skipped']} skipped, {papers['new']} new",
    ]
    for source in report.sources:
        state = (
            f"FAILED: {source.error}"
            if source.error
            else (f"{source.read} read, {source.skipped} skipped, {source.new} new")
        )
        lines.append(f"  source {source.name}: {state}")
    width = max((len(s.name) for s in report.subscribers), default=0)
    for sub in report.subscribers:
        detail = sub.status
        if sub.status == "made":
            detail = f"{sub.picked} picked, top score {sub.top_score:.2f}"
        lines.append(f"  {sub.name:<{width}}  {detail}")
    out = report.outcome
    lines.append(
        f"deliveries: {len(out.sent)} sent, {len(out.retrying)} retrying, "
        f"{len(out.dead)} dead now; {report.pending} pending, {report.dead} dead in all"
    )
    lines += [f"  sent {item}" for item in out.sent]
    lines += [f"  retrying {item}" for item in out.retrying]
    lines += [f"  dead {item}" for item in out.dead]
    return "\n".join(lines)


def _rank(args: argparse.Namespace) -> int:
    from digest import pipeline

    if args.top < 1:
        raise InputError("--top must be at least 1")
    settings = _settings(args)
    result = pipeline.rank_files(settings, args.papers, args.top)
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _preview(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.store import Store

    settings = _settings(args)
    path = _state_path(args, settings)
    # A preview never creates the state file: with none yet, it previews a first run.
    with Store(path if os.path.exists(path) else ":memory:") as store:
        message = pipeline.preview(settings, store, args.subscriber, _now(args))
    print({"text": message.text, "html": message.html, "subject": message.subject}[args.format])
    return 0


def _validate(args: argparse.Namespace) -> int:
    from digest import library, render

    settings = _settings(args)
    library.with_libraries(settings.subscribers)
    render.check_templates(render.make_environment(settings.templates))
    channels = sum(len(s.channels) for s in settings.subscribers)
    print(
        f"{args.config}: OK: {len(settings.sources)} source(s), "
        f"{len(settings.subscribers)} subscriber(s), {channels} channel(s)"
    )
    return 0

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
    from digest.pipeline import RunReport, SourceReport

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

    run = command(
        "run",
        _run,
        "ingest, rank, render and deliver once; exit 1 if a delivery is pending or failed",
    )
    run.add_argument(
        "--wait",
        type=float,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for another run holding the state lock, then skip with exit 1 "
        "(default 60)",
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
    rank.add_argument(
        "--state",
        help="the state database whose ratings (`digest feedback`) apply, if it exists; never "
        "created (default: $DIGEST_STATE, else [state].path, else state/digest.db)",
    )
    feedback = command(
        "feedback",
        _feedback,
        "rate a paper for a subscriber: up (more like it) or down (less); the next rank and "
        "digest follow it",
    )
    feedback.add_argument("subscriber", metavar="SUBSCRIBER")
    feedback.add_argument("paper", metavar="PAPER_ID", help="a paper in the state database")
    feedback.add_argument("rating", choices=["up", "down"])
    preview = command(
        "preview", _preview, "render a subscriber's next digest without changing any state"
    )
    preview.add_argument("--subscriber", required=True)
    preview.add_argument("--format", choices=["text", "html", "subject"], default="text")
    command(
        "validate", _validate, "check the config, libraries and templates; run nothing", state=False
    )
    retry = command(
        "retry",
        _retry,
        "send dead deliveries again, after fixing their cause; exit 1 if any is still undelivered",
    )
    retry.add_argument("--subscriber", help="only this subscriber's dead deliveries")
    serve = command(
        "serve",
        _serve,
        "run by itself: each subscriber's digest on its schedule, polls for new papers and "
        "alerts; stops cleanly on SIGTERM or SIGINT",
        state=False,
    )
    serve.add_argument("--state", help="the state database (as for run)")
    command(
        "status",
        _status,
        "last runs, next digests, sources, pending and dead deliveries; exit 1 if any needs "
        "attention",
    )
    command(
        "health",
        _health,
        "exit 0 if a `digest serve` over this state is ticking, else 1 (the container's check)",
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
    # httpx logs every request URL at INFO, and a webhook's URL is its secret: channels and
    # sources log what matters themselves.
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def _settings(args: argparse.Namespace) -> Settings:
    from digest import config, sources

    settings = config.load(args.config)
    REDACTOR.secrets = settings.secrets
    sources.check(settings)  # what each source kind knows of its own values
    return settings


def _state_path(args: argparse.Namespace, settings: Settings) -> str:
    return args.state or os.environ.get("DIGEST_STATE") or settings.state_path


def _now(args: argparse.Namespace) -> datetime:
    return args.now or datetime.now().astimezone()


def _run(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.scheduler import run_lock
    from digest.store import Store

    settings = _settings(args)
    path = _state_path(args, settings)

    def waiting(holder: str) -> None:
        log.warning("another run holds the state lock (%s); waiting up to %g s", holder, args.wait)

    # One run at a time over one state: an overlapping cron run waits, then skips (exit 1).
    with run_lock(path, args.wait, on_wait=waiting), Store(path) as store:
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
        lines.append(f"  source {source.name}: {_source_state(source)} ({source.seconds:.2f} s)")
    width = max((len(s.name) for s in report.subscribers), default=0)
    for sub in report.subscribers:
        detail = _SUBSCRIBER_STATES.get(sub.status, sub.status)
        if sub.status == "made":
            detail = f"{sub.picked} picked, top score {sub.top_score:.2f}"
        notified = " (notified: on_empty = notify)" if sub.notified else ""
        lines.append(f"  {sub.name:<{width}}  {detail}{notified}")
    for alert in report.alerts:
        held = f"; {alert.held} more wait for the digest (daily cap)" if alert.held else ""
        made = ", ".join(alert.made) or "none"
        lines.append(f"  {alert.subscriber:<{width}}  alerts: {made}{held}")
    out = report.outcome
    lines.append(
        f"deliveries: {len(out.sent)} sent, {len(out.retrying)} retrying, "
        f"{len(out.dead)} dead now; {report.pending} pending, {report.dead} dead in all"
    )
    lines += [f"  sent {item}" for item in out.sent]
    lines += [f"  retrying {item}" for item in out.retrying]
    lines += [f"  dead {item}" for item in out.dead]
    return "\n".join(lines)


# Said plainly, because "failed", "nothing new" and "nothing matched" call for different actions.
_SUBSCRIBER_STATES = {
    "nothing new": "nothing new: no paper arrived since the last digest",
    "no match": "no match: new papers arrived, none scored above min_score",
    "waiting for sources": "waiting for sources: every source failed; a later run makes it",
}


def _source_state(source: SourceReport) -> str:
    counts = f"{source.read} read, {source.skipped} skipped, {source.new} new"
    if source.error:
        kept = f" (kept {source.read} read before)" if source.read else ""
        return f"FAILED: {source.error}{kept}"
    if source.read == 0:
        return f"{counts}: the source has no papers now (empty feed, or none in the window)"
    if source.new == 0:
        return f"{counts}: all seen before"
    return counts


def _rank(args: argparse.Namespace) -> int:
    from digest import pipeline

    if args.top < 1:
        raise InputError("--top must be at least 1")
    settings = _settings(args)
    path = _state_path(args, settings)
    if os.path.exists(path):
        from digest.store import Store

        with Store(path) as store:
            result = pipeline.rank_files(settings, args.papers, args.top, store)
    else:
        result = pipeline.rank_files(settings, args.papers, args.top)
    # One string, one write: json.dump's chunked writes cost seconds at 10k subscribers.
    sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
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


def _retry(args: argparse.Namespace) -> int:
    from digest import outbox
    from digest.scheduler import run_lock
    from digest.store import Store

    settings = _settings(args)
    path = _state_path(args, settings)
    # Never beside a run: two senders of one row could post it twice.
    with run_lock(path, 60.0), Store(path) as store:
        revived = store.revive_dead(args.subscriber)
        out = outbox.deliver(store, settings, _now(args))
        counts = store.outbox_counts()
    pending, dead = counts.get("pending", 0), counts.get("dead", 0)
    lines = [
        f"retry: {revived} dead deliver{'y' if revived == 1 else 'ies'} queued again; "
        f"{len(out.sent)} sent, {len(out.retrying)} retrying, {len(out.dead)} dead now; "
        f"{pending} pending, {dead} dead in all"
    ]
    lines += [f"  sent {item}" for item in out.sent]
    lines += [f"  retrying {item}" for item in out.retrying]
    lines += [f"  dead {item}" for item in out.dead]
    print("\n".join(lines))
    return 1 if pending or dead else 0


def _serve(args: argparse.Namespace) -> int:
    from digest.scheduler import Server

    settings = _settings(args)
    if args.verbose == 0:  # a service's log is its output: say what it does
        logging.getLogger().setLevel(logging.INFO)
    if args.verbose < 2:
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    return Server(settings, _state_path(args, settings)).serve()


def _status(args: argparse.Namespace) -> int:
    from digest.scheduler import status_report
    from digest.store import Store

    settings = _settings(args)
    path = _state_path(args, settings)
    if not os.path.exists(path):
        print(f"digest status: no state at {path} yet: no run so far")
        return 0
    with Store(path) as store:
        text, code = status_report(settings, store, path, _now(args))
    print(text)
    return code


def _health(args: argparse.Namespace) -> int:
    from digest.scheduler import health

    # The container's check reads $DIGEST_STATE and never needs the config.
    path = args.state or os.environ.get("DIGEST_STATE") or _settings(args).state_path
    alive, why = health(path, _now(args))
    print(f"digest health: {why}")
    return 0 if alive else 1


def _feedback(args: argparse.Namespace) -> int:
    from digest.sources.files import normalize_id
    from digest.store import Store

    settings = _settings(args)
    if not any(s.name == args.subscriber for s in settings.subscribers):
        known = ", ".join(s.name for s in settings.subscribers)
        raise InputError(
            f"no subscriber named {args.subscriber!r} in {settings.path}; known: {known}"
        )
    path = _state_path(args, settings)
    if not os.path.exists(path):
        raise InputError(f"{path}: no state database yet: papers are known after a `digest run`")
    with Store(path) as store:
        paper = store.papers.paper(normalize_id(args.paper))
        if paper is None:
            raise InputError(f"{args.paper}: no such paper in {path}")
        store.ratings.rate(args.subscriber, paper.id, args.rating, _now(args))
    print(f"{args.subscriber}: rated {paper.id} {args.rating} ({paper.title})")
    return 0

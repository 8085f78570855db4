"""One function per `digest` command: each takes the parsed arguments and returns the exit code;
the package's exceptions travel up to main() (cli/__init__.py)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import threading
from datetime import UTC, datetime

from digest.cli import states
from digest.cli.logs import REDACTOR
from digest.cli.terminal import say, shown_json, write
from digest.models import InputError, Settings, StateError

log = logging.getLogger("digest")


def _settings(args: argparse.Namespace) -> Settings:
    settings = _reread(args)
    REDACTOR.secrets = settings.secrets
    # validate refuses them; the commands that rank say so, and go on.
    if getattr(args.command, "__name__", "") in ("run", "serve", "preview", "rank"):
        from digest.cli.checkup import wordless

        for sub in settings.subscribers:
            for problem in wordless(sub):
                log.warning("%s: subscribers.%s.%s", settings.path, sub.name, problem)
    return settings


def _reread(args: argparse.Namespace) -> Settings:
    """The config read and checked; its secrets join those the log blots (a web face reads it
    again when it changes, and the old secrets may still be in a line being written)."""
    from digest import config, sources

    settings = config.load(args.config)
    REDACTOR.secrets = REDACTOR.secrets | settings.secrets
    sources.check(settings)  # what each source kind knows of its own values
    return settings


def _libraries(settings: Settings) -> None:
    """Every subscriber's library file read (and cached for the run), each one that cannot be
    named with its subscriber's key, all in one round (exit 2). The run says their warnings."""
    from digest.cli.checkup import library_problem
    from digest.models.errors import ConfigErrors

    read: set[str] = set()
    if problems := [
        p for s in settings.subscribers for p in library_problem(settings.path, s, read, True)
    ]:
        raise ConfigErrors(problems)


def _subscriber(settings: Settings, name: str) -> None:
    if not any(s.name == name for s in settings.subscribers):
        known = ", ".join(s.name for s in settings.subscribers) or "none"
        raise InputError(f"no subscriber named {name!r} in {settings.path}; known: {known}")


def _now(args: argparse.Namespace) -> datetime:
    return args.now or datetime.now().astimezone()


TERMINATED = 143  # 128 + SIGTERM, as a shell reports a command a SIGTERM ended


def run(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.models import deadline
    from digest.state import Store
    from digest.state.lock import run_lock

    settings = _settings(args)
    path = states.state_path(args, settings)
    _libraries(settings)  # before the state is opened: a bad library makes no state file

    def waiting(holder: str) -> None:
        log.warning("another run holds the state lock (%s); waiting up to %g s", holder, args.wait)

    # SIGTERM (systemd, docker stop, shutdown) stops as serve does: what is begun is recorded,
    # the message on the wire is finished, the rest left pending for the next run; a source's
    # read in flight ends at once (a feed dripping a byte a second had held it five minutes).
    stopped = threading.Event()
    main = threading.current_thread() is threading.main_thread()  # only it may take signals
    previous = signal.signal(signal.SIGTERM, deadline.stopper(stopped)) if main else None
    try:
        # One run at a time over one state: an overlapping cron run waits, then skips (exit 1).
        with run_lock(path, args.wait, stopped.is_set, on_wait=waiting), Store(path) as store:
            store.beat(datetime.now(UTC), "run")  # alive by the wall clock, whatever --now
            report = pipeline.run_once(settings, store, _now(args), stop=stopped.is_set)
            store.leave()
    finally:
        deadline.resume()
        if main:
            signal.signal(signal.SIGTERM, previous)
    from digest.cli.reports import describe

    say(describe(report))
    if stopped.is_set():
        log.warning("terminated (SIGTERM): what is not delivered goes out with the next run")
        return TERMINATED
    return report.exit_code


def rank(args: argparse.Namespace) -> int:
    from digest import corpus  # numpy and the ranking: only for the commands that rank

    settings = _settings(args)
    path = states.state_path(args, settings)
    if states.exists(path):
        from digest.state import Store

        with Store(path, upgrade=False) as store:
            result = corpus.rank_files(settings, args.papers, args.top, store)
    else:
        result = corpus.rank_files(settings, args.papers, args.top)
    # One string, one write: json.dump's chunked writes cost seconds at 10k subscribers.
    write(shown_json(json.dumps(result, ensure_ascii=False)) + "\n")
    return 0


def preview(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.state import Store

    settings = _settings(args)
    path = states.state_path(args, settings)
    # A preview never creates the state file: with none yet, it previews a first run.
    with Store(path if states.exists(path) else ":memory:", upgrade=False) as store:
        message = pipeline.preview(settings, store, args.subscriber, _now(args))
    if isinstance(message, str):  # a quiet period that sends nothing
        say(message)
        return 0
    say({"text": message.text, "html": message.html, "subject": message.subject}[args.format])
    return 0


def validate(args: argparse.Namespace) -> int:
    """Every problem of the config, its sources' values, libraries, paths and templates, one line
    each (exit 2); or OK and where each relative path landed."""
    from digest import config
    from digest.cli.checkup import problems, where_paths
    from digest.models.errors import ConfigErrors

    settings = config.load(args.config)  # its own problems are all raised at once
    REDACTOR.secrets = settings.secrets
    found = problems(settings)
    if found:
        raise ConfigErrors(found)
    channels = sum(len(s.channels) for s in settings.subscribers)
    lines = [
        f"{args.config}: OK: {len(settings.sources)} source(s), "
        f"{len(settings.subscribers)} subscriber(s), {channels} channel(s)",
        *where_paths(settings),
    ]
    say("\n".join(lines))
    return 0


def retry(args: argparse.Namespace) -> int:
    from digest import outbox
    from digest.state import Store
    from digest.state.lock import run_lock

    settings = _settings(args)
    if args.subscriber is not None:
        _subscriber(settings, args.subscriber)
    path = states.state_path(args, settings)
    if not states.exists(path):  # a new, empty state would say "0 pending" of the real one's rows
        raise StateError(f"no state at {path}: nothing was ever owed there (is it the right path?)")
    if args.drop is not None:
        return _drop(args, settings, path)
    # Never beside a run: two senders of one row could post it twice.
    with run_lock(path, 60.0), Store(path) as store:
        revived = store.revive_dead(args.subscriber)
        # --subscriber: that subscriber's deliveries alone (its revived and due ones).
        out = outbox.deliver(store, settings, _now(args), subscriber=args.subscriber)
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
    say("\n".join(lines))
    return 1 if pending or dead else 0


def _drop(args: argparse.Namespace, settings: Settings, path: str) -> int:
    """`digest retry --drop`: the named dead deliveries are given up (kept, as dropped)."""
    from digest.models import redact
    from digest.state import Store
    from digest.state.lock import run_lock

    with run_lock(path, 60.0), Store(path) as store:
        whose = args.subscriber
        dead = {
            f"{r.subscriber}/{r.channel}"
            for r in store.outbox("dead")
            if whose is None or r.subscriber == whose
        }
        for label in args.drop:
            if label not in dead:
                known = ", ".join(sorted(dead)) or "none"
                of = "" if whose is None else f" with --subscriber {whose}"
                raise InputError(f"--drop {label}: no dead delivery of it{of}; dead: {known}")
        dropped = store.drop_dead(args.drop, args.subscriber, _now(args))
        counts = store.outbox_counts()
    pending, dead_now = counts.get("pending", 0), counts.get("dead", 0)
    lines = [
        f"retry: {len(dropped)} dead deliver{'y' if len(dropped) == 1 else 'ies'} dropped (given"
        f" up, not sent again); {pending} pending, {dead_now} dead in all"
    ]
    for row in dropped:
        log.warning("dropped the dead delivery %s/%s %s", row.subscriber, row.channel, row.period)
        reason = redact(row.last_error, settings.secrets)
        lines.append(
            f"  dropped {row.subscriber}/{row.channel} {row.purpose} {row.period}: {reason}"
        )
    say("\n".join(lines))
    return 1 if pending or dead_now else 0


def serve(args: argparse.Namespace) -> int:
    from digest.scheduler import Server

    settings = _settings(args)
    if args.verbose == 0:  # a service's log is its output: say what it does
        logging.getLogger().setLevel(logging.INFO)
    if args.verbose < 2:
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    path = states.state_path(args, settings)
    server = Server(settings, path)
    if not settings.web:
        return server.serve()
    from digest.web.server import Thread

    def early(signum: int, frame: object) -> None:  # before serve() takes the signals over
        server.signal_name = signal.Signals(signum).name
        server.stop.set()

    previous = {sig: signal.signal(sig, early) for sig in (signal.SIGTERM, signal.SIGINT)}
    # Beside the scheduler, over the same state, and on the same config: a face that read an
    # edited config (a new secret) refused the links of the digests serve's jobs still made.
    web = Thread(settings, path)
    try:
        web.start()
        return server.serve()
    finally:
        web.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def status(args: argparse.Namespace) -> int:
    from digest.cli.reports import status_report
    from digest.state import Store

    settings = _settings(args)
    path = states.state_path(args, settings)
    if not states.exists(path):
        say(f"digest status: no state at {path} yet: no run so far")
        return 0
    with Store(path, upgrade=False) as store:
        text, code = status_report(settings, store, path, _now(args))
    say(text)
    return code


def health(args: argparse.Namespace) -> int:
    from digest.state import Store, engine
    from digest.state.lock import health

    # The container's check reads $DIGEST_STATE and never needs the config.
    path = args.state or os.environ.get("DIGEST_STATE") or _settings(args).state_path
    path = states.secret_state(args, path)
    if not engine.is_url(path) and os.path.exists(path):
        with Store(path, upgrade=False):  # a state no serve could use is bad state (exit 2)
            pass
    # On PostgreSQL a container checks its own worker ($DIGEST_WORKER), not just any.
    alive, why = health(path, _now(args), os.environ.get("DIGEST_WORKER"))
    say(f"digest health: {why}")
    return 0 if alive else 1


def feedback(args: argparse.Namespace) -> int:
    from digest.models import Paper, identity
    from digest.sources.files import normalize_id
    from digest.state import Store

    settings = _settings(args)
    _subscriber(settings, args.subscriber)
    path = states.state_path(args, settings)
    if not states.exists(path):
        raise InputError(f"{path}: no state database yet: papers are known after a `digest run`")
    if not args.paper.strip():
        raise InputError("feedback: the paper id is empty")
    with Store(path) as store:
        wanted = normalize_id(args.paper)
        paper = store.papers.paper(wanted)
        if paper is None:  # a DOI, an OpenReview forum...: any key the paper is known by
            keys = identity.keys(Paper(id=wanted, title="", abstract=""))
            known = store.papers.known(keys)
            paper = store.papers.paper(known) if known else None
        if paper is None:
            raise InputError(f"{args.paper}: no such paper in {store.name}")
        store.ratings.rate(args.subscriber, paper.id, args.rating, _now(args))
    say(f"{args.subscriber}: rated {paper.id} {args.rating} ({paper.title})")
    return 0


def web(args: argparse.Namespace) -> int:
    from digest.models import ConfigError
    from digest.web import server

    settings = _settings(args)
    if not settings.web:
        raise ConfigError(f"{settings.path}: web: no [web] table (base_url, listen, secret)")
    if args.verbose == 0:
        logging.getLogger().setLevel(logging.INFO)
    return server.run(settings, states.state_path(args, settings), lambda: _reread(args))


def ratings(args: argparse.Namespace) -> int:
    from digest.state import Store

    settings = _settings(args)
    path = states.state_path(args, settings)
    if args.subscriber and not any(s.name == args.subscriber for s in settings.subscribers):
        raise InputError(f"no subscriber named {args.subscriber!r} in {settings.path}")
    listed: list[dict[str, str]] = []
    if states.exists(path):  # never creates the state: no state, no ratings
        with Store(path, upgrade=False) as store:
            listed = store.ratings.listing(args.subscriber)
    if args.format == "json":
        write(shown_json(json.dumps(listed, ensure_ascii=False)) + "\n")
        return 0
    for r in listed:
        say(f"{r['at']}  {r['subscriber']}  {r['vote']:<4}  {r['paper']}  (via {r['via']})")
    if not listed:
        say("no ratings yet")
    return 0


def resume(args: argparse.Namespace) -> int:
    from digest.state import Store

    settings = _settings(args)
    if not any(s.name == args.name for s in settings.subscribers):
        known = ", ".join(s.name for s in settings.subscribers)
        raise InputError(f"no subscriber named {args.name!r} in {settings.path}; known: {known}")
    path = states.state_path(args, settings)
    resumed: list[str] = []
    if states.exists(path):
        with Store(path) as store:
            resumed = store.web.resume(args.name)
    if resumed:
        say(f"{args.name}: {', '.join(resumed)} resumed; the next digest goes out as usual")
    else:
        say(f"{args.name}: nothing was paused")
    return 0

"""One function per `digest` command: each takes the parsed arguments and returns the exit code;
the package's exceptions travel up to main() (cli/__init__.py)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
from typing import TYPE_CHECKING

from digest.cli import names, retrying, states
from digest.cli.clock import now as _now
from digest.cli.clock import recording
from digest.cli.logs import REDACTOR
from digest.cli.stopping import on_sigterm, terminated
from digest.cli.terminal import say, shown_json, write
from digest.models import InputError, Settings, StateError

if TYPE_CHECKING:
    from digest.state import Store
    from digest.state.pauses import Mailing
    from digest.web.server import Thread

log = logging.getLogger("digest")


def _settings(args: argparse.Namespace) -> Settings:
    settings = _reread(args)
    REDACTOR.secrets = settings.secrets
    # validate refuses them; the commands that rank say so, and go on.
    if getattr(args.command, "__name__", "") in ("run", "serve", "preview", "rank"):
        from digest.cli.checkup import unread, wordless

        for sub in settings.subscribers:
            for problem in wordless(sub) + unread(sub):
                log.warning("%s: subscribers.%s.%s", settings.path, sub.name, problem)
    return settings


def _reread(args: argparse.Namespace) -> Settings:
    """The config read and checked; its secrets join those the log blots (a web face reads it
    again when it changes, and the old secrets may still be in a line being written)."""
    from digest import config, sources

    settings = _something(config.load(args.config))
    REDACTOR.secrets = REDACTOR.secrets | settings.secrets
    sources.check(settings)  # what each source kind knows of its own values
    return settings


def _something(settings: Settings) -> Settings:
    """A config that reads or sends something. An empty or cut-short file (a failed copy, `cp
    /dev/null`) had validated OK, and cron then ran a bot that did nothing, every run exit 0."""
    from digest.models import ConfigError

    if not settings.sources and not settings.subscribers:
        raise ConfigError(
            f"{settings.path}: no [[sources]] and no [[subscribers]]: nothing would be read or"
            " sent (is the file empty or cut short?)"
        )
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


def run(args: argparse.Namespace) -> int:
    from digest import pipeline
    from digest.marks import SETTLE_SECONDS
    from digest.state import Store
    from digest.state.engine import StateStopped
    from digest.state.lock import LockStopped, run_lock

    settings = _settings(args)
    clock = recording(args)
    path = states.state_path(args, settings)
    _libraries(settings)  # before the state is opened: a bad library makes no state file

    def waiting(holder: str) -> None:
        log.warning("another run holds the state lock (%s); waiting up to %g s", holder, args.wait)

    # SIGTERM (systemd, docker stop, shutdown) stops as serve does (cli/stopping.py).
    with on_sigterm() as stopped:
        try:
            # One run at a time over one state: an overlapping cron run waits, then skips (1).
            with run_lock(path, args.wait, stopped.is_set, on_wait=waiting), Store(path) as store:
                with store.beating(away=SETTLE_SECONDS):
                    report = pipeline.run_once(settings, store, clock, stop=stopped.is_set)
        except LockStopped as exc:
            return terminated(f"{exc}: this run did nothing; the next run does it")
        except StateStopped as exc:  # a wait for another worker's lock on the state
            return terminated(f"{exc}; the next run does it")
        except StateError as exc:
            if not stopped.is_set():
                raise
            # Stopped while it waited for its state database (a server away): a SIGTERM's end,
            # 143, not an error's 2 (ops21 F3); what it could not record was said above.
            return terminated(f"{exc}; what is not delivered goes out with the next run")
    from digest.cli.reports import describe

    say(describe(report))
    if stopped.is_set():
        return terminated("what is not delivered goes out with the next run")
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
    args.subscriber = names.subscriber(settings, args.subscriber)
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
    from digest.cli.checkup import bursts, problems, where_paths
    from digest.models.errors import ConfigErrors

    settings = _something(config.load(args.config))  # its own problems are all raised at once
    REDACTOR.secrets = settings.secrets
    found = problems(settings)
    if found:
        raise ConfigErrors(found)
    # The state a run would use: $DIGEST_STATE (or the image's default) may not be the config's.
    state, origin = states.chosen(args, settings)
    state = states.secret_state(args, state, origin)
    if origin == "[state]":
        states.moved(state)  # the history an earlier image kept elsewhere
    for line in bursts(settings):
        log.warning("%s", line)
    channels = sum(len(s.channels) for s in settings.subscribers)
    lines = [
        f"{args.config}: OK: {len(settings.sources)} source(s), "
        f"{len(settings.subscribers)} subscriber(s), {channels} channel(s)",
        *where_paths(settings, state, origin),
    ]
    say("\n".join(lines))
    return 0


def retry(args: argparse.Namespace) -> int:
    from digest.state.engine import StateStopped
    from digest.state.lock import LockStopped

    settings = _settings(args)
    clock = recording(args)
    if args.subscriber is not None:
        args.subscriber = names.subscriber(settings, args.subscriber)
    path = states.state_path(args, settings)
    if not states.exists(path):  # a new, empty state would say "0 pending" of the real one's rows
        raise StateError(f"no state at {path}: nothing was ever owed there (is it the right path?)")
    # SIGTERM (a timer's `timeout`, systemd, shutdown) as for `digest run`: the post on the wire
    # was cut, and Slack had posted what the next retry called dead, "may be missing".
    with on_sigterm() as stopped:
        try:
            if args.drop is not None:
                code = retrying.drop(args, settings, path, clock, stopped.is_set)
            else:
                code = retrying.resend(args, settings, path, clock, stopped.is_set)
        except LockStopped as exc:
            return terminated(f"{exc}: this retry did nothing")
        except StateStopped as exc:
            return terminated(f"{exc}; the next run or retry does it")
    if stopped.is_set():
        return terminated("what is not delivered goes out with the next run or retry")
    return code


def serve(args: argparse.Namespace) -> int:
    from digest.cli.checkup import bursts
    from digest.scheduler import Server

    settings = _settings(args)
    for line in bursts(settings):
        log.warning("%s", line)
    if args.verbose == 0:  # a service's log is its output: say what it does
        logging.getLogger().setLevel(logging.INFO)
    if args.verbose < 2:
        logging.getLogger("apscheduler").setLevel(logging.WARNING)
    path = states.state_path(args, settings)
    server = Server(settings, path)
    if not settings.web:
        return server.serve()

    def early(signum: int, frame: object) -> None:  # before serve() takes the signals over
        server.signal_name = signal.Signals(signum).name
        server.stop.set()

    previous = {sig: signal.signal(sig, early) for sig in (signal.SIGTERM, signal.SIGINT)}
    # Beside the scheduler, over the same state, and on the same config: a face that read an
    # edited config (a new secret) refused the links of the digests serve's jobs still made.
    web = _face(settings, path)
    try:
        web.start()
        return server.serve()
    finally:
        web.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _face(settings: Settings, path: str) -> Thread:
    """The web face's thread, its port bound, once no other serve holds the state's serve lock:
    a second serve had been refused for the port ("Address already in use") and not by the
    lock's line. Server.serve() takes the lock for good; a serve that bound the port between
    the two is then told by the lock too."""
    from digest.models import ConfigError
    from digest.state.lock import serve_lock
    from digest.web.server import Thread

    with serve_lock(path):  # raises the lock's one line if another serve holds it
        pass
    try:
        return Thread(settings, path)
    except ConfigError:
        with serve_lock(path):
            pass
        raise


def status(args: argparse.Namespace) -> int:
    from digest.cli.reports import status_report
    from digest.state import Store

    settings = _settings(args)
    path = states.state_path(args, settings)
    if not states.exists(path):
        say(f"digest status: no state at {path} yet: no run so far")
        return 0
    from digest.cli.clock import held_back

    clock = _now(args)
    with Store(path, upgrade=False) as store:
        text, code = status_report(settings, store, path, clock)
        held = held_back(settings, store, clock)  # a digest made ahead of this clock (--now)
    say("\n".join([text, *held]))
    return 1 if held else code


def health(args: argparse.Namespace) -> int:
    from digest.state import Store, engine
    from digest.state.lock import health

    # Given --state or $DIGEST_STATE, the check never needs the config; else it reads the state
    # a serve of this config uses (the image's default only for a config that names none).
    path, where = states.chosen(args, None)
    if not where:
        path, where = states.chosen(args, _settings(args))
    path = states.secret_state(args, path, where)
    if not engine.is_url(path) and os.path.exists(path):
        with Store(path, upgrade=False):  # a state no serve could use is bad state (exit 2)
            pass
    # On PostgreSQL a container checks its own worker ($DIGEST_WORKER), not just any.
    # Without --now, on the machine's clock, and on PostgreSQL the server's, as beats are timed.
    alive, why = health(path, _now(args) if args.now else None, os.environ.get("DIGEST_WORKER"))
    say(f"digest health: {why}")
    return 0 if alive else 1


def feedback(args: argparse.Namespace) -> int:
    from digest.models import Paper, identity
    from digest.sources.files import normalize_id
    from digest.state import Store

    settings = _settings(args)
    clock = recording(args)
    args.subscriber = names.subscriber(settings, args.subscriber)
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
        store.ratings.rate(args.subscriber, paper.id, args.rating, clock)
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
    if args.subscriber:
        args.subscriber = names.subscriber(settings, args.subscriber)
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
    from digest.channels.email import recipients
    from digest.state import Store
    from digest.state.lock import run_lock
    from digest.state.pauses import mailing
    from digest.web import clicks

    settings = _settings(args)
    path = states.state_path(args, settings)
    resumed: list[str] = []
    if not states.exists(path):
        args.name = names.subscriber(settings, args.name)
    else:  # under the run lock, as a run settles the spool: none records it after this resume
        with run_lock(path, 60.0), Store(path) as store:
            # An unsubscribe a face kept in <db>.clicks first: "nothing was paused", and the
            # next run recorded it, undoing the operator's later word.
            clicks.settle(store)
            mails = mailing(settings.subscribers, recipients)
            args.name = _paused_name(settings, store, args.name, mails)
            resumed = store.web.resume(args.name, mails)
    if resumed:
        say(f"{args.name}: {', '.join(resumed)} resumed; the next digest goes out as usual")
    else:
        say(f"{args.name}: nothing was paused")
    return 0


def _paused_name(settings: Settings, store: Store, name: str, mails: Mailing) -> str:
    """The subscriber `digest resume` names: one of the config, or one no longer in it whose
    pause the state still keeps (`digest status` lists it), under its name or where a pass moved
    it after a rename (`resume alice` had said "nothing was paused" while alicia was held)."""
    try:
        return names.subscriber(settings, name)
    except InputError:
        if store.web.lifted(name, mails):
            return name
        raise

"""End to end: the `digest` command over a copy of the repo's seeds and example config."""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from channel_servers import SlackWebhook

from digest.cli import main, parser
from digest.models import Paper
from digest.sources.common import clean_token

REPO = Path(__file__).resolve().parent.parent
MONDAY = "2026-11-30T15:00:00+01:00"  # past Monday's fire time in Berlin, New York and Tokyo
TUESDAY = "2026-12-01T15:00:00+01:00"
NOW = datetime(2026, 11, 30, 14, tzinfo=UTC)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    shutil.copytree(REPO / "config", tmp_path / "config")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def digest_ids(eml: Path) -> list[str]:
    """The paper titles listed in a digest's text part, as the reader sees them."""
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    text = message.get_body(("plain",)).get_content()
    # Each item opens with " 1. <title>"; the first line of the title is enough to tell them apart.
    return [m.group(1) for m in re.finditer(r"^ ?\d{1,2}\. (.+)$", text, re.MULTILINE)]


def test_run_writes_one_digest_per_subscriber_and_prints_a_summary(project: Path, capsys) -> None:
    code, out, err = run(capsys, "run", "--now", MONDAY)
    assert code == 0, err
    assert "papers: 57 read, 0 skipped, 57 new" in out
    for name in ("alice", "bob", "carol"):
        assert f"{name}" in out
        days = list((project / "out").glob(f"*/{name}.eml"))
        assert len(days) == 1, name
        message = email.message_from_bytes(days[0].read_bytes(), policy=email.policy.default)
        assert message.get_content_type() == "multipart/alternative"
        assert [p.get_content_type() for p in message.iter_parts()] == ["text/plain", "text/html"]
        assert days[0].with_suffix(".html").read_text(encoding="utf-8").lstrip().startswith("<")
    assert "3 sent" in out
    assert (project / "state" / "digest.db").is_file()


def test_the_same_period_twice_sends_nothing_new(project: Path, capsys) -> None:
    run(capsys, "run", "--now", MONDAY)
    before = sorted(p.stat().st_mtime_ns for p in (project / "out").rglob("*.eml"))
    code, out, _ = run(capsys, "run", "--now", "2026-11-30T20:00:00+01:00")
    assert code == 0
    assert out.count("already made") == 3
    assert "0 sent" in out
    assert sorted(p.stat().st_mtime_ns for p in (project / "out").rglob("*.eml")) == before


def test_a_paper_is_never_in_two_digests_of_one_subscriber(project: Path, capsys) -> None:
    run(capsys, "run", "--now", MONDAY)
    first = digest_ids(next((project / "out").glob("*/alice.eml")))
    assert first
    # Tuesday brings one new list that repeats a known abstract and adds fresh ones.
    old = (project / "seeds" / "000_cde773e856411c51.txt").read_text(encoding="utf-8")
    known = old.split("\n\n")[1]
    fresh = (
        "Federated learning with differential privacy lets hospitals train jointly; we "
        "study client heterogeneity and private aggregation for federated unlearning."
    )
    (project / "seeds" / "100_new.txt").write_text(f"New list\n\n{known}\n\n{fresh}\n")
    code, out, _ = run(capsys, "run", "--now", TUESDAY)
    assert code == 0
    assert "1 new" in out
    tuesday = list((project / "out").glob("2026-12-01/alice.eml"))
    assert len(tuesday) == 1
    second = digest_ids(tuesday[0])
    assert len(second) == 1 and not set(first) & set(second)


def test_a_quiet_day_is_said_plainly(project: Path, capsys) -> None:
    run(capsys, "run", "--now", MONDAY)
    code, out, _ = run(capsys, "run", "--now", TUESDAY)
    assert code == 0
    assert "0 new" in out and out.count("nothing new") == 3


def test_rank_prints_the_json_contract_and_changes_nothing(project: Path, capsys) -> None:
    papers = project / "papers.jsonl"
    with papers.open("w", encoding="utf-8") as out_file:
        for i, text in enumerate(
            [
                "differential privacy for federated clients",
                "chain-of-thought reasoning with reinforcement learning",
                "text-to-image diffusion with classifier-free guidance",
                "protein folding",
            ]
        ):
            row = {
                "id": f"2501.0000{i}v2",
                "title": text,
                "abstract": text + " " * 3 + text,
                "authors": ["A"],
                "categories": ["cs.LG"],
                "published": "2025-01-0" + str(i + 1),
                "url": "",
            }
            out_file.write(json.dumps(row) + "\n")
    code, out, _ = run(
        capsys,
        "rank",
        "--config",
        "config/digest.toml",
        "--papers",
        str(papers),
        "--top",
        "2",
        "--format",
        "json",
    )
    assert code == 0
    result = json.loads(out)
    assert set(result) == {"alice", "bob", "carol"}
    for picks in result.values():
        assert len(picks) == 2
        assert all(set(p) == {"id", "score", "terms"} for p in picks)
        assert picks[0]["score"] >= picks[1]["score"]
    assert result["alice"][0]["id"] == "2501.00000"
    assert result["bob"][0]["id"] == "2501.00001"
    assert result["carol"][0]["id"] == "2501.00002"
    assert not (project / "state").exists() and not (project / "out").exists()


def test_rank_with_a_state_ranks_in_the_space_a_run_ranks_in(
    project: Path, capsys, monkeypatch
) -> None:
    from digest import corpus, library, ranking
    from digest.config import load
    from digest.sources.files import read_papers
    from digest.state import Store

    monkeypatch.setattr(corpus, "SPACE_MIN_PAPERS", 5)  # the 57 seed papers make a stored space
    assert run(capsys, "run", "--now", MONDAY)[0] == 0
    papers = project / "papers.jsonl"
    texts = ["differential privacy for federated clients", "reasoning with language models"]
    papers.write_text(
        "".join(
            json.dumps({"id": f"2501.0000{i}", "title": t, "abstract": t, "authors": ["A"]}) + "\n"
            for i, t in enumerate(texts)
        ),
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "rank", "--papers", str(papers), "--top", "2")
    assert code == 0
    shown = {n: {p["id"]: p["score"] for p in picks} for n, picks in json.loads(out).items()}
    subs = library.with_libraries(load(Path("config/digest.toml")).subscribers)
    given = read_papers(str(papers), lambda problem: None)
    with Store(project / "state" / "digest.db") as store:
        space = corpus.saved_space(store, subs)
        assert space is not None
        space = corpus.with_library(space, subs, store)  # the background's basis beside its own
    stored = ranking.rank(given, subs, top_k=2, thresholds=False, space=space)
    alone = ranking.rank(given, subs, top_k=2, thresholds=False)
    assert shown["alice"] == {s.paper.id: round(s.score, 6) for s in stored["alice"]}
    assert shown["alice"] != {s.paper.id: round(s.score, 6) for s in alone["alice"]}


def test_preview_renders_without_touching_state(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "preview", "--subscriber", "bob", "--now", MONDAY)
    assert code == 0
    assert "reasoning" in out.lower()
    assert not (project / "state").exists() and not (project / "out").exists()
    code, _, err = run(capsys, "preview", "--subscriber", "zed")
    assert code == 2 and "no subscriber named 'zed'" in err


def test_validate_says_ok_or_names_the_problem(project: Path, capsys) -> None:
    code, out, _ = run(capsys, "validate", "--config", "config/digest.toml")
    assert code == 0 and "OK: 1 source(s), 3 subscriber(s), 3 channel(s)" in out
    bad = project / "config" / "bad.toml"
    bad.write_text(
        (project / "config" / "digest.toml").read_text().replace("top_k = 5", "top_k = -1")
    )
    code, out, err = run(capsys, "validate", "--config", str(bad))
    assert code == 2
    assert err.strip() == f"digest: {bad}: defaults.top_k: must be 1 to 1000, not -1"


def test_a_missing_library_is_bad_input(project: Path, capsys) -> None:
    (project / "config" / "carol-library.jsonl").unlink()
    code, _, err = run(capsys, "run", "--now", MONDAY)
    assert code == 2
    assert "config/carol-library.jsonl: library file not found" in err
    assert "Traceback" not in err


def test_bad_seed_files_are_skipped_by_name_and_the_run_goes_on(project: Path, capsys) -> None:
    (project / "seeds" / "empty.txt").write_text("")
    (project / "seeds" / "binary.txt").write_bytes(b"\x00\x01\x02garbage")
    (project / "seeds" / "latin1.txt").write_bytes(
        "Header\n\nAn abstract caf\xe9 text".encode("latin-1")
    )
    code, out, err = run(capsys, "run", "--now", MONDAY)
    assert code == 0
    assert "58 read, 2 skipped" in out  # the Latin-1 file is read, with a warning
    for name in ("empty.txt", "binary.txt", "latin1.txt"):
        assert name in err
    assert "WARNING: seeds/latin1.txt:3: not valid UTF-8" in err  # a warning, not a skip


def test_a_missing_source_path_fails_that_source_only(project: Path, capsys) -> None:
    cfg = project / "config" / "two.toml"
    cfg.write_text(
        (project / "config" / "digest.toml")
        .read_text()
        .replace(
            'path = "../seeds"',
            'path = "../seeds"\n\n[[sources]]\nkind = "seeds"\npath = "nowhere"',
        )
    )
    code, out, _ = run(capsys, "run", "--config", str(cfg), "--now", MONDAY)
    assert code == 1
    assert "FAILED" in out and "nowhere" in out
    assert len(list((project / "out").glob("*/*.eml"))) == 3


def test_hostile_abstracts_are_escaped_in_the_html_digest(project: Path, capsys) -> None:
    (project / "seeds" / "zz_hostile.txt").write_text(
        "Hostile list\n\nDifferential privacy <script>alert('x')</script> for federated "
        "learning clients with unlearning & <b>bold</b> claims about private estimation.\n"
    )
    run(capsys, "run", "--now", MONDAY)
    html = next((project / "out").glob("*/alice.html")).read_text(encoding="utf-8")
    assert "&lt;script&gt;" in html and "<script>" not in html


def test_bad_command_line_input_exits_2_without_a_traceback(project: Path) -> None:
    for args in (
        ["run", "--now", "yesterday"],
        ["run", "--config", "nope.toml"],
        ["run", "--now", "9999-12-31T23:59:59+00:00"],  # overflowed past the calendar's end
        ["run", "--now", "9999-12-31T23:59:60+00:00"],  # a leap second past it
        ["status", "--now", "0001-01-01T00:00+00:00"],
        ["status", "--now", "0001-01-01"],
        ["rank", "--top", "0", "x.jsonl"],
        ["no-such-command"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "digest", *args], capture_output=True, text=True, cwd=project
        )
        assert done.returncode == 2, args
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("digest"), args


def test_a_local_time_the_clocks_skip_is_refused_not_read_an_hour_off(project: Path) -> None:
    def status(when: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "digest", "status", "--now", when],
            capture_output=True, text=True, cwd=project, env={**os.environ, "TZ": "Europe/Berlin"},
        )  # fmt: skip

    skipped = status("2026-03-29T02:30")  # Berlin's clocks go from 02:00 to 03:00
    assert skipped.returncode == 2 and len(skipped.stderr.splitlines()) == 1
    assert "does not exist in this machine's time zone" in skipped.stderr
    assert status("2026-03-29T03:30").returncode in (0, 1)  # a status, whatever it says


def test_help_does_not_import_scikit_learn() -> None:
    probe = (
        "import sys\nfrom digest.cli import main\ntry:\n    main(['--help'])\n"
        "except SystemExit:\n    pass\nprint('sklearn' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.stdout.strip().endswith("False")
    assert "run" in done.stdout and "rank" in done.stdout


def test_the_state_file_moves_with_the_flag_or_the_environment(
    project: Path, capsys, monkeypatch
) -> None:
    run(capsys, "run", "--now", MONDAY, "--state", "elsewhere/a.db")
    assert (project / "elsewhere" / "a.db").is_file() and not (project / "state").exists()
    monkeypatch.setenv("DIGEST_STATE", str(project / "env.db"))
    code, out, _ = run(capsys, "run", "--now", MONDAY)
    assert code == 0 and (project / "env.db").is_file() and "3 sent" in out


def test_a_database_password_never_shows_whichever_command_meets_it(
    project: Path, capsys, monkeypatch
) -> None:
    config = project / "config" / "digest.toml"
    url = "postgresql://digest:S3KRITpw@127.0.0.1:1/digest?password=S3KRIT2"
    text = config.read_text().replace('path = "../state/digest.db"', f'url = "{url}"')
    config.write_text(text)
    code, out, err = run(capsys, "validate")
    assert code == 0 and "state: postgresql://digest@127.0.0.1:1/digest" in out
    monkeypatch.setenv("DIGEST_STATE", "postgresql://u:S3KRIT%zz@127.0.0.1:1/db")
    for command in ("health", "status"):
        code, out, err = run(capsys, command)
        assert code == 2 and len(err.splitlines()) == 1 and "S3KRIT" not in out + err
    flag = "postgresql://u@127.0.0.1:1/db?password=S3KRIT%zz"
    code, out, err = run(capsys, "status", "--state", flag)
    assert code == 2 and "S3KRIT" not in out + err
    # A URL that cannot be split (an unclosed [): one line, exit 2, the container's check too.
    code, out, err = run(capsys, "health", "--state", "postgresql://u:S3KRIT@[127.0.0.1/db")
    assert (code, err) == (
        2,
        "digest: --state: not a valid postgresql:// URL: an unclosed [ in the host\n",
    )


@pytest.mark.parametrize(
    "given",
    [
        "POSTGRESQL://digest:S3KRITpw@127.0.0.1:1/digest",
        " postgresql://digest:S3KRITpw@127.0.0.1:1/digest ",
        "postgresql+psycopg://digest:S3KRITpw@127.0.0.1:1/digest",
        "mysql://digest:S3KRITpw@127.0.0.1:1/digest",
        "postgresql:/digest:S3KRITpw@127.0.0.1:1/digest",
    ],
)
def test_a_state_url_of_another_spelling_is_never_an_sqlite_file_named_after_it(
    project: Path, capsys, monkeypatch, given: str
) -> None:
    # Anything but an exact "postgresql://" was a file path: `status` printed the password, and
    # `run` made a fresh SQLite state in a folder named after it, and sent every digest again.
    monkeypatch.setenv("DIGEST_STATE", given)
    code, out, err = run(capsys, "status")
    assert code == 2 and len(err.splitlines()) == 1 and "S3KRIT" not in out + err
    if given.strip().lower().startswith("postgresql://"):  # taken as the URL: the server is down
        assert "127.0.0.1:1" in err
    else:
        assert err.startswith("digest: DIGEST_STATE: a ") and (
            "URL is no state" in err or "needs // after postgresql:" in err
        )
    assert sorted(p.name for p in project.iterdir()) == ["config", "seeds"]


def test_an_in_memory_state_is_refused_since_it_keeps_nothing(project: Path, capsys) -> None:
    # `--state :memory:` ran, kept nothing, and the next run sent every digest again.
    code, out, err = run(capsys, "run", "--now", MONDAY, "--state", ":memory:")
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("digest: --state: ':memory:' keeps nothing between runs")
    assert not (project / "out").exists()


def closed_pipe_run(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`digest ARGS | head -0`: the reader is gone before the command writes a byte."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "digest", *args],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    proc.stdout.close()
    _, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, "", err)


@pytest.mark.parametrize(
    "args",
    [("status",), ("preview", "--subscriber", "alice"), ("validate",)],
    ids=["status", "preview", "validate"],
)
def test_a_reader_that_leaves_early_ends_the_command_quietly_with_141(
    project: Path, capsys, args: tuple[str, ...]
) -> None:
    run(capsys, "run", "--now", MONDAY)
    done = closed_pipe_run(project, *args, "--config", "config/digest.toml")
    assert done.returncode == 141, done.stderr
    assert done.stderr == ""


def cli(project: Path, *args: str, **popen: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "digest", *args, "--config", "config/digest.toml"],
        cwd=project,
        text=True,
        timeout=120,
        **{"capture_output": True, **popen},
    )


def test_a_terminal_of_another_encoding_shows_what_it_cannot_print_as_escapes(
    project: Path,
) -> None:
    # Under PYTHONIOENCODING=ascii a run did its work, then died on "—" in its summary with a
    # traceback and exit 1; preview, status and validate too.
    ascii_only = {**os.environ, "PYTHONIOENCODING": "ascii"}
    shown = cli(project, "preview", "--subscriber", "alice", "--now", MONDAY, env=ascii_only)
    assert shown.returncode == 0 and "\\u2014" in shown.stdout  # the em dash of the subject
    done = cli(project, "run", "--now", MONDAY, env=ascii_only)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and "3 sent" in done.stdout


def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(project: Path) -> None:
    # ">> cron.log" on a full disk gave a traceback and exit 1.
    with open("/dev/full", "w") as full:
        done = cli(project, "status", stdout=full, stderr=subprocess.PIPE, capture_output=False)
    assert done.returncode == 2
    assert done.stderr == "digest: could not write the output: No space left on device\n"
    # argparse drops a failed write of its own: --help and --version said nothing, exit 0.
    for asked in ("--help", "--version"):
        with open("/dev/full", "w") as full:
            done = cli(project, asked, stdout=full, stderr=subprocess.PIPE, capture_output=False)
        assert done.returncode == 2, asked
        assert done.stderr == "digest: could not write the output: No space left on device\n"


def test_a_closed_output_is_no_error(project: Path) -> None:
    # `digest validate >&-` died with a traceback at its flush of a stdout that was not there.
    closed = cli(
        project, "validate", stdout=None, stderr=subprocess.PIPE, capture_output=False,
        preexec_fn=lambda: os.close(1),
    )  # fmt: skip
    assert closed.returncode == 0 and closed.stderr == ""
    # With stderr closed, an error line went to stdout: into `digest rank`'s JSON.
    quiet = cli(project, "rank", "--papers", "missing.jsonl", preexec_fn=lambda: os.close(2))
    assert quiet.returncode == 2 and quiet.stdout == ""


def test_a_sigterm_finishes_the_message_on_the_wire_and_leaves_the_rest_pending(
    project: Path,
) -> None:
    # SIGTERM (systemd, docker stop) killed `digest run` mid-post with no word: the next run
    # found the post unconfirmed and made it dead, though Slack had posted it.
    slack = SlackWebhook()
    slack.stall_after = 0  # the first post is taken, then held unanswered
    try:
        config = project / "config" / "digest.toml"
        text = config.read_text().replace(
            'kind = "file"\ndir = "../out"', f'kind = "slack"\nwebhook = "{slack.url()}"'
        )
        config.write_text(text)
        proc = subprocess.Popen(
            [sys.executable, "-m", "digest", "run", "--config", str(config), "--now", MONDAY],
            cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert slack.stalled.wait(60)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)  # the signal is taken while the post waits for its answer
        slack.release.set()
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 143, err
        assert "terminated (SIGTERM)" in err and "Traceback" not in err
        assert "1 sent" in out and len(slack.accepted) == 1
        slack.stall_after = None
        later = cli(project, "retry")
        assert later.returncode == 0, later.stderr
        assert len(slack.accepted) == 3  # the other two, and the first not again
    finally:
        slack.release.set()
        slack.stop()


def test_options_are_accepted_after_the_command_too(project: Path, capsys) -> None:
    code, _, err = run(capsys, "run", "-v", "--now", MONDAY)
    assert code == 0 and "digest: INFO:" in err
    assert parser.parse(["-v", "status", "-v"]).verbose == 2
    assert parser.parse(["status"]).verbose == 0


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("run", "--wait", "-5"), "--wait: not a number of seconds from 0 to 86400: '-5'"),
        (("run", "--wait", "nan"), "--wait: not a number of seconds"),
        (("rank", "--papers", "x.jsonl", "--top", "0"), "--top: not a whole number from 1 to 1000"),
    ],
)
def test_numeric_options_outside_their_range_are_refused(
    project: Path, capsys, args: tuple[str, ...], expected: str
) -> None:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    assert info.value.code == 2
    assert expected in capsys.readouterr().err


def test_retry_of_a_subscriber_nobody_has_is_bad_input(project: Path, capsys) -> None:
    code, _, err = run(capsys, "retry", "--subscriber", "nobody")
    assert code == 2
    assert "no subscriber named 'nobody'" in err and "known: alice, bob, carol" in err


def test_rank_of_a_file_that_is_not_jsonl_is_bad_input(project: Path, capsys) -> None:
    (project / "notes.jsonl").write_text("this is a note\nnot json at all\n")
    code, out, err = run(capsys, "rank", "--papers", "notes.jsonl")
    assert code == 2 and out == ""
    assert "notes.jsonl: not a paper file (JSONL or CSV): no paper read, 2 skipped" in err


def test_validate_reports_every_problem_of_paths_and_folders(project: Path, capsys) -> None:
    (project / "empty").mkdir()
    (project / "a-file").write_text("")
    text = (project / "config" / "digest.toml").read_text()
    text = text.replace('path = "../seeds"', 'path = "../no-such-seeds"')
    text = text.replace('dir = "../out"', 'dir = "../a-file/out"')
    text += '\n[[sources]]\nkind = "seeds"\nname = "more"\npath = "../empty"\n'
    bad = project / "config" / "bad.toml"
    bad.write_text(text)
    code, out, err = run(capsys, "validate", "--config", str(bad))
    assert code == 2 and out == ""
    assert err.splitlines() == [
        f"digest: {bad}: sources[0].path: no such file or folder '{project / 'no-such-seeds'}'",
        f"digest: {bad}: sources[1].path: no *.txt files in folder '{project / 'empty'}'",
        f"digest: {bad}: defaults.channels[0].dir: cannot create folder "
        f"'{project / 'a-file' / 'out'}': '{project / 'a-file'}' is not a folder",
    ]


def test_validate_says_a_file_channels_folder_is_a_link_to_nowhere(project: Path, capsys) -> None:
    # An unmounted share: validate said OK, then every delivery failed with "File exists".
    (project / "out").symlink_to(project / "mnt" / "share")
    code, _, err = run(capsys, "validate")
    assert code == 2 and err.strip().endswith(
        f"defaults.channels[0].dir: 'out' is a link to '{project / 'mnt' / 'share'}', which is"
        " not there"
    )


def test_validate_says_a_source_path_too_long_for_the_system_is_not_there(
    project: Path, capsys
) -> None:
    text = (project / "config" / "digest.toml").read_text()
    (project / "config" / "long.toml").write_text(text.replace("../seeds", "x" * 300))
    code, out, err = run(capsys, "validate", "--config", "config/long.toml")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "sources[0].path: no such file or folder" in err


def test_validate_says_a_source_path_that_is_a_device_is_no_file(project: Path, capsys) -> None:
    text = (project / "config" / "digest.toml").read_text()
    (project / "config" / "dev.toml").write_text(text.replace("../seeds", "/dev/zero"))
    code, out, err = run(capsys, "validate", "--config", "config/dev.toml")
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "sources[0].path: a device, not a file or folder" in err


def test_validate_names_a_source_folder_it_may_not_list(project: Path) -> None:
    if shutil.which("setpriv") is None:
        pytest.skip("setpriv (util-linux) is needed to run without root's bypass")
    (project / "seeds").chmod(0)
    caps = "-dac_override,-dac_read_search"
    try:
        done = subprocess.run(
            ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}", sys.executable]
            + ["-m", "digest", "validate", "--config", "config/digest.toml"],
            capture_output=True,
            text=True,
            cwd=project,
        )
    finally:
        (project / "seeds").chmod(0o755)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert (
        "sources[0].path: cannot read folder" in done.stderr
        and "(Permission denied)" in done.stderr
    )


def test_validate_refuses_a_file_channel_folder_it_cannot_write(project: Path, capsys) -> None:
    text = (project / "config" / "digest.toml").read_text().replace("../out", "/proc/digest-out")
    (project / "config" / "ro.toml").write_text(text)
    code, _, err = run(capsys, "validate", "--config", "config/ro.toml")
    assert code == 2 and "channels[0].dir: cannot write in '/proc'" in err


def test_a_digest_past_its_fire_time_and_not_made_yet_is_due_now(project: Path, capsys) -> None:
    run(capsys, "run", "--now", MONDAY)
    code, out, _ = run(capsys, "status", "--now", MONDAY)
    assert "alice: Tue 2026-12-01 08:00 CET" in out  # made: the next one is tomorrow's
    code, out, _ = run(capsys, "status", "--now", TUESDAY)  # Tuesday's 8:00 passed, no run since
    lines = [line.strip() for line in out.splitlines()]
    alice = next(line for line in lines if line.startswith("alice:"))
    assert alice.startswith("alice: due now (the period of Tue 2026-12-01 08:00 CET); then Wed")


# What a terminal obeys: ESC sequences (window title, cleared screen, colours, a link), BEL,
# NUL, CR, C1's CSI and bidi overrides.
CONTROLS = "\x1b]0;PWNED\x07\x1b[2J\x1b[31m\x1b]8;;http://evil.example\x07\x00\r\x9b\u202e"
HOSTILE_ID = f"esc{CONTROLS}id"


def unsafe(text: str) -> list[str]:
    """The characters of a text that a terminal would obey rather than show."""
    bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u2028\u2029"
    return [c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F
            or c in bidi]  # fmt: skip


@pytest.fixture
def hostile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose one source holds papers with control characters in every field."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    (tmp_path / "papers").mkdir()
    rows = [
        {
            "id": HOSTILE_ID,
            "title": f"Terminal {CONTROLS} alertword title",
            "abstract": f"alertword differential privacy federated. {CONTROLS} More.",
            "authors": [f"Eve {CONTROLS}"],
            "venue": f"Venue {CONTROLS}",
        },
        {
            "id": "2602.00002",
            "title": f"Alert {CONTROLS} alertword two",
            "abstract": "alertword differential privacy federated learning.",
        },
    ]
    rows += [
        {"id": f"2602.001{n:02d}", "title": f"Private federated learning {n}", "abstract": topic}
        for n, topic in enumerate(["differential privacy federated clients"] * 4)
    ]
    with (tmp_path / "papers" / "p.jsonl").open("w", encoding="utf-8") as out:
        out.writelines(json.dumps(r) + "\n" for r in rows)
    (tmp_path / "digest.toml").write_text(
        '[state]\npath = "state/digest.db"\n\n[[sources]]\nkind = "files"\npath = "papers"\n\n'
        '[[subscribers]]\nname = "bob"\ninterests = "differential privacy federated"\n'
        'alert_keywords = ["alertword"]\nmin_score = 0.0\n\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
    )
    return tmp_path


def test_paper_text_reaches_the_terminal_with_its_control_characters_escaped(
    hostile: Path, capsys
) -> None:
    config = ("--config", "digest.toml")
    code, out, _ = run(capsys, "rank", *config, "--papers", "papers/p.jsonl", "--top", "9")
    # Ingest cleans paper text (sources/common.clean): what is read from files arrives clean.
    assert clean_token(HOSTILE_ID) in [p["id"] for p in json.loads(out)["bob"]]
    said = [out]
    for args in (
        ("run", *config, "--now", MONDAY),
        ("preview", *config, "--subscriber", "bob", "--now", TUESDAY),
        ("preview", *config, "--subscriber", "bob", "--now", TUESDAY, "--format", "html"),
        ("preview", *config, "--subscriber", "bob", "--now", TUESDAY, "--format", "subject"),
        ("feedback", *config, "bob", "2602.00002", "up"),
        ("status", *config, "--now", MONDAY),
    ):
        code, out, err = run(capsys, *args)
        assert code == 0, err
        said += [out, err]
    # Later the same day a new paper is an alert: the run's summary names it by its id.
    late = {"id": f"{HOSTILE_ID}2", "title": "alertword late", "abstract": "alertword privacy."}
    (hostile / "papers" / "q.jsonl").write_text(json.dumps(late) + "\n")
    code, out, err = run(capsys, "run", *config, "--now", "2026-11-30T20:00:00+01:00")
    assert code == 0 and f"alerts: {clean_token(HOSTILE_ID)}2" in out, err
    said += [out, err]
    from digest.state import Store

    # A paper stored before ingest cleaned text keeps its raw id: the terminal still gets escapes.
    with Store(str(hostile / "state" / "digest.db")) as store:
        store.papers.add([Paper(HOSTILE_ID, f"Raw {CONTROLS} title", "abstract")], NOW)
    code, out, _ = run(capsys, "feedback", *config, "bob", HOSTILE_ID, "down")
    assert code == 0 and "\\x1b]0;PWNED\\x07\\x1b[2J" in out and "\\u202e" in out
    said.append(out)
    for args in (("ratings", *config), ("ratings", *config, "--format", "json")):
        code, out, err = run(capsys, *args)
        said += [out, err]
    assert HOSTILE_ID in [r["paper"] for r in json.loads(out)]  # JSON: the same value
    assert [unsafe(text) for text in said] == [[]] * len(said)


def test_the_terminal_sees_an_escape_for_each_control_character_and_json_the_same_value() -> None:
    from digest.cli.terminal import shown, shown_json

    assert shown("a\x1b[2Jb\x07\x00\r\x9b\u202e\u2066c\td\ne") == (
        "a\\x1b[2Jb\\x07\\x00\\x0d\\x9b\\u202e\\u2066c\td\ne"
    )
    text = json.dumps({"id": HOSTILE_ID}, ensure_ascii=False)
    assert unsafe(shown_json(text)) == [] and json.loads(shown_json(text)) == {"id": HOSTILE_ID}


def test_now_reads_a_leap_second_as_posix_time_does() -> None:
    # 23:59:60 is valid ISO 8601 (a UTC log writes it) but no datetime holds it: the next second.
    now = parser.parse(["run", "--now", "2016-12-31T23:59:60Z"]).now
    assert now == datetime(2017, 1, 1, tzinfo=UTC)
    late = parser.parse(["run", "--now", "2016-12-31T23:59:60.250+00:00"]).now
    assert late == datetime(2017, 1, 1, 0, 0, 0, 250000, tzinfo=UTC)
    with pytest.raises(SystemExit):
        parser.parse(["run", "--now", "2016-12-31T23:59:61Z"])


def test_held_alerts_are_counted_by_run_and_status_and_all_reach_the_next_digest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """One alert a day and top_k = 2: six keyword matches (scoring under min_score) and four
    strong papers. The run says one alert and five held; status says five wait for Tuesday's
    digest; Tuesday's digest lists all five held alerts, then two picks, and none twice."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    (tmp_path / "papers").mkdir()
    walk = "Legged robots learn to walk over rough terrain"
    (tmp_path / "papers" / "0.jsonl").write_text(
        json.dumps({"id": "start", "title": "Robots", "abstract": f"{walk}."}) + "\n"
    )
    (tmp_path / "digest.toml").write_text(
        '[state]\npath = "state/digest.db"\n\n[[sources]]\nkind = "files"\npath = "papers"\n\n'
        '[[subscribers]]\nname = "ana"\ninterests = "differential privacy federated learning"\n'
        'schedule = "0 8 * * *"\ntimezone = "UTC"\ntop_k = 2\nmin_score = 0.05\n'
        'alert_keywords = ["membership inference"]\nmax_alerts_per_day = 1\n\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
    )
    config = ("--config", "digest.toml")
    assert run(capsys, "run", *config, "--now", "2026-11-30T09:00:00Z")[0] == 0
    rows = [
        {"id": f"mia{n}", "title": f"Robot {n}", "abstract": f"Membership inference: {walk} {n}."}
        for n in range(6)
    ] + [
        {"id": f"dp{n}", "title": f"Private federated learning {n}", "abstract": "Differential "
         f"privacy for federated learning with client updates, variant {n}."}
        for n in range(4)
    ]  # fmt: skip
    (tmp_path / "papers" / "1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, out, err = run(capsys, "run", *config, "--now", "2026-11-30T10:00:00Z")
    assert code == 0, err
    (alerted,) = re.findall(r"alerts: (mia\d); 5 more held for the next digest \(daily cap\)", out)
    code, out, _ = run(capsys, "status", *config, "--now", "2026-11-30T11:00:00Z")
    assert "ana: Tue 2026-12-01 08:00 UTC (UTC), in 21 h 00 min, with 5 held alerts" in out
    assert "1 alert (5 held);" in out
    code, out, err = run(capsys, "run", *config, "--now", "2026-12-01T09:00:00Z")
    assert code == 0, err
    assert "ana  5 held alerts first, then 2 picked, top score" in out
    eml = tmp_path / "out" / "2026-12-01" / "ana.eml"
    message = email.message_from_bytes(eml.read_bytes(), policy=email.policy.default)
    assert message["Subject"] == "Paper digest for ana — 2026-12-01: 5 held alerts, 2 papers"
    text = message.get_body(("plain",)).get_content()
    held, picks = text.split("Ranked picks: 2 new papers, best match first")
    assert sorted(re.findall(r"id (mia\d)", held)) == sorted(
        {f"mia{n}" for n in range(6)} - {alerted}
    )
    assert len(re.findall(r"id (dp\d)", picks)) == 2 and "mia" not in picks
    code, out, _ = run(capsys, "status", *config, "--now", "2026-12-01T10:00:00Z")
    assert "held alert" not in out.split("next digests:")[1]  # carried: none waits any more


def test_validate_names_keywords_and_interests_that_hold_no_word(project: Path, capsys) -> None:
    config = project / "config" / "digest.toml"
    config.write_text(
        config.read_text()
        + '[[subscribers]]\nname = "dan"\ninterests = "the of and 2024"\n'
        + '[[subscribers]]\nname = "eve"\ninterests = "privacy"\nkeywords = ["k-means", "+++"]\n'
        + '[[subscribers]]\nname = "fay"\ninterests = "https://scholar.google.com/c?u=f"\n'
    )
    code, _, err = run(capsys, "validate")
    assert code == 2
    assert "subscribers.dan.interests: holds no word the ranking can match" in err
    assert "subscribers.eve.keywords[1]: '+++' holds no word" in err
    assert "subscribers.fay.interests: holds no word" in err and "links" in err
    assert "keywords[0]" not in err and len(err.splitlines()) == 3
    # A run, a preview or a rank goes on, and says so: it had been silent.
    code, _, err = run(capsys, "preview", "--subscriber", "eve")
    assert code == 0 and "WARNING" in err and "subscribers.eve.keywords[1]: '+++'" in err


def test_an_exclude_word_or_alert_keyword_of_stop_words_alone_is_no_rule(
    project: Path, capsys
) -> None:
    # exclude = ["the"] emptied every digest ("none scored above min_score"), and an alert
    # keyword "the" held all 57 papers for the next digest, beyond its top_k.
    config = project / "config" / "digest.toml"
    config.write_text(
        config.read_text()
        + '[[subscribers]]\nname = "dan"\ninterests = "differential privacy"\n'
        + 'exclude = ["the", "A"]\nalert_keywords = ["of the"]\n'
    )
    code, _, err = run(capsys, "validate")
    assert code == 2 and len(err.splitlines()) == 3
    assert "subscribers.dan.exclude[0]: 'the' is only stop words, which every paper holds" in err
    assert "subscribers.dan.alert_keywords[0]: 'of the' is only stop words" in err
    code, out, err = run(capsys, "run", "--now", MONDAY)
    assert code == 0 and "subscribers.dan.exclude[1]: 'A' is only stop words" in err
    assert "  dan    3 picked" in out and "  dan    alerts: none" in out


def test_validate_takes_an_empty_drop_folder_of_a_files_source_as_run_does(
    project: Path, capsys
) -> None:
    """A drop folder is empty before its first delivery: run reads it as a quiet source (exit
    0), and validate had refused the same config (exit 2), failing a deployment's check."""
    (project / "drop").mkdir()
    text = (project / "config" / "digest.toml").read_text()
    text += '\n[[sources]]\nkind = "files"\nname = "drop"\npath = "../drop"\n'
    (project / "config" / "digest.toml").write_text(text)
    code, out, err = run(capsys, "validate")
    assert code == 0 and err == ""
    (line,) = [x for x in out.splitlines() if x.startswith("  source drop: ")]
    assert line.endswith("drop (no paper file in it yet: a run reads none)")


def test_an_empty_config_name_and_a_commands_usage_errors_say_what_they_are(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`DIGEST_CONFIG=` (compose's ${DIGEST_CONFIG} of nothing) and `--config ""` both said
    ".: not a regular file", and an option a command does not take was `digest: error: ...
    (see digest --help)`, whose help does not list it."""
    monkeypatch.setenv("DIGEST_CONFIG", "")  # unset, as an empty DIGEST_STATE is
    code, out, err = run(capsys, "validate")
    assert code == 0 and out.startswith("config/digest.toml: OK"), err
    cases = [
        (
            ["validate", "--config", ""],
            "digest validate: error: argument --config: blank; name the config file, or leave it"
            " out for $DIGEST_CONFIG or config/digest.toml (see digest validate --help)",
        ),
        (
            ["validate", "--state", "x.db"],
            "digest validate: error: unrecognized arguments: --state x.db"
            " (see digest validate --help)",
        ),
        (
            ["serve", "--now", MONDAY],
            f"digest serve: error: unrecognized arguments: --now {MONDAY}"
            " (see digest serve --help)",
        ),
    ]
    for args, line in cases:
        with pytest.raises(SystemExit) as info:
            main(args)
        assert (info.value.code, capsys.readouterr().err) == (2, line + "\n")


def one_reader_config(tmp_path: Path, *names: str) -> list[str]:
    """A config of these subscribers (file channels) over one paper; its --config option."""
    (tmp_path / "papers.jsonl").write_text(
        json.dumps({"id": "2611.00001", "title": "Private federated learning", "abstract": ""})
        + "\n",
        encoding="utf-8",
    )
    readers = "".join(
        f'[[subscribers]]\nname = "{name}"\ninterests = "private federated learning"\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n'
        for name in names
    )
    config = tmp_path / "digest.toml"
    config.write_text(f'[[sources]]\nkind = "files"\npath = "papers.jsonl"\n{readers}', "utf-8")
    return ["--config", str(config)]


@pytest.mark.parametrize(("written", "typed"), [("NFC", "NFD"), ("NFD", "NFC")])
def test_a_subscriber_named_in_either_unicode_form_is_the_one_the_config_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, typed: str
) -> None:
    """ "José" typed (NFC) or pasted from a Mac (NFD) is one name to the config; every command
    had refused the other: "no subscriber named 'José' ...; known: José"."""
    import unicodedata

    from digest.state import Store

    name = unicodedata.normalize(written, "José")
    given = unicodedata.normalize(typed, "José")
    config = one_reader_config(tmp_path, name)
    assert run(capsys, "run", *config, "--now", MONDAY)[0] == 0
    commands = [
        ["preview", "--subscriber", given],
        ["feedback", given, "2611.00001", "up"],
        ["ratings", "--subscriber", given, "--format", "json"],
        ["resume", given],
        ["retry", "--subscriber", given],
    ]
    for command in commands:
        code, out, err = run(capsys, *command, *config, "--now", MONDAY)
        assert (code, err) == (0, ""), command
        if command[0] == "ratings":  # recorded under the config's spelling
            assert [r["subscriber"] for r in json.loads(out)] == [name]
    with Store(tmp_path / "state" / "digest.db") as store:
        store.db.execute("UPDATE outbox SET status = 'dead', last_error = 'disk full'")
    code, out, err = run(capsys, "retry", *config, "--drop", f"{given}/file", "--now", MONDAY)
    assert code == 0 and "1 dead delivery dropped" in out, err


def test_a_mistyped_name_among_many_subscribers_is_answered_with_the_closest_few(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 10,000 subscribers had made the answer one line of 170 KB, every name in it.
    config = one_reader_config(tmp_path, *(f"reader{n:02d}" for n in range(50)))
    code, _, err = run(capsys, "preview", *config, "--subscriber", "raeder17")
    assert code == 2
    said = f"digest: no subscriber named 'raeder17' in {config[1]}; closest: reader17, "
    assert err.startswith(said) and err.endswith(" (of 50 subscribers)\n")
    code, _, err = run(capsys, "ratings", *config, "--subscriber", "nobody")
    assert code == 2
    assert err.endswith("; known: reader00, reader01, reader02 and 47 more\n")
    code, _, err = run(
        capsys, "retry", "--subscriber", "nobody", *one_reader_config(tmp_path, "ana", "bo")
    )
    assert code == 2 and err.endswith("; known: ana, bo\n")  # a few are all named


@pytest.mark.parametrize("text", ["", "\n  \n", "# the config\n\n# more comments\n"])
def test_a_config_with_no_sources_and_no_subscribers_is_one_line_in_every_command(
    project: Path, capsys, text: str
) -> None:
    # A failed copy, `cp /dev/null`: it validated OK, and every run exited 0 doing nothing.
    config = project / "config" / "digest.toml"
    config.write_text(text)
    for command in ("validate", "run", "status"):
        code, out, err = run(capsys, command)
        assert (code, out) == (2, ""), command
        assert err == (
            "digest: config/digest.toml: no [[sources]] and no [[subscribers]]: nothing would"
            " be read or sent (is the file empty or cut short?)\n"
        )
    # Sources alone (a corpus for `digest rank`) or subscribers alone are still configs.
    config.write_text('[[sources]]\nkind = "seeds"\npath = "../seeds"\n')
    assert run(capsys, "validate")[0] == 0


def test_validate_warns_of_a_schedule_that_fires_every_minute(project: Path, capsys) -> None:
    config = project / "config" / "digest.toml"
    text = config.read_text()
    assert text.count('schedule = "0 8 * * mon-fri"') == 1
    config.write_text(text.replace('schedule = "0 8 * * mon-fri"', 'schedule = "* 8 * * mon-fri"'))
    code, out, err = run(capsys, "validate")
    assert code == 0 and "OK" in out
    (line,) = err.splitlines()
    assert re.fullmatch(
        r"digest: WARNING: config/digest\.toml: subscribers\.alice\.schedule \(and 1 other"
        r" subscriber\(s\)\): '\* 8 \* \* mon-fri'"
        r" fires 60 times within an hour, a digest or notice each time; for one at a set time,"
        r" give the minute, e.g\. '0 8 \* \* mon-fri'",
        line,
    )


def test_the_images_default_state_never_overrides_a_state_the_config_names(
    project: Path, capsys, monkeypatch
) -> None:
    """The image's DIGEST_STATE had overridden a config's [state] url without a word: each
    container sent every digest from a private SQLite file, and validate named PostgreSQL.
    The image's default ($DIGEST_DEFAULT_STATE) stands in only for a config naming none."""
    monkeypatch.setenv("DIGEST_DEFAULT_STATE", str(project / "image" / "digest.db"))
    config = project / "config" / "digest.toml"  # names ../state/digest.db
    code, out, _ = run(capsys, "run", "--now", MONDAY)
    assert code == 0 and (project / "state" / "digest.db").is_file()
    assert not (project / "image").exists()
    assert "\n  state: state/digest.db\n" in run(capsys, "validate")[1]
    config.write_text(config.read_text().replace('path = "../state/digest.db"', ""))
    code, out, _ = run(capsys, "run", "--now", MONDAY)
    assert code == 0 and (project / "image" / "digest.db").is_file()
    shown = f"state: {project / 'image' / 'digest.db'} (from $DIGEST_DEFAULT_STATE)"
    assert shown in run(capsys, "validate")[1]
    # A config naming a state of its own, over an image whose state an older image had put
    # every state in: refused (it had started afresh and sent the history's papers again),
    # by validate too, until that state is moved there or DIGEST_STATE names it.
    image = project / "image" / "digest.db"
    config.write_text(config.read_text().replace("[state]", '[state]\npath = "../own.db"'))
    refusal = (
        f"digest: own.db: no state there yet, but {image} ($DIGEST_DEFAULT_STATE) holds one, which"
        " an earlier image used whatever the config named; a run here would send its papers"
        f" again: move that state there, or set DIGEST_STATE={image} to keep using it (or"
        " DIGEST_STATE=own.db to start afresh there)\n"
    )
    for command in (("run", "--now", MONDAY), ("validate",), ("preview", "--subscriber", "alice")):
        code, out, err = run(capsys, *command)
        assert (code, out, err) == (2, "", refusal)
    assert not (project / "own.db").exists()
    image.rename(project / "own.db")
    code, out, err = run(capsys, "run", "--now", MONDAY)
    assert code == 0 and err == "" and "0 sent" in out  # the moved state: nothing again
    # $DIGEST_STATE, given for this, still wins over the config; validate says it does.
    monkeypatch.setenv("DIGEST_STATE", "env.db")
    out = run(capsys, "validate")[1]
    assert "state: env.db (from $DIGEST_STATE; not the config's own.db)" in out


def test_a_sigterm_while_the_state_is_away_ends_the_run_as_a_sigterm_does(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ops21 F3: SIGTERM while a pass waited for its PostgreSQL server: the wait ended with the
    server's error, and the run exited 2, an error's code, not 143 as the README says."""
    from digest import pipeline
    from digest.state.engine import StateAway

    def away(*args: Any, **kwargs: Any) -> None:
        raise StateAway("postgresql://db/digest: the server is still unreachable (stopped)")

    def stopped_while_away(*args: Any, **kwargs: Any) -> None:
        os.kill(os.getpid(), signal.SIGTERM)  # the operator's stop, taken by the run's handler
        away()

    monkeypatch.setattr(pipeline, "run_once", stopped_while_away)
    code, _, err = run(capsys, "run", "--config", "config/digest.toml", "--now", MONDAY)
    assert code == 143 and "terminated (SIGTERM)" in err and "still unreachable" in err
    monkeypatch.setattr(pipeline, "run_once", away)  # no stop: the error's own code
    assert run(capsys, "run", "--config", "config/digest.toml", "--now", MONDAY)[0] == 2

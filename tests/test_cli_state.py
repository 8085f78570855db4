"""A PostgreSQL state URL on the command line, in $DIGEST_STATE or in [state] url: no part of its
password ever shows (cut where libpq cuts it, a '#' or '?' in it included), a URL libpq would
misread is refused, and a URL without a password is shown as it is, even in error lines. The
state's pauses as `digest status` and `digest resume` take them: after a rename, with an
unsubscribe still waiting beside the state."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import web_project
from channel_servers import free_port
from test_web_app import first_links, mailed, unsubscribe_link
from web_project import GRAPHS, IMAGES, TUESDAY, papers_file

from digest.cli import main

REPO = Path(__file__).resolve().parent.parent
PARTS = ("Hunter2", "Xyzzy42")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    shutil.copytree(REPO / "config", tmp_path / "config")
    monkeypatch.chdir(tmp_path)
    for name in ("DIGEST_STATE", "DIGEST_CONFIG", "DIGEST_WORKER"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def with_state_url(project: Path, url: str) -> None:
    config = project / "config" / "digest.toml"
    text = config.read_text(encoding="utf-8")
    config.write_text(text.replace('path = "../state/digest.db"', f'url = "{url}"'))


@pytest.mark.parametrize("mark", ["#", "?"])
def test_a_password_with_a_hash_or_a_question_mark_never_shows_in_any_part(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mark: str,
) -> None:
    port = free_port()  # nothing listens: every command fails to connect
    url = f"postgresql://digest:Hunter2{mark}Xyzzy42@127.0.0.1:{port}/d1"
    where = f"postgresql://digest@127.0.0.1:{port}/d1"
    with_state_url(project, url)
    code, out, err = run(capsys, "validate")
    assert code == 0 and f"state: {where}" in out
    assert not any(part in out + err for part in PARTS)
    for how in ("config", "env", "flag"):
        flag = ["--state", url] if how == "flag" else []
        if how == "env":
            monkeypatch.setenv("DIGEST_STATE", url)
        for command in ("run", "status", "health"):
            code, out, err = run(capsys, command, *flag)
            assert code == 2 and len(err.splitlines()) == 1, err
            assert err.startswith(f"digest: {where}: cannot connect"), err
            assert not any(part in out + err for part in PARTS), (how, command, err)
        monkeypatch.delenv("DIGEST_STATE", raising=False)


@pytest.mark.parametrize(
    "password",
    ["Hunter2@Xyzzy42", "Hunter2/Xyzzy42", "Hunter2/1?Xyzzy42"],
)
def test_a_url_libpq_would_misread_is_refused_wherever_it_comes_from(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    password: str,
) -> None:
    url = f"postgresql://digest:{password}@127.0.0.1:{free_port()}/d1"
    code, out, err = run(capsys, "health", "--state", url)
    assert code == 2 and err.startswith("digest: --state: not a valid postgresql:// URL: an '@'")
    assert "%40" in err and not any(part in out + err for part in PARTS)
    monkeypatch.setenv("DIGEST_STATE", url)
    code, out, err = run(capsys, "run")
    assert code == 2 and err.startswith("digest: DIGEST_STATE: not a valid postgresql:// URL")
    assert not any(part in out + err for part in PARTS)
    monkeypatch.delenv("DIGEST_STATE")
    with_state_url(project, url)
    code, out, err = run(capsys, "validate")
    assert code == 2 and "state.url: is not a valid postgresql:// URL: an '@'" in err
    assert len(err.splitlines()) == 1 and not any(part in out + err for part in PARTS)


def test_a_url_without_a_password_names_the_database_in_its_error_lines(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The recommended form (the password in PGPASSWORD) is no secret: an error says which
    database it could not reach, as `digest status` and `digest health` print it."""
    url = f"postgresql://digest@127.0.0.1:{free_port()}/digest"
    with_state_url(project, url)
    for command in ("run", "status", "health"):
        code, out, err = run(capsys, command)
        assert code == 2 and err.startswith(f"digest: {url}: cannot connect"), err
        assert "[redacted]" not in err
    # From the environment too (`url = "${DIGEST_DB}"`): it was blotted whole, as a secret.
    config = project / "config" / "digest.toml"
    config.write_text(config.read_text().replace(f'url = "{url}"', 'url = "${DIGEST_DB}"'))
    assert "${DIGEST_DB}" in config.read_text()
    (project / "config" / ".env").write_text(f"DIGEST_DB={url}\n")
    code, out, err = run(capsys, "run")
    assert code == 2 and err.startswith(f"digest: {url}: cannot connect"), err
    hidden = url.replace("digest@", "digest:Hunter2@")  # ...but its password, when it has one
    (project / "config" / ".env").write_text(f"DIGEST_DB={hidden}\n")
    code, out, err = run(capsys, "run")
    assert code == 2 and err.startswith(f"digest: {url}: cannot connect"), err
    assert "Hunter2" not in out + err
    code, out, err = run(capsys, "health", "--state", url)
    assert code == 2 and err.startswith(f"digest: {url}: cannot connect"), err


def test_a_blank_state_or_a_device_as_state_is_one_line_and_nothing_is_made(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `--state "$UNSET"` had run on the config's state; `--state " "` made a file named " ";
    # /dev/null was "empty (0 bytes) ... delete it to start afresh".
    for blank in ("", " "):
        code, _, err = run(capsys, "status", "--config", "config/digest.toml", "--state", blank)
        assert code == 2 and err == (
            "digest: --state: blank; give a file or a postgresql:// URL, or leave it out\n"
        )
    assert not (project / " ").exists()
    code, _, err = run(capsys, "run", "--config", "config/digest.toml", "--state", "/dev/null")
    assert code == 2 and "/dev/null: not a regular file; name a state database file" in err


def test_retry_over_a_state_that_is_not_there_creates_none_and_says_so(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It had made an empty database and said "0 pending" while the owed rows sat elsewhere."""
    code, _, err = run(capsys, "retry", "--config", "config/digest.toml", "--state", "nx/none.db")
    assert code == 2 and "no state at nx/none.db: nothing was ever owed there" in err
    assert len(err.strip().splitlines()) == 1 and not (project / "nx").exists()


def test_health_says_bad_state_for_a_state_no_serve_could_use(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import sqlite3

    newer = project / "newer.db"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 999")
    code, _, err = run(capsys, "health", "--state", str(newer))
    assert code == 2 and "made by a newer digest (schema 999)" in err


def test_a_run_over_a_bad_library_names_each_and_makes_no_state(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The state file had been made before the first bad library stopped the run, and the line
    named the file alone, not whose library it was."""
    config = project / "config" / "digest.toml"
    config.write_text(
        config.read_text()
        + '[[subscribers]]\nname = "dan"\ninterests = "privacy"\nlibrary = "nope.bib"\n'
        + '[[subscribers]]\nname = "eve"\ninterests = "privacy"\nlibrary = "gone.jsonl"\n'
    )
    code, _, err = run(capsys, "run", "--config", str(config))
    assert code == 2 and "subscribers.dan.library: " in err and "subscribers.eve.library: " in err
    assert len(err.strip().splitlines()) == 2 and not (project / "state").exists()


def test_an_empty_database_named_by_the_config_is_refused_while_the_images_state_holds_one(
    project: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    postgres_url: str,
) -> None:
    """An earlier image kept every state in its own file whatever the config named: a config's
    PostgreSQL url, still empty, had started afresh, every digest of the history made again."""
    monday = "2026-11-30T15:00:00+01:00"
    assert run(capsys, "run", "--now", monday)[0] == 0  # the image's history
    monkeypatch.setenv("DIGEST_DEFAULT_STATE", str(project / "state" / "digest.db"))
    with_state_url(project, postgres_url)
    for command in (("run", "--now", monday), ("validate",)):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == "" and err.startswith(f"digest: {postgres_url}: no state")
        assert "set DIGEST_STATE=" in err and err.count("\n") == 1
    monkeypatch.setenv("DIGEST_STATE", postgres_url)  # chosen: it starts there
    assert run(capsys, "run", "--now", monday)[0] == 0
    monkeypatch.delenv("DIGEST_STATE")
    code, out, err = run(capsys, "run", "--now", monday)
    assert (code, err) == (0, "") and "0 sent" in out  # it holds one now: no refusal


def unsubscribed_and_renamed(web: Any, capsys: pytest.CaptureFixture[str], to: str) -> None:
    """ana's first digest mailed, her one-click unsubscribe taken, then ana renamed `to` (or
    taken out of the config: "")."""
    first_links(web, capsys)
    (mail,) = web.mails("ana@example.org")
    with web.web() as http:
        assert "No more e-mail" in http.post(unsubscribe_link(mail)).text
    config = web.root / "digest.toml"
    text = config.read_text(encoding="utf-8")
    if to:
        config.write_text(text.replace('name = "ana"', f'name = "{to}"'), "utf-8")
    else:  # ana's block, up to ben's
        cut = text[text.index('[[subscribers]]\nname = "ana"') : text.index('name = "ben"')]
        config.write_text(text.replace(cut, "[[subscribers]]\n"), "utf-8")


def test_after_a_rename_status_and_resume_name_the_new_name_and_the_resume_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Status advised `digest resume ana`, refused (no such subscriber); `digest resume ana-lab`
    said "nothing was paused", and the next run moved the pause to ana-lab: the resume lost."""
    with web_project.project(tmp_path) as web:
        unsubscribed_and_renamed(web, capsys, "ana-lab")
        out = web.digest(capsys, "status", "--now", TUESDAY)[1]
        assert "ana-lab/email: email paused by the reader since 20" in out
        assert "`digest resume ana-lab` sends again" in out and "resume ana`" not in out
        code, out, _ = web.digest(capsys, "resume", "ana-lab")
        assert code == 0 and "ana-lab: email resumed" in out
        papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
        assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
        assert mailed(web, "ana@example.org") == 2
        assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]


@pytest.mark.parametrize("run_first", [False, True])
def test_resume_by_the_old_name_after_a_rename_lifts_the_pause_wherever_it_went(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], run_first: bool
) -> None:
    """`digest resume ana` after ana was renamed ana-lab, before a run: "ana: nothing was
    paused" (resume's own follow had moved the pause to ana-lab), ana-lab left paused; after a
    run, "no subscriber named 'ana'"."""
    with web_project.project(tmp_path) as web:
        unsubscribed_and_renamed(web, capsys, "ana-lab")
        if run_first:  # the pause moved to ana-lab, its digest held
            assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
        code, out, _ = web.digest(capsys, "resume", "ana")
        assert code == 0 and "ana: email resumed" in out
        assert "paused" not in web.digest(capsys, "status", "--now", TUESDAY)[1]
        papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
        later = "2026-12-02T09:00:00+00:00" if run_first else TUESDAY  # a new period's digest
        assert web.digest(capsys, "run", "--now", later)[0] == 0
        assert mailed(web, "ana@example.org") == 2


def test_a_pause_of_a_subscriber_taken_out_of_the_config_is_resumed_by_its_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Status says `digest resume ana` of a pause whose subscriber left the config: it works."""
    with web_project.project(tmp_path) as web:
        unsubscribed_and_renamed(web, capsys, "")
        out = web.digest(capsys, "status", "--now", TUESDAY)[1]
        assert "no e-mail channel of ana goes there now); `digest resume ana` sends again" in out
        code, out, _ = web.digest(capsys, "resume", "ana")
        assert code == 0 and "ana: email resumed" in out
        code, _, err = web.digest(capsys, "resume", "ana")  # nothing of hers is kept now
        assert code == 2 and "no subscriber named 'ana'" in err


def test_resume_records_an_unsubscribe_waiting_beside_the_state_first_and_then_lifts_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A face died with an unsubscribe kept in <db>.clicks: status said nothing of it, `digest
    resume` said "nothing was paused", and the next run recorded it: the resume undone."""
    with web_project.project(tmp_path) as web:
        first_links(web, capsys)
        at = "2026-11-30T10:00:00+00:00"
        record = {"key": f"pause:ana:{at}", "until": at, "at": at, "votes": [],
                  "pauses": [["ana", "email\nana@example.org"]]}  # fmt: skip
        spool = Path(f"{web.state}.clicks")
        spool.write_text(json.dumps(record) + "\n", encoding="utf-8")
        out = web.digest(capsys, "status", "--now", TUESDAY)[1]
        assert f"kept by a web face in {spool}, not recorded yet: 1 unsubscribe of ana" in out
        assert f"(the first at {at})" in out and spool.read_text() != ""  # status only reads
        code, out, _ = web.digest(capsys, "resume", "ana")
        assert code == 0 and "ana: email resumed" in out
        assert "kept by a web face" not in web.digest(capsys, "status", "--now", TUESDAY)[1]
        papers_file(web.root / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
        assert web.digest(capsys, "run", "--now", TUESDAY)[0] == 0
        assert mailed(web, "ana@example.org") == 2


def test_resume_by_a_name_two_renames_back_reaches_the_pause_where_it_is(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """reg31 F11: ana unsubscribed, renamed ana1, then ana2, then taken out of the config: the
    pause is kept under ana2, and `digest resume ana` said "no subscriber named 'ana'"."""
    from datetime import UTC, datetime

    from digest.state import Store
    from digest.state.pauses import addressed

    (project / "state").mkdir()
    to = {"email": ("ana@example.org",)}
    with Store(str(project / "state" / "digest.db")) as store:
        store.web.hold_paused({"ana": to})
        store.web.pause("ana", [addressed("email", ["ana@example.org"])], datetime.now(UTC))
        for name in ("ana1", "ana2"):
            store.web.hold_paused({name: to})
        assert [p.subscriber for p in store.web.pauses()] == ["ana2"]
    code, out, err = run(capsys, "resume", "ana")
    assert (code, err) == (0, "") and "ana: email resumed" in out
    code, _, err = run(capsys, "resume", "ana")  # nothing of hers is kept now
    assert code == 2 and "no subscriber named 'ana'" in err

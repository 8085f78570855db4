"""Relative paths in a config start from the config file's folder, wherever `digest` runs from
(cron runs from anywhere): sources, libraries, the state database, the file channel's folder,
the templates and the SMTP CA file; `digest validate` says where each one landed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from channel_servers import self_signed

from digest import config
from digest.cli import main
from digest.models import ConfigError

REPO = Path(__file__).resolve().parent.parent

CONFIG = """
templates = "my-templates"

[state]
path = "var/digest.db"

[smtp]
host = "smtp.example.org"
from = "digest@example.org"
ca_file = "ca.pem"

[[sources]]
kind = "seeds"
path = "../seeds"

[[subscribers]]
name = "ana"
interests = "differential privacy"
library = "ana.jsonl"

[[subscribers.channels]]
kind = "file"
dir = "../out"

[[subscribers]]
name = "ben"
interests = "diffusion"
"""


def project(tmp_path: Path) -> Path:
    """tmp/site/conf/digest.toml over tmp/site/seeds, with its own templates and CA file."""
    conf = tmp_path / "site" / "conf"
    (conf / "my-templates").mkdir(parents=True)
    shutil.copytree(REPO / "seeds", tmp_path / "site" / "seeds")
    self_signed(conf)[0].rename(conf / "ca.pem")  # validate loads it, as a run does
    (conf / "ana.jsonl").write_text('{"id": "x1", "title": "DP-SGD", "abstract": "Privacy."}\n')
    (conf / "digest.toml").write_text(CONFIG, encoding="utf-8")
    return conf / "digest.toml"


def test_every_relative_path_starts_from_the_config_folder_not_the_working_directory(
    tmp_path: Path, monkeypatch
) -> None:
    path = project(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    site, conf = tmp_path / "site", tmp_path / "site" / "conf"
    for given in (path, os.path.relpath(path, elsewhere)):  # absolute, and "../site/conf/..."
        settings = config.load(given, environ={})
        assert Path(settings.state_path).resolve() == conf / "var" / "digest.db"
        assert Path(settings.templates).resolve() == conf / "my-templates"
        assert Path(settings.smtp["ca_file"]).resolve() == conf / "ca.pem"
        (seeds,) = settings.sources
        assert Path(seeds.options["path"]).resolve() == site / "seeds"
        assert seeds.name == "../seeds"  # named as written: the journal keys on it
        ana, ben = settings.subscribers
        assert Path(ana.library_path).resolve() == conf / "ana.jsonl"
        assert Path(ana.channels[0].options["dir"]).resolve() == site / "out"
        # Left out, the file channel's folder is out/ beside the config, like the state's.
        assert Path(ben.channels[0].options["dir"]).resolve() == conf / "out"


def test_absolute_paths_and_home_are_kept(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    path = tmp_path / "digest.toml"
    path.write_text(
        '[state]\npath = "~/digest.db"\n[[sources]]\nkind = "seeds"\npath = "/srv/seeds"\n'
        '[[subscribers]]\nname = "a"\ninterests = "x"\n'
    )
    settings = config.load(path, environ={})
    assert settings.state_path == str(tmp_path / "home" / "digest.db")
    assert settings.sources[0].options["path"] == "/srv/seeds"


def test_a_path_through_a_symbolic_link_keeps_its_meaning(tmp_path: Path) -> None:
    real = tmp_path / "etc" / "digest"
    real.mkdir(parents=True)
    (tmp_path / "link").symlink_to(real)
    path = real / "digest.toml"
    path.write_text('[state]\npath = "../state.db"\n')
    settings = config.load(tmp_path / "link" / "digest.toml", environ={})
    # ../ from the link's target, not from the link's own folder.
    assert Path(settings.state_path).resolve() == tmp_path / "etc" / "state.db"


def test_validate_says_where_relative_paths_start(tmp_path: Path, monkeypatch, capsys) -> None:
    path = project(tmp_path)
    (path.parent / "ca.pem").unlink()
    path.write_text(CONFIG.replace('ca_file = "ca.pem"\n', ""))
    monkeypatch.chdir(tmp_path)
    code = main(["validate", "--config", str(path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"relative paths start from the config file's folder, {path.parent}{os.sep}:" in out
    assert f"source ../seeds: {tmp_path / 'site' / 'seeds'}" in out
    assert f"ana/file: {tmp_path / 'site' / 'out'}" in out
    assert f"state: {path.parent / 'var' / 'digest.db'}" in out


def test_make_demo_writes_out_and_state_in_the_project_folder(tmp_path: Path) -> None:
    """The example config lives in config/ and names ../seeds, ../out and ../state: the demo,
    run from the project folder or from anywhere, writes where the README says."""
    shutil.copytree(REPO / "config", tmp_path / "config")
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / "cron-cwd").mkdir()
    command = [
        sys.executable,
        "-m",
        "digest",
        "run",
        "--config",
        str(tmp_path / "config" / "digest.toml"),
    ]
    done = subprocess.run(
        [*command, "--now", "2026-11-30T15:00:00+01:00"],
        cwd=tmp_path / "cron-cwd",
        capture_output=True,
        text=True,
        env={**os.environ, "DIGEST_STATE": ""},
    )
    assert done.returncode == 0, done.stderr
    assert len(list((tmp_path / "out").glob("*/*.eml"))) == 3
    assert (tmp_path / "state" / "digest.db").is_file()
    assert not any((tmp_path / "cron-cwd").iterdir())


@pytest.mark.parametrize(
    ("written", "nul", "key"),
    [
        ('path = "var/digest.db"', 'path = "~\\u0000x"', "state.path"),
        ('path = "var/digest.db"', 'path = "/tmp/a\\u0000b"', "state.path"),
        ('templates = "my-templates"', 'templates = "~\\u0000"', "templates"),
        ('ca_file = "ca.pem"', 'ca_file = "ca\\u0000.pem"', "smtp.ca_file"),
        ('path = "../seeds"', 'path = "~/\\u0000x"', "sources[0].path"),
        ('library = "ana.jsonl"', 'library = "~\\u0000.bib"', "subscribers.ana.library"),
        ('dir = "../out"', 'dir = "out\\u0000"', "subscribers.ana.channels[0].dir"),
    ],
)
def test_a_path_no_file_system_can_hold_is_refused_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, nul: str, key: str
) -> None:
    """A NUL passed `validate`, then failed where the path was first used: the state's a
    traceback in `run` ("embedded null byte"), `status` said "no state at ~\\x00x yet", a file
    channel's delivery was retried until dead. Now every command stops at the config."""
    path = project(tmp_path)
    path.write_text(CONFIG.replace(written, nul), encoding="utf-8")
    for command in ("validate", "status", "run"):
        code = main([command, "--config", str(path)])
        out, err = capsys.readouterr()
        assert code == 2, (command, out, err)
        line = f"digest: {path}: {key}: "
        assert err.startswith(line) and err.count("\n") == 1, (command, err)
        assert err.endswith(" holds a NUL character, which no file or folder name can\n")
    assert not (tmp_path / "site" / "conf" / "var").exists()  # no state made on the way


def test_a_character_the_file_system_encoding_has_no_bytes_for_is_refused(tmp_path: Path) -> None:
    # A ${VAR} is the one way in for a lone surrogate: TOML refuses one written as \ud800.
    path = project(tmp_path)
    path.write_text(CONFIG.replace('"var/digest.db"', '"${STATE}"'), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        config.load(path, environ={"STATE": "var/\ud800.db"})
    assert str(info.value) == (
        f"{path}: state.path: 'var/\\ud800.db' holds the character U+D800, which no file or "
        "folder name can"
    )
    # An undecodable byte of a real environment (os.environ's surrogate escape) is a name.
    settings = config.load(path, environ={"STATE": "var/\udcff.db"})
    assert os.fsencode(settings.state_path).endswith(b"var/\xff.db")


# --- a .env of another tool, and a config from a pipe ---------------------------------------

ANOTHER_TOOLS = "# another tool's settings\nexport EDITOR=vi\nbad line here\n"


def test_another_tools_dotenv_in_the_working_directory_is_only_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Cron runs in $HOME: a ~/.env digest cannot parse stopped every command (exit 2) of a
    config that names no ${VAR} at all."""
    path = project(tmp_path)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text(ANOTHER_TOOLS)
    monkeypatch.chdir(home)
    code = main(["validate", "--config", str(path)])
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith(f"{path}: OK"), err
    assert err == (
        f"digest: WARNING: {home / '.env'}:3: not a NAME=value line; not read, as {path} names"
        " no ${VAR} it would give\n"
    )


def test_a_dotenv_the_configs_variables_may_need_is_still_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project(tmp_path)
    path.write_text(CONFIG.replace('"var/digest.db"', '"${STATE_FILE}"'), encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    (home / ".env").write_text("STATE_FILE=var/home.db\n" + ANOTHER_TOOLS)
    monkeypatch.chdir(home)
    monkeypatch.delenv("STATE_FILE", raising=False)
    broken = f"digest: {home / '.env'}:4: not a NAME=value line\n"
    for beside in ("", "STATE_FILE=var/beside.db\n"):
        # Set nowhere else, or set beside the config too, which the working directory's wins:
        # the broken file would give the value, as it did before.
        (path.parent / ".env").write_text(beside)
        code = main(["validate", "--config", str(path)])
        assert (code, capsys.readouterr().err) == (2, broken)
    # The environment wins over every .env: the broken one gives nothing the config uses.
    monkeypatch.setenv("STATE_FILE", "var/env.db")
    code = main(["validate", "--config", str(path)])
    out, err = capsys.readouterr()
    assert code == 0 and f"state: {path.parent / 'var' / 'env.db'}" in out
    assert err.startswith(f"digest: WARNING: {home / '.env'}:4: not a NAME=value line; ")
    # Beside the config, a .env digest cannot parse is an error whatever the config names.
    monkeypatch.chdir(path.parent)
    (path.parent / ".env").write_text(ANOTHER_TOOLS)
    code = main(["validate", "--config", str(path)])
    assert (code, capsys.readouterr().err) == (
        2,
        f"digest: {path.parent / '.env'}:3: not a NAME=value line\n",
    )


def piped(text: str) -> str:
    """A config as `--config <(envsubst < digest.toml)` gives it: /dev/fd/N, a pipe."""
    read, write = os.pipe()
    os.write(write, text.encode())
    os.close(write)
    return f"/dev/fd/{read}"


def test_a_config_from_a_pipe_starts_its_relative_paths_in_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pipe's folder (/dev/fd) holds no files: validate looked for /dev/fd/seeds, and run
    for its default state under /proc/<pid>/fd/state."""
    shutil.copytree(REPO / "seeds", tmp_path / "seeds")
    (tmp_path / ".env").write_text("TOPIC=differential privacy\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    text = (
        '[[sources]]\nkind = "seeds"\npath = "seeds"\n'
        '[[subscribers]]\nname = "ana"\ninterests = "${TOPIC}"\n'
    )
    for command in (["validate"], ["run", "--now", "2026-11-30T09:00:00+00:00"]):
        name = piped(text)
        try:
            code = main([*command, "--config", name])
        finally:
            os.close(int(name.rpartition("/")[2]))
        out, err = capsys.readouterr()
        assert code == 0, err
        if command == ["validate"]:
            assert f"source seeds: {tmp_path / 'seeds'}" in out
            assert "start from the working directory (the config came through a pipe)" in out
            assert f"state: {tmp_path / 'state' / 'digest.db'}" in out
    assert (tmp_path / "state" / "digest.db").is_file()
    assert len(list((tmp_path / "out").glob("*/ana.eml"))) == 1

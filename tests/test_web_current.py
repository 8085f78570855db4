"""The web face's config as it is on disk: read again after the file or its .env changes, at most
every few seconds; an edit that does not load (or drops [web]) leaves the last good one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from digest import config
from digest.web.current import EVERY, Current

CONFIG = """
[web]
base_url = "https://digest.example.org"
secret = "${{DIGEST_WEB_SECRET}}"

[[sources]]
kind = "files"
path = "papers"
{readers}
"""
READER = '\n[[subscribers]]\nname = "{name}"\ninterests = "graph neural networks"\n'


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_WEB_SECRET", raising=False)
    (tmp_path / ".env").write_text("DIGEST_WEB_SECRET=first-secret-long-enough-1234\n")
    write(tmp_path, "ana")
    return tmp_path


def write(root: Path, *names: str, text: str | None = None) -> None:
    path = root / "digest.toml"
    body = text if text is not None else CONFIG.format(readers="".join(
        READER.format(name=n) for n in names))  # fmt: skip
    path.write_text(body, encoding="utf-8")
    stamp = path.stat().st_mtime_ns + 10**9  # a later time, as an edit a second on would have
    os.utime(path, ns=(stamp, stamp))


def current(root: Path, clock: Clock) -> tuple[Current, list[int]]:
    reads: list[int] = []

    def load() -> config.Settings:
        reads.append(1)
        return config.load(root / "digest.toml")

    return Current(load(), load, clock), reads


def names(face: Current) -> list[str]:
    return sorted(face.view().subscribers)


def test_an_edited_config_is_read_again_once_after_a_few_seconds(files: Path) -> None:
    clock = Clock()
    face, reads = current(files, clock)
    write(files, "ana", "ben")
    assert names(face) == ["ana"]  # not looked at yet: a stat at most every EVERY seconds
    clock.now += EVERY
    assert names(face) == ["ana", "ben"]
    clock.now += EVERY
    assert names(face) == ["ana", "ben"] and len(reads) == 2  # unchanged: not read again


def test_an_unchanged_config_is_never_read_again(files: Path) -> None:
    clock = Clock()
    face, reads = current(files, clock)
    for _ in range(5):
        clock.now += EVERY
        face.get()
    assert len(reads) == 1


def test_a_new_secret_in_the_env_file_signs_the_links_from_then_on(files: Path) -> None:
    clock = Clock()
    face, _ = current(files, clock)
    before = face.view().signer.archive_key("ana")
    (files / ".env").write_text("DIGEST_WEB_SECRET=second-secret-long-enough-123\n")
    clock.now += EVERY
    assert face.view().signer.archive_key("ana") != before


NO_WEB = CONFIG.split("[[sources]]")[1].format(readers=READER.format(name="ana"))


@pytest.mark.parametrize("broken", ["[[subscribers]\nname =", "[[sources]]" + NO_WEB])
def test_an_edit_that_does_not_load_leaves_the_last_good_config(
    files: Path, broken: str, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    face, _ = current(files, clock)
    write(files, text=broken)
    clock.now += EVERY
    assert names(face) == ["ana"]
    assert "digest.toml" in caplog.text and "goes on as it was" in caplog.text
    write(files, "ana", "cai")  # the edit finished
    clock.now += EVERY
    assert names(face) == ["ana", "cai"]


def test_without_a_way_to_read_it_again_the_config_stays_as_given(files: Path) -> None:
    face = Current(config.load(files / "digest.toml"))
    write(files, "ana", "ben")
    assert names(face) == ["ana"]


def test_a_changed_state_is_refused_at_once_and_until_it_is_back(
    files: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The face's database is opened once: a vote or unsubscribe taken after [state] changed
    # went into a file no run read.
    clock = Clock()
    face, _ = current(files, clock)
    assert face.check() == ""
    body = (files / "digest.toml").read_text(encoding="utf-8")
    write(files, text='[state]\npath = "moved/digest.db"\n' + body)
    assert face.check() == f"{files / 'digest.toml'}: [state] changed: restart digest web"
    assert "[state] changed: restart digest web (until then votes and unsubscribes" in caplog.text
    write(files, "ana", "ben")  # back to state/digest.db: the face's own again
    assert face.check() == "" and names(face) == ["ana", "ben"]
    assert "[state] is back as it was" in caplog.text


def test_a_changed_listen_is_said_to_need_a_restart(
    files: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = Clock()
    face, _ = current(files, clock)
    body = (files / "digest.toml").read_text(encoding="utf-8")
    write(files, text=body.replace("[web]\n", '[web]\nlisten = "0.0.0.0:9000"\n'))
    clock.now += EVERY
    face.get()
    assert (
        "[web].listen changed: restart digest web to listen on 0.0.0.0:9000"
        " (it listens on 127.0.0.1:8080 still)" in caplog.text
    )
    assert face.check() == ""  # the face goes on where it listens, writes and all

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

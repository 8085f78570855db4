"""Every test runs in its own empty working directory, so relative paths (out/, state/) written by
the code under test land in tmp_path, never in the repository."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    # Parsed libraries are cached under XDG_CACHE_HOME: each test gets its own, not ~/.cache.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / ".cache"))
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)

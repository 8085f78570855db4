"""Every test runs in its own empty working directory, so relative paths (out/, state/) written by
the code under test land in tmp_path, never in the repository."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _own_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)

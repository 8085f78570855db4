"""The state fixture every test of the state layer runs on: an SQLite file and a fresh database
on the throwaway PostgreSQL cluster (support_postgres.py), so both engines keep one behaviour."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(params=["sqlite", "postgres"])
def state(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a Store keeps its tables: a file path, or a postgresql:// URL."""
    if request.param == "sqlite":
        return str(tmp_path / "state" / "digest.db")
    return str(request.getfixturevalue("postgres_url"))

"""Config parsing under fuzz: odd values (lists, tables, huge and negative numbers, NaN and
infinities, unicode, empty strings, booleans) in every key, and whole tables replaced by them.
Every outcome is Settings or ConfigError lines naming the file, in `load`, `validate` and `run`;
never a traceback. Bounded: a few hundred examples, seconds in all."""

from __future__ import annotations

import copy
import json
import math
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from digest import config
from digest.cli import main
from digest.models import ConfigError, Settings

SEEDS = "Venue 2026\n\n" + "\n\n".join(
    f"Paper {i} studies differential privacy and federated learning in depth, number {i}."
    for i in range(3)
)
BASE: dict[str, Any] = {
    "templates": "",
    "state": {"path": "state/digest.db"},
    "serve": {"poll_every": "30m", "misfire_grace_time": "1h"},
    "delivery": {"max_attempts": 3, "concurrency": 2, "max_wait": 5},
    "smtp": {"host": "127.0.0.1", "port": 2525, "security": "none", "from": "d@example.org"},
    "sources": [{"kind": "seeds", "name": "seeds", "path": "seeds"}],
    "defaults": {"top_k": 3, "min_score": 0.0, "timezone": "UTC", "on_empty": "skip"},
    "subscribers": [
        {
            "name": "ana",
            "interests": "differential privacy",
            "keywords": ["privacy"],
            "schedule": "0 8 * * *",
            "alert_threshold": 0.9,
            "max_alerts_per_day": 2,
            "channels": [{"kind": "file", "dir": "out", "to": "ana@example.org"}],
        }
    ],
}
# Where a fuzzed value goes: a path of keys and list indexes into BASE.
PLACES: list[tuple[Any, ...]] = [(top,) for top in BASE] + [
    ("state", "path"),
    ("serve", "poll_every"),
    ("serve", "misfire_grace_time"),
    *[("delivery", k) for k in ("max_attempts", "concurrency", "max_wait")],
    *[("smtp", k) for k in ("host", "port", "security", "from", "ca_file", "username")],
    *[("sources", 0, k) for k in ("kind", "name", "path")],
    ("sources", 0),
    *[("defaults", k) for k in ("top_k", "min_score", "timezone", "on_empty", "channels")],
    *[
        ("subscribers", 0, k)
        for k in (
            "name",
            "interests",
            "keywords",
            "exclude",
            "authors",
            "library",
            "like",
            "top_k",
            "min_score",
            "schedule",
            "timezone",
            "alert_threshold",
            "alert_keywords",
            "max_alerts_per_day",
            "on_empty",
            "channels",
        )
    ],
    ("subscribers", 0),
    *[("subscribers", 0, "channels", 0, k) for k in ("kind", "dir", "to", "webhook", "url")],
    ("subscribers", 0, "channels", 0),
]
ODD: list[Any] = [
    [],
    [1],
    ["a", 2],
    [[]],
    {},
    {"a": 1},
    {"kind": []},
    0,
    -1,
    1,
    2,
    2**63 - 1,
    -(2**63),
    10**30,
    0.5,
    -0.0,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    "",
    " ",
    "é中😀",
    "\u0000",
    "\n",
    "x" * 5000,
    "9" * 5000 + "s",  # past Python's 4,300 digits of int(): a traceback in every command
    "0",
    "-1",
    "30m",
    "0s",
    "${NOPE}",
    "$$",
    "~",
    "/",
    "..",
    "https://example.org/x",
    "http://10.0.0.1/",
    "#room:x",
    "a@b",
    True,
    False,
]
values = st.one_of(
    st.sampled_from(ODD),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
    st.lists(st.sampled_from(ODD[:20]), max_size=3),
)


def toml(value: Any) -> str:
    """A Python value as a TOML value (inline tables and arrays throughout)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # TOML's basic strings escape alike
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(k)} = {toml(v)}" for k, v in value.items()) + "}"


def document(place: tuple[Any, ...], value: Any) -> str:
    data = copy.deepcopy(BASE)
    target: Any = data
    for step in place[:-1]:
        target = target[step]
    target[place[-1]] = value
    return "".join(f"{key} = {toml(v)}\n" for key, v in data.items())


@pytest.fixture
def site(tmp_path: Path) -> Path:
    (tmp_path / "seeds").mkdir()
    (tmp_path / "seeds" / "a.txt").write_text(SEEDS, encoding="utf-8")
    return tmp_path


def outcome_is_settings_or_config_lines(path: Path) -> Settings | None:
    try:
        found = config.load(path, environ={})
    except ConfigError as exc:
        lines = str(exc).splitlines()
        assert lines and all(line.startswith(f"{path}: ") for line in lines), lines
        return None
    # A path the system cannot open fails where it is first used (a NUL: a traceback in `run`).
    assert all("\x00" not in p for p in paths(found)), paths(found)
    return found


def paths(found: Settings) -> list[str]:
    """Every path of the settings: the state, templates, sources, libraries, file channels, CA."""
    named = [found.state_path, found.templates, str(found.smtp.get("ca_file", ""))]
    named += [str(s.options.get("path", "")) for s in found.sources]
    for sub in found.subscribers:
        named += [sub.library_path, *(str(c.options.get("dir", "")) for c in sub.channels)]
    return named


FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))


def test_the_base_config_is_valid(site: Path) -> None:
    path = site / "digest.toml"
    path.write_text(document(("templates",), ""), encoding="utf-8")
    assert outcome_is_settings_or_config_lines(path) is not None


@FUZZ
@given(place=st.sampled_from(PLACES), value=values)
def test_load_gives_settings_or_config_lines(
    site: Path, place: tuple[Any, ...], value: Any
) -> None:
    path = site / "digest.toml"
    path.write_text(document(place, value), encoding="utf-8")
    outcome_is_settings_or_config_lines(path)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(place=st.sampled_from(PLACES), value=st.sampled_from(ODD))
def test_validate_exits_0_or_2_with_digest_lines(
    site: Path, place: tuple[Any, ...], value: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    path = site / "digest.toml"
    path.write_text(document(place, value), encoding="utf-8")
    code = main(["validate", "--config", str(path)])
    _, err = capsys.readouterr()
    assert code in (0, 2)
    assert all(line.startswith("digest: ") for line in err.splitlines()), err


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    place=st.sampled_from([p for p in PLACES if p[0] in ("defaults", "subscribers", "delivery")]),
    value=st.sampled_from(ODD),
)
def test_run_ends_with_an_exit_code_never_a_traceback(
    site: Path, place: tuple[Any, ...], value: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    for made in ("state", "out"):
        shutil.rmtree(site / made, ignore_errors=True)
    path = site / "digest.toml"
    path.write_text(document(place, value), encoding="utf-8")
    code = main(["run", "--config", str(path), "--now", "2026-11-30T09:00:00+00:00"])
    _, err = capsys.readouterr()
    assert code in (0, 1, 2), err
    assert "Traceback" not in err

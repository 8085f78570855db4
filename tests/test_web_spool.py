"""The clicks a web face keeps on disk beside an SQLite state while the database is away: read
back by the next face, forgotten once written, and a line cut short by a crash costs only itself."""

from __future__ import annotations

import json
from pathlib import Path

from digest.web.spool import Spool


def click(key: str) -> dict[str, object]:
    at = "2026-11-30T09:00:00+00:00"
    return {"key": key, "until": at, "at": at, "votes": [["ana", "p1", "up"]]}


def test_kept_clicks_are_read_back_until_they_are_done(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "digest.db.clicks")
    assert spool.load() == []  # no file yet
    spool.keep(click("k1"))
    spool.keep(click("k2"))
    assert [r["key"] for r in Spool(spool.path).load()] == ["k1", "k2"]
    spool.done(["k1"])
    assert [r["key"] for r in spool.load()] == ["k2"]
    spool.done(["k2"])
    assert spool.load() == [] and spool.path.read_text(encoding="utf-8") == ""


def test_a_line_cut_short_is_skipped_and_the_others_kept(tmp_path: Path) -> None:
    spool = Spool(tmp_path / "digest.db.clicks")
    spool.keep(click("k1"))
    with spool.path.open("a", encoding="utf-8") as file:
        file.write('{"key": "k2", "until": "2026-11-30T0')  # the crash
    spool.keep(click("k3"))
    assert [r["key"] for r in spool.load()] == ["k1", "k3"]


def test_a_folder_that_cannot_be_written_is_one_log_line(tmp_path: Path, caplog) -> None:
    spool = Spool(tmp_path / "missing" / "digest.db.clicks")
    spool.keep(click("k1"))  # no traceback: the click still waits in the face's memory
    assert f"{spool.path}: cannot keep a click on disk" in caplog.text
    assert spool.load() == []


def test_done_marks_that_cannot_be_written_are_one_line_naming_the_spool(
    tmp_path: Path, caplog
) -> None:
    """A spool the writer cannot mark (a face's of another user: `chattr +i` in reg24 F3) had said
    "cannot keep a Slack click on disk" of an unsubscribe it had just recorded, and then "cannot
    empty the kept clicks" besides. Its parent a file: not even root can write it."""
    (tmp_path / "state.db").write_text("")
    spool = Spool(tmp_path / "state.db" / "digest.db.clicks")
    assert spool.done(["pause:ben:1", "slack:1"]) is False
    warnings = [r.getMessage() for r in caplog.records]
    assert warnings == [
        f"{spool.path}: cannot mark 2 clicks as recorded (Not a directory): still listed there,"
        " but not recorded twice"
    ]
    assert Spool(tmp_path / "digest.db.clicks").done(["k1"]) is True  # (no file: nothing waits)


def test_lines_that_are_no_json_of_utf_8_are_skipped_and_the_others_kept(tmp_path: Path) -> None:
    """An empty line, one in Latin-1, a crash's hole of NULs, a record that is no object: each
    costs itself alone (records of the wrong shapes are clicks.py's to drop, with a warning)."""
    spool = Spool(tmp_path / "digest.db.clicks")
    spool.keep(click("k1"))
    with spool.path.open("ab") as file:
        file.write(b"\n\n" + '{"key": "k2", "at": "café"}'.encode("latin-1") + b"\n")
        file.write(b"\x00" * 512 + b"\n[1, 2]\n" + "\ufeff".encode() + b"\r\n")
    spool.keep(click("k3"))
    assert [r["key"] for r in spool.load()] == ["k1", "k3"]
    spool.done(["k1", "k3"])
    assert spool.load() == [] and spool.path.read_bytes() == b""


def test_a_line_nested_past_jsons_depth_is_skipped_and_the_others_kept(tmp_path: Path) -> None:
    """A damaged line of 100,000 "[" had raised RecursionError: every run ended in a traceback."""
    path = tmp_path / "digest.db.clicks"
    good = json.dumps({"key": "k1", "at": "2026-12-01T08:00:00+00:00", "votes": [], "pauses": []})
    path.write_text("[" * 100_000 + "\n" + good + "\n")
    assert [r["key"] for r in Spool(path).load()] == ["k1"]

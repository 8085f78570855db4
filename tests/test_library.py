"""A subscriber's library: liked papers from JSONL or CSV, read once, errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from digest import library
from digest.models import ChannelConfig, InputError, Profile, Subscriber


def liked(tmp_path: Path, rows: list[object], name: str = "lib.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n")
    return path


ROW = {
    "id": "2501.00001v3",
    "title": "Private federated learning",
    "abstract": "DP for FL.",
    "authors": ["Ada Lovelace"],
    "categories": ["cs.LG"],
    "published": "2025-01-02",
    "url": "",
}


def test_a_jsonl_library_becomes_the_profiles_papers(tmp_path: Path) -> None:
    path = liked(tmp_path, [ROW])
    (paper,) = library.load(str(path))
    assert (paper.id, paper.title, paper.authors) == ("2501.00001", ROW["title"], ("Ada Lovelace",))


def test_subscribers_sharing_a_library_share_one_read(tmp_path: Path) -> None:
    path = str(liked(tmp_path, [ROW]))
    channel = (ChannelConfig("file", "file"),)
    subs = [Subscriber(n, Profile(interests="x"), channel, library_path=path) for n in "ab"]
    subs.append(Subscriber("c", Profile(interests="x"), channel))
    a, b, c = library.with_libraries(subs)
    assert a.profile.library == b.profile.library and a.profile.library[0].id == "2501.00001"
    assert a.profile.library is b.profile.library
    assert c.profile.library == ()


def test_a_bad_record_is_skipped_with_a_warning(tmp_path: Path, caplog) -> None:
    path = liked(tmp_path, [ROW, "{not json"])
    assert len(library.load(str(path))) == 1
    assert f"{path}:2" in caplog.text


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.jsonl", None, "library file not found"),
        ("lib.txt", "hello", "unknown library format"),
        ("empty.jsonl", "", "library holds no papers"),
    ],
)
def test_unusable_libraries_are_input_errors(tmp_path: Path, name, content, message) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    with pytest.raises(InputError, match=message) as info:
        library.load(str(path))
    assert str(info.value).startswith(str(path))

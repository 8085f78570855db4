"""End to end: `digest feedback SUBSCRIBER PAPER_ID up|down` records a rating in the state
database, and the next `digest rank` and the next digest follow it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from digest.cli import main

MONDAY = "2026-11-30T09:00:00+00:00"
TUESDAY = "2026-12-01T09:00:00+00:00"

# Two topics a "deep learning" reader could want; the ratings decide which one comes first.
GRAPHS = [
    (
        "g1",
        "Graph neural networks for molecule property prediction",
        "We train graph neural networks on molecular graphs to predict properties of molecules.",
    ),
    (
        "g2",
        "Message passing graph networks on molecular graphs",
        "A message passing graph neural network learns molecule properties from molecular graphs.",
    ),
    (
        "g3",
        "Equivariant graph networks for molecules",
        "Equivariant graph neural networks predict molecule energies from molecular graphs.",
    ),
]
IMAGES = [
    (
        "d1",
        "Diffusion models for image generation",
        "Deep diffusion models generate images by denoising; we study image generation quality.",
    ),
    (
        "d2",
        "Latent diffusion for fast image synthesis",
        "Latent diffusion models synthesize images quickly; deep image generation at scale.",
    ),
    (
        "d3",
        "Guided diffusion for text to image generation",
        "Classifier-free guided diffusion models generate images from text prompts.",
    ),
]


def papers_file(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    lines = [
        json.dumps({"id": i, "title": t, "abstract": a, "authors": [], "categories": []})
        for i, t, a in rows
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DIGEST_STATE", raising=False)
    monkeypatch.delenv("DIGEST_CONFIG", raising=False)
    (tmp_path / "feed").mkdir()
    papers_file(tmp_path / "feed" / "monday.jsonl", GRAPHS[:2] + IMAGES[:2])
    (tmp_path / "digest.toml").write_text(
        '[state]\npath = "state.db"\n\n'
        '[[sources]]\nkind = "files"\npath = "feed"\n\n'
        '[[subscribers]]\nname = "ana"\n'
        'interests = "deep learning: graph neural networks, diffusion models, molecules, images"\n'
        'schedule = "0 8 * * *"\ntimezone = "UTC"\ntop_k = 2\nmin_score = 0.0\n\n'
        '[[subscribers.channels]]\nkind = "file"\ndir = "out"\n',
        encoding="utf-8",
    )
    return tmp_path


def digest(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def ranked(capsys: pytest.CaptureFixture[str], papers: Path) -> dict[str, float]:
    """Paper id -> score for ana, best first."""
    code, out, err = digest(
        capsys, "rank", "--config", "digest.toml", "--papers", str(papers), "--top", "10"
    )
    assert code == 0, err
    return {item["id"]: item["score"] for item in json.loads(out)["ana"]}


def test_a_rating_is_stored_and_the_latest_one_counts(project: Path, capsys) -> None:
    assert digest(capsys, "run", "--config", "digest.toml", "--now", MONDAY)[0] == 0
    code, out, err = digest(capsys, "feedback", "--config", "digest.toml", "ana", "g1", "up")
    assert code == 0, err
    assert "ana: rated g1 up" in out
    assert digest(capsys, "feedback", "--config", "digest.toml", "ana", "g1", "down")[0] == 0
    with sqlite3.connect(project / "state.db") as db:
        rows = db.execute("SELECT subscriber, paper_id, rating FROM ratings").fetchall()
    assert rows == [("ana", "g1", -1)]


def test_down_sinks_the_topic_and_up_lifts_it_in_digest_rank(project: Path, capsys) -> None:
    assert digest(capsys, "run", "--config", "digest.toml", "--now", MONDAY)[0] == 0
    tuesday = papers_file(project / "tuesday.jsonl", GRAPHS + IMAGES)
    before = ranked(capsys, tuesday)
    assert len(before) == 6 and list(before)[0] == "g1"

    assert digest(capsys, "feedback", "--config", "digest.toml", "ana", "g1", "down")[0] == 0
    down = ranked(capsys, tuesday)
    assert "g1" not in down  # a paper rated down is never offered again
    # The topic sank below the other one's papers (the order shown also weighs latent
    # closeness); one down lowers the words it shares with the interests text, and gives none
    # a weight below zero (Rocchio's clipping), so a graph paper may still lead.
    assert down["g2"] < min(down[d] for d in ("d1", "d2"))
    assert all(down[g] < 0.7 * before[g] for g in ("g2", "g3"))  # the topic sank...
    assert all(down[d] > before[d] for d in ("d1", "d2", "d3"))  # ...the rest rose (renormed)

    assert digest(capsys, "feedback", "--config", "digest.toml", "ana", "g1", "up")[0] == 0
    up = ranked(capsys, tuesday)
    assert "g1" not in up  # a liked paper is in the library: not offered again either
    assert sorted(sorted(up, key=up.__getitem__, reverse=True)[:2]) == ["g2", "g3"]
    assert all(up[g] > before[g] for g in ("g2", "g3"))


def test_the_next_digest_follows_the_rating_and_says_why(project: Path, capsys) -> None:
    assert digest(capsys, "run", "--config", "digest.toml", "--now", MONDAY)[0] == 0
    assert digest(capsys, "feedback", "--config", "digest.toml", "ana", "d1", "up")[0] == 0
    papers_file(project / "feed" / "tuesday.jsonl", [GRAPHS[2], IMAGES[2]])
    code, out, err = digest(capsys, "run", "--config", "digest.toml", "--now", TUESDAY)
    assert code == 0, err
    text = (project / "out" / "2026-12-01" / "ana.eml").read_text(encoding="utf-8")
    first = text.index("Guided diffusion for text to image generation")
    assert first < text.index("Equivariant graph networks for molecules")
    assert "closest to: Diffusion models for image generation" in text


def test_unknown_subscriber_paper_or_state_is_a_one_line_error(project: Path, capsys) -> None:
    code, _, err = digest(capsys, "feedback", "--config", "digest.toml", "ana", "g1", "up")
    assert code == 2 and "no state database yet" in err
    assert digest(capsys, "run", "--config", "digest.toml", "--now", MONDAY)[0] == 0
    code, _, err = digest(capsys, "feedback", "--config", "digest.toml", "bob", "g1", "up")
    assert code == 2 and "no subscriber named 'bob'" in err and "known: ana" in err
    code, _, err = digest(capsys, "feedback", "--config", "digest.toml", "ana", "nope", "up")
    assert code == 2 and "nope: no such paper" in err
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main(["feedback", "--config", "digest.toml", "ana", "g1", "sideways"])


def test_a_paper_is_found_by_any_key_the_store_knows_it_by(project: Path, capsys) -> None:
    # One paper read twice, under its arXiv id and its DOI: the store keeps it as one.
    title = "Graph neural networks for molecule property prediction at scale"
    text = "We train graph neural networks on molecules and predict their properties."
    rows = [("2601.10043", title, text), ("10.1000/dup.43", title, text)]
    papers_file(project / "feed" / "twice.jsonl", rows)
    assert digest(capsys, "run", "--config", "digest.toml", "--now", MONDAY)[0] == 0
    code, out, _ = digest(
        capsys, "feedback", "--config", "digest.toml", "ana", "10.1000/dup.43", "up"
    )
    assert code == 0 and "rated 2601.10043 up" in out
    code, _, err = digest(capsys, "feedback", "--config", "digest.toml", "ana", " ", "up")
    assert code == 2 and err == "digest: feedback: the paper id is empty\n"


def test_rank_never_creates_a_state_database(project: Path, capsys) -> None:
    ranked(capsys, papers_file(project / "some.jsonl", GRAPHS))
    assert not (project / "state.db").exists()

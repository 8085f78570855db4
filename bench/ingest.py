"""Ingest memory for bench/scale.py --ingest N: `digest run` on one N-line JSONL file, before
(the code of a git ref) and now, with the peak memory of the whole process tree sampled from
/proc (a container's limit counts the tokenizer's helper process with its parent).

    .venv/bin/python -m bench.scale --ingest 1000000 --out bench/results/ingest
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import tempfile
import time
from pathlib import Path

from bench import corpus
from bench.scale import BIN, ROOT, perturbed, write_config


def tree_memory(root: int) -> tuple[int, int]:
    """(RSS, PSS) in kB of a process and all its descendants now, from /proc. A container's limit
    counts the tree together (the tokenizer's helper, say); the RSS sum counts the pages a fork
    shares with its parent twice, the PSS sum shares them out (what the container is charged)."""
    rss = pss = 0
    todo = [root]
    while todo:
        pid = todo.pop()
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
        except OSError:
            continue  # gone meanwhile
        for line in rollup.splitlines():
            name, _, value = line.partition(":")
            if name in ("Rss", "Pss"):
                kb = int(value.split()[0])
                rss, pss = (rss + kb, pss) if name == "Rss" else (rss, pss + kb)
    return rss, pss


def measure_tree(
    command: list[str], tree: Path = ROOT, every: float = 0.1
) -> tuple[float, float, float]:
    """(wall seconds, peak RSS and peak PSS in MB of the whole process tree, sampled) of one
    process, run on the package in `tree`."""
    started = time.monotonic()
    # A file, not a pipe: a chatty run must not block on a full pipe while we sample.
    with (
        tempfile.TemporaryFile() as log,
        subprocess.Popen(
            ["nice", *command],
            stdout=subprocess.DEVNULL,
            stderr=log,
            cwd=tree,
            env={**os.environ, "PYTHONPATH": str(tree)},
        ) as process,
    ):
        peak_rss = peak_pss = 0
        while process.poll() is None:
            rss, pss = tree_memory(process.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            time.sleep(every)
        log.seek(0)
        errors = log.read().decode(errors="replace")
    if process.returncode not in (0, 1):
        raise SystemExit(f"{command[:3]} failed ({process.returncode}): {errors[-2000:]}")
    return round(time.monotonic() - started, 1), peak_rss / 1024, peak_pss / 1024


def write_distinct(path: Path, n: int, seed: int = 5) -> None:
    """N perturbed copies of the corpus, each under a new arXiv-style id (2601.00000 on): two
    copies that happen to keep one title are still two papers (their arXiv ids differ)."""
    rng = random.Random(seed)
    base = list(corpus.papers())
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            row = perturbed(rng, base[i % len(base)], "")
            row["id"] = f"{2601 + i // 100_000}.{i % 100_000:05d}"
            out.write(json.dumps(row) + "\n")


def run(work: Path, n: int, m: int, baseline: str, add) -> None:  # type: ignore[no-untyped-def]
    """`digest run` on one N-line JSONL file (perturbed copies of the corpus, new ids) with the
    code of `baseline` (a git ref; "none" skips it) and with this tree's: a first run on an empty
    state, then the same file again (nothing new). M subscribers (0: none, so the runs only
    ingest). The whole tree's peak RSS (and PSS) of each run."""
    folder = work / f"ingest-{n}"
    folder.mkdir(exist_ok=True)
    papers = folder / "papers.jsonl"
    if not papers.exists():
        write_distinct(papers, n)
    if m:
        config = write_config(work, papers, m)
    else:
        config = folder / "config-0.toml"
        config.write_text(f'[[sources]]\nkind = "files"\npath = "{papers}"\n', encoding="utf-8")
    trees = [("now", ROOT)]
    if baseline != "none":
        before = work / f"code-{baseline}"
        if not before.exists():
            before.mkdir()
            archive = subprocess.run(
                ["git", "archive", baseline, "digest", "templates"],
                cwd=ROOT,
                capture_output=True,
                check=True,
            ).stdout
            subprocess.run(["tar", "-x", "-C", str(before)], input=archive, check=True)
        trees.insert(0, (f"before ({baseline})", before))
    peaks: dict[str, list[str]] = {}
    for label, tree in trees:
        state = folder / "state.db"
        for leftover in folder.glob("state.db*"):
            leftover.unlink()
        command = [str(BIN / "python"), "-m", "digest", "run", "--config", str(config)]
        command += ["--state", str(state), "--now"]
        for run, now in (
            ("first run", "2026-01-05T09:00:00+00:00"),
            ("same file again", "2026-01-06T09:00:00+00:00"),
        ):
            wall, rss, pss = measure_tree([*command, now], tree)
            method = f"ingest, {m} subscribers, {run}: {label}"
            add(n, m, method, wall, rss, f"tree RSS sum; PSS {pss:.0f} MB")
            peaks.setdefault(run, []).append(f"{label} {rss:.0f} MB ({wall:.0f} s)")
    for run, figures in peaks.items():
        print(f"{n} lines, {m} subscribers, {run}: peak RSS " + ", ".join(figures))

"""Speed and memory: whole `digest rank` and `digest run` processes on N papers x M subscribers
from the shared corpus (repeated with light perturbation past its 45k papers), beside the lower
bound, a per-subscriber loop and arxiv-sanity-lite's per-profile SVM (bench/baselines.py). Every
figure is one subprocess: wall seconds from /usr/bin/time, peak RSS of its whole process tree.

    nice .venv/bin/python -m bench.scale            # or: make bench-scale (about an hour)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import corpus
from bench.interests import INTERESTS

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"
BIN = Path(sys.executable).parent
TOP = 10
LIKED = 5  # library papers per subscriber, as in the relevance benchmark's liked-papers task
LOOP_SAMPLE, SVM_SAMPLE = 40, 4  # subscribers timed; the rest is extrapolated


def first_run(digest: str, config: Path, work: Path) -> list[str]:
    """The `digest run` command of a first run: any state left in `work` is removed first."""
    for leftover in work.glob("state.db*"):
        leftover.unlink()
    state = work / "state.db"
    return [
        digest,
        "run",
        "--config",
        str(config),
        "--state",
        str(state),
        "--now",
        "2026-01-05T09:00:00+00:00",
    ]


def record(paper: object, **change: object) -> dict:
    p = paper
    out = {
        "id": p.id,  # type: ignore[attr-defined]
        "title": p.title,  # type: ignore[attr-defined]
        "abstract": p.abstract,  # type: ignore[attr-defined]
        "authors": list(p.authors),  # type: ignore[attr-defined]
        "categories": list(p.categories),  # type: ignore[attr-defined]
        "published": p.published.isoformat() if p.published else None,  # type: ignore[attr-defined]
        "url": p.url,  # type: ignore[attr-defined]
    }
    out.update(change)
    return out


def perturbed(rng: random.Random, paper: object, tag: str) -> dict:
    """A copy under a new id, without the original's URL, with one title word and about one
    abstract word in twenty dropped: a different paper to the store's identity rules."""
    words = [w for w in paper.abstract.split() if rng.random() > 0.05]  # type: ignore[attr-defined]
    title = paper.title.split()  # type: ignore[attr-defined]
    if len(title) > 2:
        del title[rng.randrange(len(title))]
    else:
        title.append("revisited")
    return record(
        paper,
        id=f"{paper.id}{tag}",  # type: ignore[attr-defined]
        title=" ".join(title),
        abstract=" ".join(words),
        url="",
    )


def write_papers(path: Path, n: int, seed: int = 0, tag: str = "r") -> None:
    rng = random.Random(seed)
    base = list(corpus.papers())
    with path.open("w", encoding="utf-8") as out:
        for i in range(n):
            paper = base[i % len(base)]
            rounds = i // len(base)
            row = (
                record(paper)
                if rounds == 0 and tag == "r"
                else perturbed(rng, paper, f"{tag}{rounds}")
            )
            out.write(json.dumps(row) + "\n")


def write_config(work: Path, papers: Path, m: int, seed: int = 1) -> Path:
    """M subscribers: a hand-written interests text, two keywords from a paper title, and a
    library file of LIKED papers (perturbed copies: not among the papers ranked)."""
    rng = random.Random(seed)
    base = list(corpus.papers())
    libraries = work / f"libraries-{m}"
    libraries.mkdir(exist_ok=True)
    texts = list(INTERESTS.values())
    lines = [
        f'[state]\npath = "{work}/state.db"\n',
        f'[[sources]]\nkind = "files"\npath = "{papers}"\n',
        '[defaults]\nschedule = "0 8 * * *"\ntimezone = "UTC"\ntop_k = 10\n',
        f'[[defaults.channels]]\nkind = "file"\ndir = "{work}/out"\n',
    ]
    for i in range(m):
        lib = libraries / f"s{i}.jsonl"
        # Drawn whether or not the file exists: the draws that follow stay the same either way.
        rows = [perturbed(rng, p, f"lib{i}-") for p in rng.sample(base, LIKED)]
        if not lib.exists():
            lib.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        title = [w for w in rng.choice(base).title.split() if len(w) > 5][:2]
        interests, keywords = json.dumps(rng.choice(texts)), json.dumps(title)
        lines.append(  # "$$" is a literal "$" in a config (which substitutes ${VAR})
            f'[[subscribers]]\nname = "s{i}"\ninterests = {interests.replace("$", "$$")}\n'
            f'keywords = {keywords.replace("$", "$$")}\nlibrary = "{lib}"\n'
        )
    path = work / f"config-{m}.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def measure(command: list[str], stdout: Path | None = None) -> tuple[float, float, str]:
    """(wall seconds, peak RSS in MB, stdout) of one process, niced. The peak is the whole
    process tree's (a container's limit counts the tokenizer's helper with its parent): the larger
    of the tree's RSS sum sampled every 0.05 s from /proc and /usr/bin/time's single-process peak
    (which a sample can miss)."""
    from bench.ingest import tree_memory  # which imports this module

    with (
        stdout.open("w") if stdout else tempfile.TemporaryFile("w+") as out,
        tempfile.TemporaryFile("w+") as err,
        subprocess.Popen(
            ["nice", "/usr/bin/time", "-f", "%e %M", *command],
            stdout=out,
            stderr=err,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        ) as process,
    ):
        tree = 0
        while process.poll() is None:
            tree = max(tree, tree_memory(process.pid)[0])
            time.sleep(0.05)
        err.seek(0)
        errors = err.read()
        text = ""
        if not stdout:
            out.seek(0)
            text = out.read()
    last = errors.strip().splitlines()[-1]
    # `digest run` exits 1 when a delivery is pending; a crash exits 1 too, with a traceback.
    if process.returncode not in (0, 1) or "Traceback (most recent call last)" in errors:
        raise SystemExit(f"{command[:3]} failed ({process.returncode}): {errors[-2000:]}")
    wall, rss = last.split()
    return float(wall), max(int(rss), tree) / 1024, text


def compiled() -> None:
    """Byte-compile the venv and the project first: `make` installs with --no-compile, and with
    PYTHONDONTWRITEBYTECODE set (as in some shells and images) every measured process would
    compile scipy and scikit-learn again, seconds that `digest rank` pays and the lower bound
    (which imports less) does not."""
    import compileall
    import sysconfig

    for folder in (sysconfig.get_paths()["purelib"], str(Path(__file__).resolve().parent.parent)):
        compileall.compile_dir(folder, quiet=2, workers=2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--papers", type=int, nargs="+", default=[10_000, 50_000, 200_000])
    parser.add_argument("--subscribers", type=int, nargs="+", default=[100, 1_000, 10_000])
    parser.add_argument("--methods", default="rank,run,lower,loop,svm")
    parser.add_argument("--daily", action="store_true", help="also the 200k + 1k daily run")
    parser.add_argument(
        "--ingest",
        type=int,
        metavar="N",
        help="only ingest runs on one N-line JSONL file (e.g. 1000000; bench/ingest.py)",
    )
    parser.add_argument("--ingest-subscribers", type=int, default=0, metavar="M")
    parser.add_argument(
        "--baseline", default="8225264", help="--ingest: git ref of the code before"
    )
    parser.add_argument("--work", default="/tmp/digest-scale")
    parser.add_argument("--out", default=str(RESULTS / "scale"))
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="start OUT over; by default a measured row replaces only its own row of OUT.json",
    )
    args = parser.parse_args(argv)
    corpus.use(args.data)
    compiled()
    methods = args.methods.split(",")
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    out = Path(args.out)
    # A partial rerun rewrote the whole table with its few rows twice (commits 4384fa9, 5abf903):
    # a measured row now replaces its own row only, unless --fresh says to start over.
    known = out.with_suffix(".json")
    rows = [] if args.fresh or not known.exists() else json.loads(known.read_text())
    when = measured()

    def add(n: int, m: int, method: str, wall: float, rss: float, note: str = "") -> None:
        row = {
            "papers": n,
            "subscribers": m,
            "method": method,
            "seconds": wall,
            "peak_rss_mb": rss,
            "note": note,
            "measured": when,
        }
        rows[:] = merged(rows, row)
        print(f"{n:>7} {m:>6} {method:32} {wall:8.1f} s {rss:7.0f} MB {note}", file=sys.stderr)
        save(rows, out, HEADINGS["ingest"] if args.ingest else "")

    if args.ingest:
        from bench import ingest  # which imports this module

        ingest.run(work, args.ingest, args.ingest_subscribers, args.baseline, add)
        return 0
    digest = str(BIN / "digest")
    python = str(BIN / "python")
    for n in args.papers:
        folder = work / f"papers-{n}"
        folder.mkdir(exist_ok=True)
        papers = folder / "papers.jsonl"
        if not papers.exists():
            write_papers(papers, n)
        sampled = False
        for m in args.subscribers:
            config = write_config(work, papers, m)
            rank = [
                digest,
                "rank",
                "--config",
                str(config),
                "--papers",
                str(papers),
                "--top",
                str(TOP),
                "--state",
                str(work / "none.db"),
            ]
            if "rank" in methods:
                add(n, m, "digest rank", *measure(rank, work / "rank.json")[:2])
            if "lower" in methods:
                lb = measure(
                    [python, "-m", "bench.baselines", "lower", str(config), str(papers), str(TOP)]
                )
                add(n, m, "lower bound", *lb[:2])
            if "run" in methods:
                run = first_run(digest, config, work)
                add(n, m, "digest run (first, empty state)", *measure(run)[:2])
            for kind, sample in (("loop", LOOP_SAMPLE), ("svm", SVM_SAMPLE)):
                if kind not in methods or sampled:
                    continue
                wall, rss, text = measure(
                    [
                        python,
                        "-m",
                        "bench.baselines",
                        kind,
                        str(config),
                        str(papers),
                        str(TOP),
                        str(sample),
                    ]
                )
                got = json.loads(text.strip().splitlines()[-1])
                per = got["seconds"] / max(1, got["sample"])
                label = "per-subscriber loop" if kind == "loop" else "arxiv-sanity-lite SVM"
                for each in args.subscribers:
                    note = (
                        f"timed {got['sample']} subscribers, extrapolated"
                        if each > got["sample"]
                        else ""
                    )
                    add(n, each, label, wall - got["seconds"] + each * per, rss, note)
            sampled = True
        if args.daily and n == max(args.papers):
            daily(work, papers, n, min(args.subscribers, key=lambda s: abs(s - 1000)), add)
    print(save(rows, out))
    return 0


def daily(work: Path, papers: Path, n: int, m: int, add) -> None:  # type: ignore[no-untyped-def]
    """A store of n papers, then a day with 1k new ones: the stored space is reused (no refit);
    then the same day again with the stored space deleted, to show what a refit costs."""
    digest = str(BIN / "digest")
    config = write_config(work, papers, m)
    first = first_run(digest, config, work)
    state = work / "state.db"
    add(n, m, "daily: first run (fits the space)", *measure(first)[:2])
    new = work / "day2"
    new.mkdir(exist_ok=True)
    write_papers(new / "papers.jsonl", 1000, seed=9, tag="d")
    text = config.read_text(encoding="utf-8").replace(f'path = "{papers}"', f'path = "{new}"')
    day2 = work / "config-day2.toml"
    day2.write_text(text, encoding="utf-8")
    backup = work / "state-day1.db"
    with sqlite3.connect(state) as db, sqlite3.connect(backup) as copy:
        db.backup(copy)
    second = [
        digest,
        "run",
        "--config",
        str(day2),
        "--state",
        str(state),
        "--now",
        "2026-01-06T09:00:00+00:00",
    ]
    add(n + 1000, m, "daily: +1k papers, stored space", *measure(second)[:2])
    with sqlite3.connect(backup) as copy, sqlite3.connect(state) as db:
        copy.backup(db)
        db.execute("DELETE FROM spaces")
    add(n + 1000, m, "daily: +1k papers, forced refit", *measure(second)[:2])


HEADINGS = {
    "ingest": (
        "# Ingest memory\n\nCommand: `.venv/bin/python -m bench.scale --ingest 1000000` (and"
        " `--ingest-subscribers 100 --baseline none` for the ranked rows) on this machine"
        f" ({os.cpu_count()} cores, shared). One `digest run` per row on one JSONL file of N"
        " perturbed corpus papers with new ids (bench/ingest.py); peak RSS is the sum over the"
        " process tree, sampled every 0.1 s (PSS in the note: shared pages counted once)."
    )
}


def measured() -> str:
    """Today's date and the commit measured (with "+" when the tree has changes), for each row."""
    git = ["git", "-C", str(ROOT)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    commit = head.stdout.strip() + ("+" if dirty.stdout.strip() else "")
    return f"{time.strftime('%Y-%m-%d', time.gmtime())} {commit}".strip()


def merged(rows: list[dict], row: dict) -> list[dict]:
    """The table with `row` in place of any earlier row of its size and method, else added."""
    key = (row["papers"], row["subscribers"], row["method"])
    return [r for r in rows if (r["papers"], r["subscribers"], r["method"]) != key] + [row]


def save(rows: list[dict], out: Path, heading: str = "") -> str:
    lower = {(r["papers"], r["subscribers"]): r for r in rows if r["method"] == "lower bound"}
    lines = [
        "| papers | subscribers | method | wall s | peak RSS MB | wall / lower | RSS / lower "
        "| note | measured |",
        "|" + " --- |" * 9,
    ]
    daily = [r for r in rows if r["method"].startswith("daily")]
    rows = sorted(
        (r for r in rows if r not in daily), key=lambda r: (r["papers"], r["subscribers"])
    )
    for r in rows + daily:
        base = None if r in daily else lower.get((r["papers"], r["subscribers"]))
        ratio = (
            (
                f"{r['seconds'] / base['seconds']:.2f}",
                f"{r['peak_rss_mb'] / base['peak_rss_mb']:.2f}",
            )
            if base
            else ("", "")
        )
        lines.append(
            f"| {r['papers']} | {r['subscribers']} | {r['method']} | {r['seconds']:.1f} | "
            f"{r['peak_rss_mb']:.0f} | {ratio[0]} | {ratio[1]} | {r['note']} | "
            f"{r.get('measured', 'earlier')} |"
        )
    table = "\n".join(lines)
    out.with_suffix(".json").write_text(json.dumps(rows + daily, indent=1) + "\n", encoding="utf-8")
    heading = heading or (
        "# Speed and memory\n\nCommand: `.venv/bin/python -m bench.scale --daily` (`make "
        f"bench-scale`) on this machine ({os.cpu_count()} cores). Each row is one process, and "
        "says when and on which commit it was measured (a rerun of some sizes replaces only "
        "their rows); extrapolated rows say so. Peak RSS is the whole process tree's (the "
        "tokenizer's helper process above 8k texts included; the loop and SVM rows, which are "
        "older, count the largest process only). Compare ratios within one day, not seconds "
        "across days. Rows are sorted by size; the daily rows come last."
    )
    md = out.with_suffix(".md")
    # What was written under the table by hand (what the rows say) stays under the new one.
    earlier = md.read_text(encoding="utf-8") if md.exists() else ""
    notes = earlier[earlier.index(NOTES) :] if NOTES in earlier else ""
    md.write_text(heading + "\n\n" + table + "\n" + ("\n" + notes if notes else ""), "utf-8")
    return table


NOTES = "What the rows say:"


if __name__ == "__main__":
    raise SystemExit(main())

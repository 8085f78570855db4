"""BibTeX library speed: a generated 3,725-entry Better BibTeX export (abstracts, LaTeX accents
and math, file/keywords/urldate fields) read the old way (bibtexparser's LaTeX middleware on
every field) and the new way, first parse and cached. Run: python -m bench.library
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from pathlib import Path

from digest import library

ENTRIES = 3725
_WORDS = (
    "learning private federated graph neural network diffusion model optimal transport robust "
    "inference sparse attention kernel bayesian causal estimation convex bound regret policy "
    "gradient representation language vision benchmark dataset protein molecule quantum"
).split()
_SURNAMES = [
    "Lovelace",
    "Turing",
    "Hopper",
    "Erd{\\H{o}}s",
    'M{\\"u}ller',
    "Garc{\\'\\i}a",
    "Nov{\\'a}k",
    "Reagle, Jr.",
    "van der Berg",
    "{\\O}stergaard",
    'Schr{\\"o}dinger',
]
_GIVEN = ["Ada", "Alan", "Grace", "Paul", 'J{\\"u}rgen', "Jos{\\'e}", "Joseph M.", "Li", "A. B."]
_MATH = [
    "$\\mathcal{O}(n \\log n)$",
    "H$_2$O",
    "2.1$\\mu$W",
    "$\\ell_1$",
    "$k$-NN",
    "\\emph{in situ}",
    "Radix-2\\(^\\mbox{k}\\)",
    "{GPU}s",
    "\\$5 million",
    "{x : x > 0}",
]


def entry(rng: random.Random, number: int) -> str:
    """One Better BibTeX style @article/@inproceedings with the fields Zotero exports."""

    def words(n: int) -> str:
        return " ".join(rng.choice(_WORDS) for _ in range(n))

    authors = " and ".join(
        f"{rng.choice(_SURNAMES)}, {rng.choice(_GIVEN)}" for _ in range(rng.randint(1, 8))
    )
    abstract = ". ".join(
        f"{words(12).capitalize()} {rng.choice(_MATH)} {words(8)}" for _ in range(rng.randint(4, 9))
    )
    kind = rng.choice(["article", "inproceedings", "misc"])
    key = f"author{number}{words(1)}{2000 + number % 25}"
    fields = [
        f"title = {{{{{words(2).title()}}}: {words(6)} with {rng.choice(_MATH)}}}",
        f"author = {{{authors}}}",
        f"year = {{{2000 + number % 25}}}",
        f"abstract = {{{abstract}.}}",
        f"keywords = {{{words(1)}, {words(1)}, Computer Science - Machine Learning}}",
        f"urldate = {{2024-0{1 + number % 9}-1{number % 10}}}",
        f"file = {{Full Text PDF:/home/u/Zotero/storage/{number:08X}/p.pdf:application/pdf}}",
        "langid = {english}",
        f"doi = {{10.1000/bench.{number}}}",
    ]
    if kind == "misc":
        fields += [f"eprint = {{{2300 + number % 99:04d}.{number:05d}}}", "archiveprefix = {arXiv}"]
    else:
        fields.append(f"journal = {{Journal of {words(2).title()}}}")
    return f"@{kind}{{{key},\n  " + ",\n  ".join(fields) + "\n}\n"


def write(path: Path, count: int = ENTRIES, seed: int = 13) -> Path:
    rng = random.Random(seed)
    path.write_text("\n".join(entry(rng, n) for n in range(count)), encoding="utf-8")
    return path


def old_read(path: Path) -> int:
    """How the library was read before: bibtexparser's LaTeX middleware decoding every field."""
    import bibtexparser
    from bibtexparser.middlewares import LatexDecodingMiddleware

    text = path.read_text(encoding="utf-8")
    parsed = bibtexparser.parse_string(text, append_middleware=[LatexDecodingMiddleware()])
    return len(parsed.entries)


def cpu(action) -> tuple[float, object]:  # type: ignore[no-untyped-def]
    started = time.process_time()
    result = action()
    return time.process_time() - started, result


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        os.environ["XDG_CACHE_HOME"] = str(Path(folder) / "cache")
        path = write(Path(folder) / "library.bib")
        size = path.stat().st_size / 2**20
        print(f"{ENTRIES} entries, {size:.1f} MiB of Better BibTeX (CPU seconds)")
        first, papers = cpu(lambda: library.load(str(path)))
        cached, again = cpu(lambda: library.load(str(path)))
        assert again == papers
        print(f"  first parse          {first:7.2f} s  ({len(papers)} papers)")  # type: ignore[arg-type]
        print(f"  unchanged (cached)   {cached:7.2f} s")
        if "--no-old" not in sys.argv:
            old, count = cpu(lambda: old_read(path))
            print(f"  old path (middleware){old:7.2f} s  ({count} entries)")


if __name__ == "__main__":
    main()

"""Prints ranking/cases.py's SPLIT: the words in mixed case whose case is their meaning, as the
corpus papers announced before --before (the built-in background's months, none of the report
split's) use them: the papers that write the spelling and those that write its letters in another
case are of other categories (GaN's materials papers, GAN's vision ones), where LLaMA and Llama,
AutoEncoder and autoencoder, are of the same ones.

    .venv/bin/python -m bench.cases [--data PATH] [--before 2025-07]
"""

from __future__ import annotations

import argparse
import math
import re
from collections import Counter, defaultdict

from bench import corpus
from digest.ranking.cases import name_of, spelled

LEAST = 3  # papers of the spelling, and of its other cases, to tell their categories apart
# Categories' cosine under which the two are other things (GaN 0.02, MoS 0.09, pLMs 0.12; of one
# thing: vLLM 0.44, HotpotQA 0.49, kNN 0.29, PyPI 0.26 at these counts).
APART = 0.2
_WORD = re.compile(r"(?<![^\W\d_])[^\W\d_]+(?![^\W\d_])")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    corpus.add_argument(parser)
    parser.add_argument("--before", default="2025-07", help="first month left out (YYYY-MM)")
    args = parser.parse_args()
    corpus.use(args.data)
    found = split_words(p for p in corpus.papers() if corpus.month(p) < args.before)
    print("SPLIT = frozenset(")
    for word, cosine, mine, other in found:
        print(f"    # {word}: {mine} papers, {other} in other cases, categories {cosine:.2f}")
    print("    " + repr(tuple(w for w, *_ in found)))
    print(")")


def split_words(papers) -> list[tuple[str, float, int, int]]:  # type: ignore[no-untyped-def]
    """(spelling, categories' cosine, its papers, the other cases' papers), by spelling."""
    seen: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for paper in papers:
        category = corpus.primary(paper)
        for word in {name_of(w) for w in _WORD.findall(f"{paper.title} {paper.abstract}")}:
            seen[word.lower()][word][category] += 1
    out = []
    for spellings in seen.values():
        for word, mine in spellings.items():
            if not spelled(word):
                continue
            other: Counter[str] = Counter()
            for form, counts in spellings.items():
                if form != word:
                    other.update(counts)
            n, m = sum(mine.values()), sum(other.values())
            if n >= LEAST and m >= LEAST and (c := _cosine(mine, other)) < APART:
                out.append((word, c, n, m))
    return sorted(out)


def _cosine(a: Counter[str], b: Counter[str]) -> float:
    dot = sum(v * b[k] for k, v in a.items())
    return dot / math.sqrt(sum(v * v for v in a.values()) * sum(v * v for v in b.values()))


if __name__ == "__main__":
    main()

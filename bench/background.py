"""Builds digest/ranking/background.npz, the built-in background of ranking/background.py: the
space of every corpus paper announced before --before (default 2025-07, so that the report
split's months, 2025-07 to 2025-10, are never in it), its rows' sum (its part of a centroid) and
that space's latent basis, and its papers' frequent author names."""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

from bench import corpus
from digest.models import Paper
from digest.ranking import background, latent, profiles
from digest.ranking.features import Space, fit, paper_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    corpus.add_argument(parser)
    parser.add_argument("--before", default="2025-07", help="first month left out (YYYY-MM)")
    parser.add_argument("--out", default=str(background.FILE))
    args = parser.parse_args()
    corpus.use(args.data)
    papers = [p for p in corpus.papers() if corpus.month(p) and corpus.month(p) < args.before]
    start = time.perf_counter()
    blob, space, rows, basis = built(papers)
    with open(args.out, "wb") as out:
        out.write(blob)
    df = np.bincount(rows.indices, minlength=space.size)
    kept = int((df >= background.MIN_DF).sum())
    print(
        f"{args.out}: {len(papers)} papers before {args.before}, {kept} of {space.size} terms, "
        f"{len(basis.columns)} with a direction; {len(blob) / 1e6:.1f} MB in "
        f"{time.perf_counter() - start:.0f} s"
    )


def built(papers: Sequence[Paper]) -> tuple[bytes, Space, sp.csr_matrix, latent.Basis]:
    """A background file of these papers (and the space, rows and basis it was made of)."""
    space, rows = fit([paper_text(p) for p in papers])
    basis = latent.fit(rows)
    assert basis is not None
    named = profiles.frequent(profiles.name_counts(papers), len(papers))
    return (
        background.to_bytes(len(papers), list(space.names), rows, basis, named),
        space,
        rows,
        basis,
    )


if __name__ == "__main__":
    main()

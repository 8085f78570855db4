"""Ranking: every subscriber's best new papers, each with the words and liked paper behind it.

rank() is the stage's entry point (rank_pool(): a pool too large to hold); Space is the fitted
TF-IDF space a run may store and reuse. Imported on first use: the fit's tokenizer helper imports
tokens.py alone, without scikit-learn.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from digest.ranking.features import Space
    from digest.ranking.pool import LARGE_POOL, Extra, frequencies, rank_pool
    from digest.ranking.ranker import rank

__all__ = ["LARGE_POOL", "Extra", "Space", "frequencies", "rank", "rank_pool"]
_HOME = {"Space": "features", "rank": "ranker"} | dict.fromkeys(
    ("LARGE_POOL", "Extra", "frequencies", "rank_pool"), "pool"
)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"digest.ranking.{_HOME[name]}"), name)

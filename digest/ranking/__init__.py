"""Ranking: every subscriber's best new papers, each with the words and liked paper behind it.

rank() is the stage's entry point (rank_pool(): a pool too large to hold); Space is the fitted
TF-IDF space a run may store and reuse.
"""

from digest.ranking.features import Space
from digest.ranking.pool import LARGE_POOL, Extra, frequencies, rank_pool
from digest.ranking.ranker import rank

__all__ = ["LARGE_POOL", "Extra", "Space", "frequencies", "rank", "rank_pool"]

"""Ranking: every subscriber's best new papers, each with the words and liked paper behind it.

rank() is the stage's one entry point; Space is the fitted TF-IDF space a run may store and reuse.
"""

from digest.ranking.features import Space
from digest.ranking.ranker import rank

__all__ = ["Space", "rank"]

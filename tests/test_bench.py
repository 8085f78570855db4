"""The benchmarks' own wiring (bench/): what can break without a benchmark run noticing."""

from __future__ import annotations

import pytest

from bench import ideas


@pytest.mark.parametrize("table", ["VARIANTS", "RATED"])
def test_every_idea_patches_a_name_its_module_has(table):
    # patched() would raise mid-run, an hour in, for a name that moved to another module.
    for name, (_, patch) in getattr(ideas, table).items():
        for owner, attribute in patch:
            assert hasattr(owner, attribute), f"{name}: {owner.__name__}.{attribute}"


def test_a_variant_of_how_rows_are_made_fits_its_own_stored_space():
    from bench import rankers

    ranker = ideas.variant(ideas.phrases_weighed(2.0))
    seen = []

    def spy(pool, queries):
        seen.append(rankers._STORED)
        return []

    with ideas.patched({(rankers, "digest_ranker"): spy}):
        ranker([], [])
    assert seen and seen[0] is not rankers._STORED

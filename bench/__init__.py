"""Benchmarks, run on demand and never by `make test`: bench.relevance, bench.ideas,
bench.scale."""

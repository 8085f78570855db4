"""A subscriber's rules (exclude words, alert keywords) as patterns: a rule finds what the
analyzer reads as its words, and nothing the analyzer reads otherwise."""

from __future__ import annotations

from digest.ranking.profiles import exclude_pattern


def test_a_language_rule_finds_its_versions_and_no_pitch():
    """Pitches "C#4" and "F#5" are notes, no C#: an exclude of C# dropped music papers, an alert
    keyword C# sent them. "C#10", "C++17", "C++0x", "C++2a", "C#7.3" are the language."""
    pattern = exclude_pattern(["C#", "C++", "F#"])
    assert pattern is not None
    for text in ("the notes C#4 and F#5", "C4, D#4, F#5", "a chord of C#7", "C#4."):
        assert not pattern.search(text), text
    for text in ("C#10 records", "C++17", "C++0x", "C++2a modules", "C#7.3", "C# code", "F# 5"):
        assert pattern.search(text), text
    assert not pattern.search("C++x templates") and not pattern.search("C#m chord")

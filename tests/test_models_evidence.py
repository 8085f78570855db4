"""Two records of one title are two papers when they say so: two groups' author lists, or two
posts of one feed; never on less (one author, an organisation, items of two feeds)."""

from __future__ import annotations

from digest.models import Paper
from digest.models.evidence import own_id, two_papers

TITLE = "Machine learning for quantum materials"


def paper(*authors: str, text: str = "We study it.") -> Paper:
    return Paper("t:1", TITLE, text, authors=authors)


def test_two_author_lists_without_a_shared_name_are_two_papers() -> None:
    ours, theirs = paper("Alice Arxivson", "Bo Chen"), paper("Zoe Journalova", "Kenji Sato")
    assert two_papers(ours, (), theirs, ())
    assert not two_papers(ours, (), paper("B. Chen", "A. Arxivson"), ())  # initials: one name
    assert not two_papers(ours, (), paper("Müller, Jörg", "Chen, Bo"), ())
    assert not two_papers(ours, (), paper("Nature Physics"), ())  # a journal as its author
    assert not two_papers(ours, (), paper(), ())


def test_two_items_of_one_feed_with_their_own_ids_and_texts_are_two_papers() -> None:
    first, second = paper(text="Week 1: kagome."), paper(text="Week 2: moiré.")
    mine = ("guid:https://blog.example.org/?p=100001",)
    two = ("guid:https://blog.example.org/?p=100002",)
    assert two_papers(first, mine, second, two)
    assert not two_papers(first, mine, paper(text="week 1:  Kagome"), two)  # one text: one post
    assert not two_papers(first, mine, second, mine)  # one item, seen again
    assert not two_papers(first, mine, second, ("guid:https://mirror.example.net/i/99999",))
    assert not two_papers(first, mine, paper(text=""), two)  # no text: nothing to tell by
    opaque = ("guid:blog:a1b2c3d4e5f60718",), ("guid:blog:ffeeddccbbaa9988",)
    assert two_papers(first, opaque[0], second, opaque[1])
    assert not two_papers(first, opaque[0], second, ("guid:other:ffeeddccbbaa9988",))


def test_the_second_paper_of_a_title_is_known_by_its_item_id_else_by_title_and_text() -> None:
    assert own_id(paper(), ("t:x", "guid:https://b.example/?p=100002")) == (
        "guid:https://b.example/?p=100002"
    )
    made = own_id(paper(text="Week 2."), ("t:x",))
    assert made.startswith("t:") and made == own_id(paper(text="week 2"), ())
    assert made != own_id(paper(text="Week 3."), ())

"""Signed links: each token binds its kind, subscriber, paper, vote and expiry under [web].secret;
any changed byte, an expired token, another kind or a rotated secret fails the check, and an
expired token of the key is told from a damaged one."""

from __future__ import annotations

import base64
import string
from datetime import UTC, datetime

from digest.web.tokens import VOTE_DAYS, Signer, claimed, links_for

NOW = 1_764_493_200.0  # 2026-11-30T09:00Z
WEB = {"base_url": "https://digest.example.org", "secret": "s" * 32}


def test_a_token_round_trips_and_binds_every_field() -> None:
    signer = Signer("s" * 32)
    token = signer.sign("v", "ana", "2501.01234", "up", int(NOW) + 60)
    assert signer.check(token, "v", NOW) == ["ana", "2501.01234", "up"]
    assert signer.check(token, "u", NOW) is None  # another kind
    assert signer.check(token, "v", NOW + 61) is None  # expired
    assert Signer("t" * 32).check(token, "v", NOW) is None  # the secret was rotated


def test_every_changed_character_fails() -> None:
    signer = Signer("s" * 32)
    token = signer.sign("v", "ana", "g1", "down", 0)
    for i in range(len(token)):
        for other in "A_-.x":
            if token[i] != other:
                changed = token[:i] + other + token[i + 1 :]
                assert signer.check(changed, "v", NOW) is None, changed


def test_no_other_spelling_of_a_token_passes() -> None:
    # base64 leaves unused bits in a last character and knows "+/" beside "-_" and padding: a
    # lenient decoder took such a changed character for the same bytes.
    signer = Signer("s" * 32)
    token = signer.sign("v", "ana", "g1", "down", 0)
    alphabet = string.ascii_letters + string.digits + "-_+/="
    for i in range(len(token)):
        for other in alphabet:
            if token[i] != other:
                changed = token[:i] + other + token[i + 1 :]
                assert signer.check(changed, "v", NOW) is None, changed
    body, mac = token.split(".")
    for padded in (f"{token}=", f"{token}==", f"{body}=.{mac}"):
        assert signer.check(padded, "v", NOW) is None, padded


def test_links_carry_the_base_url_and_expire_after_the_vote_window() -> None:
    now = datetime.fromtimestamp(NOW, UTC)
    links = links_for(WEB, "ana", now)
    assert links is not None and links_for({}, "ana", now) is None
    up = links.vote("g1", "up")
    assert up.startswith("https://digest.example.org/r/")
    signer = Signer(WEB["secret"])
    token = up.rsplit("/", 1)[1]
    assert signer.check(token, "v", NOW + VOTE_DAYS * 86400 - 1) == ["ana", "g1", "up"]
    assert signer.check(token, "v", NOW + VOTE_DAYS * 86400 + 1) is None
    assert links.archive() == f"https://digest.example.org/a/{signer.archive_key('ana')}/"
    assert signer.archive_key("ana") != signer.archive_key("ben")
    assert links.digest_page("2026-11-30T08:00:00+01:00").endswith(
        "/d/2026-11-30T08%3A00%3A00%2B01%3A00"
    )
    assert signer.check(links.unsubscribe().rsplit("/", 1)[1], "u", NOW + 10**9) == ["ana"]


def test_a_long_paper_id_is_signed_as_its_hash_and_every_link_stays_short() -> None:
    """A feed's id of 1,500 characters made a token over the 2,000 check() takes: every link
    of that paper answered 403 "damaged"."""
    links = links_for(WEB, "ana", datetime.fromtimestamp(NOW, UTC))
    assert links is not None
    names = set()
    for paper_id in (
        "2501.01234",
        "x" * 200,
        "y" * 201,
        "é" * 1500,
        "https://f.org/?" + "z" * 3000,
    ):
        token = links.vote(paper_id, "up").rsplit("/", 1)[1]
        fields = links.signer.check(token, "v", NOW)
        assert fields is not None and len(token) < 1000
        assert fields[1] == paper_id if len(paper_id) <= 200 else fields[1].startswith("sha256:")
        names.add(fields[1])
    assert len(names) == 5  # one name a paper


def test_an_expired_token_of_this_key_is_told_from_a_damaged_or_foreign_one() -> None:
    """An undo clicked after its day was "damaged": its page could not say it had expired."""
    signer = Signer("s" * 32)
    late = signer.sign("x", "ana", "g1", "web:0123", int(NOW) - 1)
    assert signer.check(late, "x", NOW) is None
    assert signer.expired(late, "x", NOW) == ["ana", "g1", "web:0123"]
    assert signer.expired(late, "v", NOW) is None  # another kind
    assert Signer("t" * 32).expired(late, "x", NOW) is None  # another key
    body, mac = late.split(".")
    assert signer.expired(f"{body}.{mac[:-1]}A", "x", NOW) is None  # damaged
    live = signer.sign("x", "ana", "g1", "web:0123", int(NOW) + 60)
    assert signer.expired(live, "x", NOW) is None
    assert signer.expired(signer.sign("u", "ana", 0), "u", NOW) is None  # 0: never expires
    assert signer.expired(signer.sign("x", "ana", "g1", "k", True), "x", NOW) is None


def test_what_a_token_claims_is_read_without_a_key_but_only_from_a_well_formed_one() -> None:
    token = Signer("t" * 32).sign("u", "ana", 0)
    assert claimed(token, "u") == ["ana", 0]  # whose digests to look in (mailed.py), no more
    assert claimed(token, "v") is None
    body, mac = token.split(".")
    nested = base64.urlsafe_b64encode(b"[" * 1400).rstrip(b"=").decode() + "." + mac
    for bad in (f"{body}=.{mac}", "nonsense", "a.b", f"{token}.x", "x" * 2001, nested):
        assert claimed(bad, "u") is None, bad[:40]  # never an exception: it is read unsigned
        assert Signer("t" * 32).check(bad, "u", NOW) is None


def test_an_unsubscribe_link_says_the_addresses_its_mail_went_to_by_a_keyed_digest() -> None:
    """Signed with the subscriber's name alone, dana's older link (d@x.org) stopped the newcomer
    given the name later (d2@x.org): a link now also says where its mail went, unreadably."""
    from digest.models import ChannelConfig, Profile, Subscriber

    def dana(*to: str) -> Subscriber:
        email = ChannelConfig("email", "email", {"to": list(to)})
        return Subscriber("dana", Profile("diffusion"), (email, ChannelConfig("file", "file")))

    now, signer = datetime.fromtimestamp(NOW, UTC), Signer(WEB["secret"])
    fields = []
    for sub in (dana("d@x.org"), dana("D@X.org "), dana("b@x.org", "d@x.org"), dana("d2@x.org")):
        links = links_for(WEB, sub, now)
        assert links is not None
        token = links.unsubscribe().rsplit("/u/", 1)[1]
        fields.append(signer.check(token, "u", NOW + 10 * 365 * 86400))  # no expiry
        assert "x.org" not in base64.urlsafe_b64decode(token.split(".")[0] + "==").decode()
    assert fields[0] == fields[1] == ["dana", signer.addresses(["d@x.org"])]  # any case
    assert fields[2] == ["dana", signer.addresses(["d@x.org", "b@x.org"])] != fields[0]
    assert fields[3] != fields[0] and Signer("t" * 32).addresses(["d@x.org"]) != fields[0][1]
    by_name = links_for(WEB, "dana", now)  # a name alone: as links were made before
    assert by_name is not None
    assert signer.check(by_name.unsubscribe().rsplit("/u/", 1)[1], "u", NOW) == ["dana"]

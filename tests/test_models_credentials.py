"""A web address's credentials: its user part's password, and the query values a name marks
(token, pass, x-api-key) or a name that may be one (keys, session) holds made, never a search
feed's words."""

from __future__ import annotations

import pytest


def test_credentials_written_in_an_address_are_its_password_and_its_keyed_values() -> None:
    from digest.models.credentials import url_credentials

    found = url_credentials("http://u:pw%40x@h/feed?api_key=XYZ123456&search_query=cat:cs.CL&v=2")
    assert found == {"pw%40x", "XYZ123456"}
    assert url_credentials("https://export.arxiv.org/api/query") == frozenset()
    assert url_credentials("http://[::1/feed") == frozenset()


def test_a_query_name_is_a_credential_by_its_words_not_by_a_word_it_holds() -> None:
    """A search feed's ?keyword=privacy had made "privacy" a key: every item link holding the
    word was dropped and addresses in the text blotted."""
    from digest.models.credentials import url_credentials

    searched = "https://j.example/rss?keyword=privacy&author=Hinton&passage=lengthy"
    words = "&session=plenary&sortKey=relevance&searchKey=privacy&sid=keynote&keys=transformers"
    words += "&session=Plenary&journalKey=Nature&auth=Hinton&sign=positive"
    assert url_credentials(searched + words) == frozenset()
    named = ["api_key", "apiKey", "apikey", "access_token", "X-Amz-Signature", "sig", "pwd", "Auth"]
    named += ["sign", "passphrase", "passcode", "authcode", "api_keys", "tokenid", "JSESSIONID"]
    named += ["session", "sortKey", "keys"]  # a made value: letters and digits mixed
    for name in named:
        assert url_credentials(f"https://j.example/rss?{name}=Zq81xk") == {"Zq81xk"}, name
    assert url_credentials("https://j.example/rss?key=qwertyuiop") == {"qwertyuiop"}
    assert url_credentials("https://j.example/rss?api_key=abcdefgh") == {"abcdefgh"}


@pytest.mark.parametrize(
    "name", ["pass", "userpass", "user_pass", "userPass", "passkey", "pass_key", "adminpass"]
)
@pytest.mark.parametrize("password", ["sunshine", "Swordfish", "correcthorse", "hunter"])
def test_a_pass_parameter_holds_a_password_whatever_it_looks_like(name: str, password: str) -> None:
    """Dictionary passwords are lowercase words: ?pass=sunshine had been stored in the clear in
    the state database (feed_validators) and printed."""
    from digest.models.credentials import url_credentials

    assert url_credentials(f"http://127.0.0.1/private.xml?user=ana&{name}={password}") == {password}


@pytest.mark.parametrize(
    "name",
    ["x-api-key", "app_key", "appKey", "auth_key", "authKey", "feed_key", "feedkey", "hmac"]
    + ["developerKey", "client_token", "license_key", "X-Api-Key", "subscription-key"],
)
def test_a_key_named_for_what_it_opens_is_a_credential_by_its_name(name: str) -> None:
    from digest.models.credentials import url_credentials

    assert url_credentials(f"https://j.example/rss?{name}=qwertzuiopasdf") == {"qwertzuiopasdf"}


def test_words_that_only_hold_pass_or_key_are_no_credential() -> None:
    from digest.models.credentials import url_credentials

    url = (
        "https://j.example/rss?bypass=cachelayer&compass=northward&keyword=privacy&sortKey=pubDate"
    )
    assert url_credentials(url + "&journalKey=Nature&keystone=species") == frozenset()


# Values of a name that may be a credential (keys, sortKey, session, sid, auth, sign, appid): a
# made one is taken, a search word is not. Split at blanks and - _ . , : / +, a piece of 6+ that
# mixes letters and digits is made when it is hex of 8+ or neither a formula of real elements nor
# a name with its number; a piece whose case changes 4+ times not between words, that runs 10+
# digits or is 20+ long and no word is made too; words with blanks between them are text.
MADE = [
    "b6907d289e10d714a6e88b30761fae22",  # hex, as OpenWeather's appid
    "3f2a9b8c7d6e5f4a",
    "9e107d9d",
    "4F3C2A1B0E9D8C7B",
    "550e8400-e29b-41d4-a716-446655440000",  # UUIDs
    "123E4567-E89B-12D3-A456-426614174000",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    "AKIAIOSFODNN7EXAMPLE",  # AWS access key id and secret key
    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "Zx9_Qw-8LmPq7Rt3Yu6Ab0",  # base64url
    "dGhpcyBpcyBhIHNlY3JldA==",  # base64
    "Zx9/Qw+8LmPq7Rt3Yu",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOpQrStUvWx",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "AIzaSyDdI0hCZtE6vySjMm-WEfRq3CPzqKqqsHI",
    "syt_ZGlnZXN0_aBcDeFgHiJkLmNoPqRsTuV",
    "JBSWY3DPEHPK3PXP",  # a base32 one-time-password secret
    "Zq81xk",
    "a1b2c3d4e5",
    "1abcdefgh",  # its only digit first: a digit anywhere counts
    "8439201765",  # 10+ digits
    "qWeRtYuIoPaS",  # random mixed case
    "xkqzvbwtrmplnhgfdscjyqwe",  # 20+ random letters
    "A3F9K-QM2ZX-7PLW4-N8R2T",  # a licence key's groups
    # capitals and digits that are no formula: no element "A", "D", "E"; no element takes a 0
    *("A3F9C2E1B7", "C0FFEE12", "AB12CD34", "B6907D289E10", "ABCDEF123456", "FEEDFACE1234"),
    "Ab12Cd34Ef",
]

WRITTEN = [
    # model, dataset and venue names and formulas: letters and digits taking one turn (reg16)
    *("YOLOv8", "Llama3", "ResNet50", "COVID19", "NeurIPS2025", "LiFePO4", "CH3NH3PbI3"),
    *("lastUpdatedDate", "submittedDate"),  # arXiv's own sort values
    # a formula of real elements at any length, its case changes at element boundaries (reg17)
    *("CsPbBr3", "Bi2Sr2CaCu2O8", "Fe3O4", "YBa2Cu3O7", "NiMnSb"),
    # a name with its number and tail, a catalogue's designation, words joined by a digit
    *("BNT162b2", "SN2023ixf", "AT2018cow", "YOLOv8n", "GRB221009A", "GW150914", "NGC1068"),
    *("word2vec", "Seq2Seq", "AI4Math", "1000Genomes", "2MASS", "LLaMA2", "INTERSPEECH2025"),
    *("mRNA1273", "Tiger200K", "LongCodeBench"),
    "CRISPR",
    "COVID-19",
    "SARS-CoV-2",
    "mRNA vaccines",
    "COVID19 vaccines",
    "RNA-seq",
    "scRNA-seq",
    "single-cell RNA-seq",
    "DeepMind",
    "McDonald",
    "iPhone",
    "RoBERTa",
    "AlphaFold",
    "transformers",
    "Transformers",
    "graph neural networks",
    "immunohistochemistry",
    "Electroencephalography",
    "GPT4",
    "H5N1",
    "NF-κB",
    "α-synuclein",
    "Schrödinger",
    "2401.12345",
    "2026-01-01",
    "cat:cs.LG",
    "de Gennes",
]


@pytest.mark.parametrize("name", ["keys", "sortKey", "session", "sid", "auth", "sign", "appid"])
def test_a_name_that_may_be_a_credential_takes_a_made_value_and_no_search_word(name: str) -> None:
    """?keys=CRISPR, ?sortKey=pubDate, ?session=Plenary, ?auth=Hinton had been taken for keys:
    every code link holding the word ("github.com/acme/CRISPR-mol") was lost."""
    from urllib.parse import quote

    from digest.models.credentials import url_credentials

    for value in MADE:
        assert url_credentials(f"https://j.example/rss?{name}={quote(value)}") == {value}, value
    for value in [*WRITTEN, "pubDate", "Plenary", "Hinton", "dateDesc", "OConnor"]:
        assert url_credentials(f"https://j.example/rss?{name}={quote(value)}") == set(), value
    assert url_credentials(f"https://j.example/rss?{name}=mRNA+vaccines") == set()
    # base64 with an unencoded "+", which a query reads as a blank: pieces, not words
    assert url_credentials(f"https://j.example/rss?{name}=Zx9/Qw+8LmPq7") == {"Zx9/Qw 8LmPq7"}


@pytest.mark.parametrize("length", [8, 10, 12, 16, 32])
def test_random_capitals_and_digits_are_made_whatever_formula_they_spell(length: int) -> None:
    """A session id in upper-case hex ("A3F9C2E1B7") had read as a formula of any capitals and
    was stored in the clear in feed_validators; random letters and digits of 8+ are taken about
    as often as before a name with its number was a search word (reg17 F3)."""
    import random
    import string

    from digest.models.credentials import url_credentials

    def caught(alphabet: str) -> float:
        values = ["".join(draw.choice(alphabet) for _ in range(length)) for _ in range(400)]
        return (
            sum(bool(url_credentials(f"https://j.example/rss?session={v}")) for v in values) / 400
        )

    draw = random.Random(length)
    assert caught("0123456789ABCDEF") >= 0.95
    assert caught("0123456789abcdef") >= 0.95
    assert caught(string.ascii_uppercase + string.digits) >= 0.88
    assert caught(string.ascii_letters + string.digits) >= 0.83

"""`digest validate`'s checks of what a reader's interests text says to the ranking: arXiv ids
(which `like` takes) and a text in another language than the papers."""

from __future__ import annotations

from pathlib import Path

import pytest

from digest.cli import main
from digest.cli.checkup import unread, wordless
from digest.models import Profile, Subscriber

# rank22's readers: their texts validated OK and scored 0 on every paper, for ever.
SPANISH = (
    "Aprendizaje automático para la detección de exoplanetas y la clasificación morfológica de"
    " galaxias con imágenes de telescopios; redes neuronales aplicadas a la astrofísica."
)
PORTUGUESE = (
    "Modelos de linguagem para o português e tradução automática; reconhecimento de fala em"
    " línguas com poucos recursos."
)
GERMAN = "Maschinelles Lernen für die Erkennung von Exoplaneten und Galaxien in Teleskopbildern"
ENGLISH = [
    "Portfolio optimization, stochastic volatility and high-frequency trading in order books",
    "Superconducting qubits: transmon coherence, two-qubit gates and readout",
    "Heterotic string compactifications, the swampland and de Sitter vacua",
    "Hodge theory, motives and L-functions of varieties over number fields",
    "Text-to-image diffusion, chain-of-thought prompting and RNA-seq",
]


def validate(capsys: pytest.CaptureFixture[str], body: str) -> tuple[int, str, str]:
    Path("digest.toml").write_text(body)
    code = main(["validate", "--config", "digest.toml"])
    out, err = capsys.readouterr()
    return code, out, err


def reader(interests: str, **others: object) -> str:
    lines = [f"{key} = {value!r}".replace("'", '"') for key, value in others.items()]
    return "\n".join(["[[subscribers]]", 'name = "ana"', f"interests = {interests!r}", *lines])


@pytest.mark.parametrize("text", [SPANISH, PORTUGUESE, GERMAN])
def test_a_text_none_of_whose_words_the_papers_know_is_refused(capsys, text: str) -> None:
    code, _, err = validate(capsys, reader(text, keywords=["exoplanetas"]))
    assert code == 2
    (line,) = err.splitlines()
    assert "digest.toml: subscribers.ana.interests: none of its words (" in line
    assert "another language than the papers" in line


@pytest.mark.parametrize(
    ("text", "others"),
    [
        # Some of its words are known: it matches something, little.
        ("Modelos de linguagem (LLMs) e transformers para tradução automática de línguas", {}),
        # None known, but the profile has a part the papers match: a warning.
        (SPANISH, {"keywords": ["exoplanets"]}),
        (SPANISH, {"like": ["2506.20115"]}),
    ],
)
def test_a_text_few_of_whose_words_the_papers_know_is_a_warning(
    capsys, text: str, others: dict[str, object]
) -> None:
    code, out, err = validate(capsys, reader(text, **others))
    assert code == 0 and "OK" in out
    (line,) = err.splitlines()
    assert line.startswith("digest: WARNING: digest.toml: subscribers.ana.interests: ")
    assert "another language than the papers" in line


@pytest.mark.parametrize("text", ENGLISH)
def test_an_english_text_of_rare_terms_is_no_other_language(capsys, text: str) -> None:
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and not err
    assert not unread(Subscriber("ana", Profile(interests=text), ()))


def test_a_few_words_are_not_judged() -> None:
    # A short list of rare terms is no language: a reader of "transmon" is not refused.
    for text in ("galaxias", "transmon qubits", "exoplanetas y galaxias"):
        sub = Subscriber("ana", Profile(interests=text), ())
        assert not unread(sub) and not wordless(sub)


def test_arxiv_ids_alone_are_refused_with_like_named(capsys) -> None:
    """rank22 F1: "arXiv:2506.20115, ..." had validated OK and made "arxiv" the profile."""
    code, _, err = validate(capsys, reader("arXiv:2506.20115, arXiv:2509.22540v2, hep-th/9711200"))
    assert code == 2
    (line,) = err.splitlines()
    assert "subscribers.ana.interests: holds no word the ranking can match" in line
    assert "arXiv ids are not read" in line
    assert line.endswith('list them as like = ["2506.20115", "2509.22540", "hep-th/9711200"]')


def test_arxiv_ids_beside_words_are_a_warning_naming_like(capsys) -> None:
    text = "Holography and AdS/CFT, as in https://arxiv.org/abs/2506.20115 and arXiv:2509.22540"
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out
    (line,) = err.splitlines()
    assert line == (
        "digest: WARNING: digest.toml: subscribers.ana.interests: its arXiv ids are not read as"
        ' words; to follow papers you like, list them as like = ["2506.20115", "2509.22540"]'
    )


def test_words_and_a_pasted_entry_s_eprint_say_nothing(capsys) -> None:
    text = "@article{k, title = {Holography and black holes}, eprint = {2506.20115}}"
    code, out, err = validate(capsys, reader(text))
    assert code == 0 and "OK" in out and not err

"""HTML in a feed's text as plain text: the markup publishers write (MathML, JATS, IEEE's,
HTML5) leaves no tag behind, a formula's TeX annotation is not read twice, and a superscript
stays one."""

from __future__ import annotations

import pytest
from support_alarm import in_time

from digest.models.identity import title_hash
from digest.sources.latex import to_text
from digest.sources.markup import html_text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        (
            'We measure <mover accent="true">x˙</mover><mspace width="0.2em"/> now',
            "We measure x˙ now",
        ),
        (
            '<semantics>α<annotation encoding="application/x-tex">\\alpha</annotation>'
            "</semantics> decay",
            "α decay",
        ),
        (  # Elsevier's prefixed MathML: its TeX annotation was read too ("α\\alpha")
            '<mml:semantics>α<mml:annotation encoding="application/x-tex">\\alpha'
            "</mml:annotation></mml:semantics> decay",
            "α decay",
        ),
        ("<mtable><mtr><mtd>a</mtd></mtr></mtable> and <mroot>x3</mroot>", "a and x3"),
        (
            'Learning <inline-formula><tex-math notation="LaTeX">ℓ₁</tex-math>'
            "</inline-formula>-Sparse",
            "Learning ℓ₁-Sparse",
        ),
        (
            '<sec><italic>in vivo</italic> <xref ref-type="bibr" rid="b1">1</xref>'
            " <bold>T</bold></sec>",
            "in vivo 1 T",
        ),
        (
            '<picture><source srcset="a.webp"></picture>Posted <time datetime="2026-03-02">March'
            ' 2</time><noscript>Enable JS</noscript><svg viewBox="0 0 1 1"><path d="M0"/></svg>.',
            "Posted March 2.",
        ),
    ],
)
def test_publishers_markup_leaves_no_tag(markup: str, text: str) -> None:
    assert html_text(markup) == text


def test_a_superscript_stays_raised_and_a_subscript_joins_its_word() -> None:
    """10<sup>6</sup> cells had become "106 cells", another number."""
    assert html_text("10<sup>6</sup> cells at 10<sup>−9</sup> M") == "10⁶ cells at 10⁻⁹ M"
    # Raised letters read as plain ones to NFKC, so a title hashes as it did flattened.
    assert html_text("Fe<sup>3+</sup> and x<sup>T</sup>y") == "Fe³⁺ and xᵀy"
    # An ordinal stays inline: "5th" is the title a stored copy was known by.
    assert html_text("The 5<sup>th</sup> workshop") == "The 5th workshop"
    assert html_text("MoS<sub>2</sub> films") == "MoS₂ films"
    assert html_text("shown<sup>1,2</sup> before<sup>*</sup>") == "shown¹,² before*"


@pytest.mark.parametrize(
    "text",
    [
        "if x<y then a<b and c>d.",
        "We compute <psi|H|psi> here",
        "<n-gram> counts",
        # Words an abstract puts in angle brackets that are also elements: hid or ate the text.
        "We fill a prompt <template> with slots and train it.",
        "the <label> token, the <time> step and <noscript> mode",
        "an <svg> file",
    ],
)
def test_a_less_than_sign_that_opens_no_known_element_is_text(text: str) -> None:
    assert html_text(text) == text


def _math(inner: str) -> str:
    return f'<math xmlns="http://www.w3.org/1998/Math/MathML">{inner}</math>'


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        # Run together, each was another number: "106", "12", "s=13", "e-x", "O(T2/3)".
        (_math("<msup><mn>10</mn><mn>6</mn></msup>") + " spins", "10⁶ spins"),
        (_math("<mfrac><mn>1</mn><mn>2</mn></mfrac>") + " of it", "1/2 of it"),
        (_math("<msqrt><mi>s</mi></msqrt><mo>=</mo><mn>13</mn>") + " TeV", "√s=13 TeV"),
        (_math("<msup><mi>e</mi><mrow><mo>-</mo><mi>x</mi></mrow></msup>"), "e⁻ˣ"),
        ("O(<i>T</i><sup>2/3</sup>) regret", "O(T^(2/3)) regret"),
        (
            "<mml:math><mml:msup><mml:mi>N</mml:mi><mml:mrow><mml:mo>-</mml:mo><mml:mn>1</mml:mn>"
            "<mml:mo>/</mml:mo><mml:mn>2</mml:mn></mml:mrow></mml:msup></mml:math>",
            "N^(-1/2)",
        ),
        (_math("<mfrac><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow><mn>2</mn></mfrac>"), "(a+b)/2"),
        (
            _math(
                "<mroot><mi>x</mi><mn>3</mn></mroot> <msubsup><mi>x</mi><mi>i</mi><mn>2</mn>"
                "</msubsup>"
            ),
            "∛x xᵢ²",
        ),  # fmt: skip
        (
            _math(
                "<munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi>"
                "</munderover>"
            ),
            "∑ᵢ₌₁ⁿ",
        ),  # fmt: skip
        ("T<sub>c</sub> and W<sub>eff</sub>", "T_c and W_eff"),
        # MathML writes no blanks: a function's name is a word (was "O(nlogn)").
        (
            _math(
                "<mi>O</mi><mo>(</mo><mi>n</mi><mi>log</mi><mo>&#x2061;</mo><mi>n</mi><mo>)</mo>"
            ),
            "O(n log n)",
        ),  # fmt: skip
        (_math("<mi>log</mi><mo>(</mo><mi>n</mi><mo>)</mo>"), "log(n)"),
        # Broken or cut markup: what was written, run together as before.
        (_math("<msup><mi>x</mi><mn>2</mn>"), "x2"),
        ("a<sup>b", "ab"),
    ],
)
def test_scripts_fractions_and_roots_keep_their_parts(markup: str, text: str) -> None:
    assert html_text(markup) == text


def _tex(written: str) -> str:
    return to_text(written)


def _html(written: str) -> str:
    return to_text(html_text(written))  # as a feed's title is read (rss.py)


@pytest.mark.parametrize(
    "copies",
    [
        (
            "Quantum states beyond $10^6$ spins",
            "Quantum states beyond " + _math("<msup><mn>10</mn><mn>6</mn></msup>") + " spins",
            "Quantum states beyond 10<sup>6</sup> spins",
        ),
        (
            "Bandit regret of $O(T^{2/3})$ under delays",
            "Bandit regret of "
            + _math(
                "<mi>O</mi><mo>(</mo><msup><mi>T</mi><mrow><mn>2</mn><mo>/</mo><mn>3</mn></mrow>"
                "</msup><mo>)</mo>"
            )
            + " under delays",
            "Bandit regret of O(<i>T</i><sup>2/3</sup>) under delays",
        ),
        (
            "A gap of $\\frac{1}{2}$ the bandwidth",
            "A gap of " + _math("<mfrac><mn>1</mn><mn>2</mn></mfrac>") + " the bandwidth",
        ),
        (
            "Collisions at $\\sqrt{s}=13$ TeV",
            "Collisions at " + _math("<msqrt><mi>s</mi></msqrt><mo>=</mo><mn>13</mn>") + " TeV",
        ),
        (
            "Growth as $n^{\\alpha}$ in graphs",
            "Growth as " + _math("<msup><mi>n</mi><mi>α</mi></msup>") + " in graphs",
            "Growth as <i>n</i><sup>α</sup> in graphs",
        ),
        (
            "The $T_c$ of thin films",
            "The " + _math("<msub><mi>T</mi><mi>c</mi></msub>") + " of thin films",
            "The <i>T</i><sub>c</sub> of thin films",
        ),
        (
            "Sorting in $O(n\\log n)$ comparisons",
            "Sorting in "
            + _math("<mi>O</mi><mo>(</mo><mi>n</mi><mi>log</mi><mi>n</mi><mo>)</mo>")
            + " comparisons",
            "Sorting in O(<i>n</i> log <i>n</i>) comparisons",
        ),
        ("Ice of H$_2$O at high pressure", "Ice of H<sub>2</sub>O at high pressure"),
        ("The 5$^{th}$ workshop on bandits", "The 5<sup>th</sup> workshop on bandits"),
        (
            "Adaptive $\\epsilon$-Greedy Exploration for Deep RL",  # arXiv
            'Adaptive <inline-formula><tex-math notation="LaTeX">$\\epsilon $</tex-math>'
            "</inline-formula>-Greedy Exploration for Deep RL",  # IEEE
        ),
    ],
)
def test_one_title_in_latex_mathml_and_html_reads_and_hashes_alike(copies: tuple[str, ...]) -> None:
    """A journal's copy of an arXiv paper is known by its title when it has no id in common."""
    first, *others = copies
    texts = {_tex(first), *(_html(other) for other in others)}
    assert len(texts) == 1, texts
    assert "$" not in texts.pop()  # no LaTeX left as written
    hashes = {title_hash(_tex(first)), *(title_hash(_html(other)) for other in others)}
    assert len(hashes) == 1 and None not in hashes


def test_a_long_formula_is_read_in_linear_time() -> None:
    # Each piece of a part was added to one string: quadratic in the pieces of a long formula.
    formula = "<math><msup><mrow>" + "<mi>x</mi>" * 100_000 + "</mrow><mn>2</mn></msup>"
    assert in_time(lambda: html_text(formula)) == "x" * 100_000 + "²"

"""HTML in a feed's text as plain text: the markup publishers write (MathML, JATS, IEEE's,
HTML5) leaves no tag behind, a formula's TeX annotation is not read twice, and a superscript
stays one."""

from __future__ import annotations

import pytest
from support_alarm import in_time

from digest.models.identity import title_hash
from digest.sources import markup as markup_module
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
        (
            "Sampling on $[0,1]$ intervals",
            "Sampling on "
            + _math('<mfenced open="[" close="]"><mn>0</mn><mn>1</mn></mfenced>')
            + " intervals",
        ),
        (
            "Dating by $^{14}$C decay",
            "Dating by "
            + _math("<mmultiscripts><mi>C</mi><mprescripts/><none/><mn>14</mn></mmultiscripts>")
            + " decay",
            "Dating by <sup>14</sup>C decay",
        ),
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


# Every element whose parts are composed, nested in itself: (opening, closing) of one level.
_NESTED = {
    "sup": ("<sup>x", "</sup>"),
    "sub": ("<sub>x", "</sub>"),
    **{
        tag: (f"<{tag}><mi>x</mi>", f"</{tag}>")
        for tag in (
            "msup msub msubsup mfrac mroot msqrt mover munder munderover mfenced"
            " mmultiscripts alternatives"
        ).split()
    },
}


def _work(markup: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    """The characters the layouts' texts came to, all told (each closing composes its own)."""
    read = [0]
    texts = markup_module._Layout.texts

    def counted(layout: markup_module._Layout) -> list[str]:
        found = texts(layout)
        read[0] += sum(map(len, found))
        return found

    with monkeypatch.context() as patch:
        patch.setattr(markup_module._Layout, "texts", counted)
        text = html_text(markup)
    return read[0], text


@pytest.mark.parametrize("tag", sorted(_NESTED))
@pytest.mark.parametrize("closed", [True, False])
def test_nested_layouts_are_read_in_linear_work(
    tag: str, closed: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """40,000 nested <sup> in one feed item held a run 205 s: each closing composed all the
    text inside it again, n² in the depth (a cut fragment's open ones likewise at its end).
    Twice the depth is twice the work, not four times, and no level's text is lost."""
    opening, closing = _NESTED[tag]
    work = []
    for depth in (1000, 2000):
        # Left open, each but one: a name never closed is no tag for some (<mfenced> as text).
        markup = "<math>" + opening * depth + closing * (depth if closed else 1)
        read, text = _work(markup, monkeypatch)
        work.append(read)
        kept = sum(c.isalnum() for c in text)  # of <alternatives>, one rendering is read
        assert kept >= (1 if tag == "alternatives" else depth), text[:200]
    assert work[1] < 3 * work[0], work


def test_a_formula_after_one_nested_past_the_depth_is_read_as_ever() -> None:
    deep = "<sup>" * 100 + "x" + "</sup>" * 100
    assert html_text(f"{deep} and 10<sup>6</sup> cells").endswith(" and 10⁶ cells")
    # Nested as deep as a real formula, every level is composed as before.
    tower = "<msup><mi>e</mi>" * 4 + "<mi>x</mi>" + "</msup>" * 4
    assert html_text(_math(tower)) == "e^(e^(e^eˣ))"


@pytest.mark.parametrize("prefix", ["", "jats:", "j:"])
@pytest.mark.parametrize("tex_first", [True, False])
def test_jats_alternatives_are_read_once(prefix: str, tex_first: bool) -> None:
    """Both renderings had been read: "The ββ-phase … T_c = 40 KT_c=40K". The MathML is read,
    as every other formula is; the TeX only where there is no MathML."""
    tex = f"<{prefix}tex-math>$T_c = 40\\,\\mathrm{{K}}$</{prefix}tex-math>"
    mathml = (
        '<mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:msub><mml:mi>T</mml:mi>'
        "<mml:mi>c</mml:mi></mml:msub><mml:mo>=</mml:mo><mml:mn>40</mml:mn></mml:math>"
    )
    inner = tex + mathml if tex_first else mathml + tex
    formula = f"<{prefix}inline-formula><{prefix}alternatives>{inner}</{prefix}alternatives>"
    text = f"<{prefix}p>forms at {formula}</{prefix}inline-formula> in cells.</{prefix}p>"
    assert html_text(text) == "forms at T_c=40 in cells."
    graphic = f'<{prefix}inline-graphic xlink:href="x.gif"/>'
    only_tex = f"<{prefix}alternatives>{graphic}{tex}</{prefix}alternatives>"
    assert html_text(f"at {only_tex} here") == "at $T_c = 40\\,\\mathrm{K}$ here"


def test_the_feed_items_alternatives_read_once() -> None:
    item = (  # feeds21's Crossref-fed item
        "<jats:p>The <jats:inline-formula><jats:alternatives><jats:tex-math>$\\beta$"
        '</jats:tex-math><mml:math xmlns:mml="http://www.w3.org/1998/Math/MathML"><mml:mi>β'
        "</mml:mi></mml:math></jats:alternatives></jats:inline-formula>-phase forms.</jats:p>"
        "<jats:p>Second paragraph.</jats:p>"
    )
    assert html_text(item) == "The β-phase forms. Second paragraph."


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        # Their parts had run together: "01", "ab", "C614", "ab", "1001".
        ('<mfenced open="[" close="]"><mn>0</mn><mn>1</mn></mfenced> interval', "[0,1] interval"),
        ("<mfenced><mi>a</mi><mi>b</mi></mfenced> pair", "(a,b) pair"),
        ("<mfenced><mrow><mi>a</mi><mo>+</mo><mi>b</mi></mrow></mfenced>", "(a+b)"),
        (  # the n-th separator after the n-th part, the last one again; blanks are no separator
            '<mfenced separators="; ,"><mi>a</mi><mi>b</mi><mi>c</mi><mi>d</mi></mfenced>',
            "(a;b,c,d)",
        ),
        ('<mfenced open="{" close="" separators=""><mi>a</mi><mi>b</mi></mfenced>', "{ab"),
        ("<mfenced/>", "()"),
        (
            "<mmultiscripts><mi>C</mi><none/><none/><mprescripts/><mn>6</mn><mn>14</mn>"
            "</mmultiscripts> dating",
            "¹⁴₆C dating",
        ),
        (
            "<mml:mmultiscripts><mml:mi>U</mml:mi><mml:mprescripts/><mml:none/><mml:mn>235"
            "</mml:mn></mml:mmultiscripts> fission",
            "²³⁵U fission",
        ),
        (  # a tensor's scripts after its base; a prescript Unicode cannot raise in parentheses
            "<mmultiscripts><mi>R</mi><mi>i</mi><none/><none/><mi>j</mi><mprescripts/>"
            "<mi>q</mi><none/></mmultiscripts>",
            "_(q)Rᵢʲ",
        ),
        ('<mi>a</mi><mspace width="1em"/><mi>b</mi> spaced', "a b spaced"),
        ('<mi>a</mi><mspace width="thinmathspace"/><mi>b</mi>', "a b"),
        ('<mi>a</mi><mspace linebreak="newline"/><mi>b</mi>', "a b"),
        # A kerning, a zero width and the default (none) are no blank.
        ('<mi>a</mi><mspace width="-0.1em"/><mi>b</mi><mspace width="0.0em"/><mi>c</mi>', "abc"),
        ("<mi>a</mi><mspace/><mi>b</mi>", "ab"),
        (
            "<mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>0</mn></mtd></mtr><mtr><mtd><mn>0</mn>"
            "</mtd><mtd><mn>1</mn></mtd></mtr></mtable>identity",
            "1 0; 0 1 identity",
        ),
        (
            '<mfenced open="[" close="]"><mtable><mtr><mtd><mi>a</mi></mtd></mtr><mtr><mtd>'
            "<mi>b</mi></mtd></mtr></mtable></mfenced>",
            "[a; b]",
        ),
    ],
)
def test_fences_prescripts_spaces_and_tables_keep_their_parts(markup: str, text: str) -> None:
    assert html_text(_math(markup) if "<math" not in markup else markup) == text


def test_an_html_tables_cells_stay_apart() -> None:
    assert html_text("<table><tr><td>1</td><td>2</td></tr><tr><th>3</th></tr></table>") == "1 2 3"


@pytest.mark.parametrize(
    "names",
    [
        "Jane Doe<br/>John Smith<br>Anna Lee",
        "Jane Doe<BR />John Smith<br>Anna Lee<br>",
        "<p>Jane Doe</p><p>John Smith</p><p>Anna Lee</p>",
        "<div>Jane Doe</div>\n<div>John Smith</div><li>Anna Lee</li>",
        "Jane Doe\u2028John Smith\u2029Anna Lee",
        "Jane Doe&#8232;John Smith&#x2029;Anna Lee",
        "Jane Doe\r\nJohn Smith\x85Anna Lee",
        "Jane <b>Doe</b><br>John Smith\nAnna Lee",
    ],
)
def test_each_way_html_breaks_a_line_is_a_line_break(names: str) -> None:
    """reg35 F5: only "\\n" had been carried through as a line: "Jane Doe<br/>John Smith"
    and U+2028 between names read as one line, one author in a list of names one a line."""
    assert html_text(names, lines=True) == "Jane Doe\nJohn Smith\nAnna Lee"
    assert html_text(names) == "Jane Doe John Smith Anna Lee"  # as one line: blanks, as ever


def test_a_break_inside_a_formula_or_a_cell_breaks_no_line() -> None:
    assert html_text("Jane Doe<sup>1<br>2</sup>", lines=True) == "Jane Doe¹²"
    assert html_text("<td>Jane</td><td>Doe</td>", lines=True) == "Jane Doe"


@pytest.mark.parametrize(
    "rendering",
    [
        "<textual-form>x squared</textual-form>",
        "<textual-form>x squared</textual-form><tex-math>$x^2$</tex-math>",
        '<media mimetype="video" xlink:href="v.mp4"/><textual-form>x squared</textual-form>',
        "<chem-struct>x squared</chem-struct><graphic/>",
        "<preformat>x squared</preformat>",
    ],
)
def test_every_rendering_jats_alternatives_hold_is_markup(rendering: str) -> None:
    """reg35 F8: <textual-form> without a prefix was no known element: its tags were escaped
    to text, and, the first part with text, they were the rendering read."""
    assert html_text(f"is <alternatives>{rendering}</alternatives> here") == "is x squared here"
    math = "<math><msup><mi>x</mi><mn>2</mn></msup></math>"
    assert html_text(f"<alternatives>{rendering}{math}</alternatives>") == "x²"  # MathML first


def test_jats_element_names_unclosed_stay_words() -> None:
    text = "an <array> of <media> in a <preformat> block"
    assert html_text(text) == text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("<dl><dt>Aim</dt><dd>We</dd><dt>Result</dt><dd>Holds</dd></dl>", "Aim We Result Holds"),
        ("end.<hr>Next", "end. Next"),
        ("end.<hr/>Next", "end. Next"),
        ("<section>A</section><section>B</section>", "A B"),
        ("<figure>x</figure><figcaption>y</figcaption>", "x y"),
        ("<table><caption>Scores</caption><tr><td>1</td></tr></table>", "Scores 1"),
        ("<article>a</article><aside>b</aside><nav>c</nav>d", "a b c d"),
        ("<header>a</header><main>b</main><footer>c</footer>", "a b c"),
        ("<blockquote>a</blockquote>b<address>c</address>d<pre>e</pre>f", "a b c d e f"),
        ("<ul><li>a</li></ul>b<ol><li>c</li></ol>d", "a b c d"),
        ("<jats:fig><jats:caption>a</jats:caption></jats:fig>b", "a b"),
        ("<jats:def-list><jats:term>a</jats:term><jats:def>b</jats:def></jats:def-list>", "a b"),
    ],
)
def test_every_block_element_parts_the_words_on_each_side(markup: str, text: str) -> None:
    """reg37 F8: only <p>, <div>, <li> and a few more were blocks: "<dt>Aim</dt><dd>We" read
    "AimWe", "end.<hr>Next" "end.Next", and a names list parted by <hr> made one author."""
    assert html_text(markup) == text
    assert html_text(markup, lines=True) == text.replace(" ", "\n")


@pytest.mark.parametrize("tag", ["hr", "hr/", "section", "article", "dd", "figure", "aside"])
def test_a_names_list_parted_by_any_block_is_a_line_each(tag: str) -> None:
    close = "" if tag.startswith("hr") else f"</{tag}>"
    names = f"<{tag}>Ana Lopez{close}<{tag}>Wei Zhang{close}"
    assert html_text(names, lines=True) == "Ana Lopez\nWei Zhang"


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        (  # a JATS section's title, as PubMed writes its heads
            "<jats:sec><jats:title>Methods</jats:title><jats:p>We did.</jats:p></jats:sec>"
            "<jats:sec><jats:title>Results</jats:title><jats:p>It works.</jats:p></jats:sec>",
            "Methods: We did. Results: It works.",
        ),
        ("<h4>Background and aims</h4><p>Genes matter.</p>", "Background and aims: Genes matter."),
        ("<sec><title>Results:</title><p>Ok.</p></sec>", "Results: Ok."),  # its own colon
        ("<h3>Why does it fold?</h3><p>Crowding.</p>", "Why does it fold? Crowding."),
        ("<p>Done.</p><h3>Acknowledgements</h3>", "Done. Acknowledgements"),  # no text after it
        ("<h3><sup>13</sup>C NMR</h3><p>Peaks.</p>", "¹³C NMR: Peaks."),
        ("<p>A</p><title></title><p>B</p>", "A B"),  # an empty title marks nothing
    ],
)
def test_a_sections_title_is_followed_by_a_colon(markup: str, text: str) -> None:
    """feeds24 F4: "<jats:title>Methods</jats:title><jats:p>We did." had read "Methods We did."."""
    assert html_text(markup) == text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        (
            "We used <jats:list><jats:list-item><jats:p>cells</jats:p></jats:list-item>"
            "<jats:list-item><jats:p>mice</jats:p></jats:list-item></jats:list> here.",
            "We used cells; mice here.",
        ),
        ("We used <ul><li>cells</li><li>mice</li><li>rats</li></ul>", "We used cells; mice; rats"),
        ("<ol><li>First step.</li><li>Second step</li></ol>", "First step. Second step"),
        ("<ul><li>a<ul><li>b</li><li>c</li></ul></li><li>d</li></ul>", "a b; c; d"),
        ("We used <ul><li></li><li>cells</li></ul>", "We used cells"),  # an empty item: no mark
    ],
)
def test_a_lists_items_stay_apart(markup: str, text: str) -> None:
    assert html_text(markup) == text


def test_a_list_of_names_keeps_one_name_a_line() -> None:
    assert html_text("<ul><li>Jane Doe</li><li>John Smith</li></ul>", lines=True) == (
        "Jane Doe\nJohn Smith"
    )


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("<jats:p>A<jats:break/>B</jats:p>", "A B"),
        ("first line<break/>second line", "first line second line"),
        ('It works<jats:xref ref-type="bibr" rid="b1">1</jats:xref>.', "It works 1."),
        ('It works <xref ref-type="bibr" rid="b1">1</xref>.', "It works 1."),
        ('[<xref ref-type="bibr" rid="b1">1</xref>]', "[1]"),
        ('see Fig.<jats:xref ref-type="fig" rid="f1">1</jats:xref>', "see Fig.1"),  # as written
        ('cells<sup><xref ref-type="bibr" rid="b2">2</xref></sup>.', "cells²."),
    ],
)
def test_a_jats_break_is_a_blank_and_a_references_number_stays_apart(
    markup: str, text: str
) -> None:
    """feeds24 F4: "A<jats:break/>B" had read "AB", a reference's number "It works1."."""
    assert html_text(markup) == text


def test_lists_and_titles_are_read_in_linear_time() -> None:
    many = "<ul>" + "<li></li>" * 100_000 + "</ul>" + "<h1>" * 50_000 + "x"
    many += "<ul>" + "<li>y</li>" * 50_000
    assert in_time(lambda: html_text(many)).startswith("x y; y; y")

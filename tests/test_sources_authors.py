"""Author lists as each source format writes them become 'First Last' names, one per author:
bioRxiv's "Last, F." lists, BibTeX's "and", semicolons, "et al.", suffixes and collaborations."""

from __future__ import annotations

import pytest

from digest.sources.authors import one, split


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # bioRxiv / medRxiv dc:creator: surname, initials, surname, initials...
        (
            "Kukla, D., Crampton, A., Wood, D., Khetani, S.",
            ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani"),
        ),
        ("Li, X., Wang, Y. Z., Serre, J.-P.", ("X. Li", "Y. Z. Wang", "J.-P. Serre")),
        # BibTeX and Zotero: "Last, First and Last, First", "and others"
        ("Lovelace, Ada and Turing, Alan and others", ("Ada Lovelace", "Alan Turing")),
        (
            "van der Berg, Jan and García Márquez, Gabriel",
            ("Jan van der Berg", "Gabriel García Márquez"),
        ),
        # a feed's one string of whole names, with a final "and" or "&"
        (
            "Ada Lovelace, Alan Turing, and Grace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        ("Ada Lovelace & Alan Turing", ("Ada Lovelace", "Alan Turing")),
        # semicolons (CSV exports) in either order of the parts
        ("Smith, J.; Doe, Jane; Grace Hopper", ("J. Smith", "Jane Doe", "Grace Hopper")),
        ("A. Smith, B. Jones et al.", ("A. Smith", "B. Jones")),
        # suffixes stay with their own name, wherever the export put them
        ("Reagle, Jr., Joseph M.", ("Joseph M. Reagle Jr.",)),
        ("Smith, John, Jr. and Doe, J.", ("John Smith Jr.", "J. Doe")),
        # a collaboration is an author of its own; affiliations in parentheses are not names
        (
            "L. Adamczyk, J. K. Adkins (STAR Collaboration)",
            ("L. Adamczyk", "J. K. Adkins", "STAR Collaboration"),
        ),
        ("Ada Lovelace (University of London)", ("Ada Lovelace",)),
        # a year or a number is never a name
        ("Smith, J. and 2019", ("J. Smith",)),
        ("Anderson, Paul", ("Paul Anderson",)),  # "and" inside a name does not split it
        # several given names after a one-word surname: one person, not "Maldacena" and "Juan"
        (
            "Maldacena, Juan Martin and Ayan, Burcu Karagol",
            ("Juan Martin Maldacena", "Burcu Karagol Ayan"),
        ),
        ("van der Berg, Jan Willem", ("Jan Willem van der Berg",)),
        ("", ()),
    ],
)
def test_each_format_splits_into_first_last_names(written: str, names: tuple[str, ...]) -> None:
    assert split(written) == names


def test_a_list_of_strings_is_split_item_by_item_without_duplicates() -> None:
    assert split(["Lovelace, Ada", "Alan Turing", "Ada Lovelace"]) == (
        "Ada Lovelace",
        "Alan Turing",
    )


def test_braces_keep_a_corporate_name_whole() -> None:
    assert split("{Barnes and Noble} and Doe, J.") == ("{Barnes and Noble}", "J. Doe")


def test_one_name_is_turned_round() -> None:
    assert one("Reagle, Jr., Joseph M.") == "Joseph M. Reagle Jr."
    assert one("Joseph M. Reagle Jr.") == "Joseph M. Reagle Jr."


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # a part that itself ends in initials is a whole name, not a surname: two authors
        ("Zhang W., Rossi M.", ("Zhang W.", "Rossi M.")),
        ("Zhang W, Rossi M", ("Zhang W", "Rossi M")),  # Vancouver, as PubMed cites
        ("Smith J.A., Doe B.", ("Smith J.A.", "Doe B.")),
        ("Serre J.-P., Doe B.", ("Serre J.-P.", "Doe B.")),
        ("Serre J-P, Doe B", ("Serre J-P", "Doe B")),
        ("LEE JH, KIM S", ("LEE JH", "KIM S")),
        ("Kim S., Lee J., Park H.", ("Kim S.", "Lee J.", "Park H.")),
        # a Chinese, Japanese or Korean name is one word: never a surname, never initials
        ("张伟, 李华", ("张伟", "李华")),
        ("张伟, 李华, 王芳, 赵敏", ("张伟", "李华", "王芳", "赵敏")),
        ("张伟，李华、王芳", ("张伟", "李华", "王芳")),
        ("김민수, 이영희", ("김민수", "이영희")),
        # "Last, First" and "Last, Initials" as before
        ("Smith, J.", ("J. Smith",)),
        ("Smith, AB, Doe, CD", ("AB Smith", "CD Doe")),
        ("van der Berg, C.", ("C. van der Berg",)),
        ("Müller, Ph., Schmidt, K.", ("Ph. Müller", "K. Schmidt")),
    ],
)
def test_names_written_surname_first_with_initials_are_each_an_author(
    written: str, names: tuple[str, ...]
) -> None:
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Smith, M.D., Ph.D., and John Doe, M.D.", ("Jane Smith", "John Doe")),
        (
            "Jane Smith, M.D., John Doe, Ph.D., and Ann Lee, M.P.H.",
            ("Jane Smith", "John Doe", "Ann Lee"),
        ),
        ("Jane Smith, MD, PhD; John Doe, MPH", ("Jane Smith", "John Doe")),
        ("Jane Smith, RN, MSc, and John Doe, DPhil, FRS", ("Jane Smith", "John Doe")),
        ("Wei Zhang, Ph.D., Maria Rossi, MBBS", ("Wei Zhang", "Maria Rossi")),
        ("Jane Smith, Dr., John Doe", ("Jane Smith", "John Doe")),
        # initials that look like a degree stay initials in a "Last, Initials" list
        ("Smith, M.D., Doe, J.", ("M.D. Smith", "J. Doe")),
        ("García Márquez, M.A., Smith, J.", ("M.A. García Márquez", "J. Smith")),
        ("Smith, MD", ("MD Smith",)),
        ("Müller, Ph. D., Schmidt, K.", ("Ph. D. Müller", "K. Schmidt")),
        ("Smith, Ed D.", ("Ed D. Smith",)),
        ("Smith, DR", ("DR Smith",)),
    ],
)
def test_degrees_are_no_authors(written: str, names: tuple[str, ...]) -> None:
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "Ada Lovelace\nAlan Turing\nGrace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        ("Smith, John\r\nDoe, Jane\n", ("John Smith", "Jane Doe")),
        (
            "Kukla, D., Crampton, A.\nWood, D., Khetani, S.",
            ("D. Kukla", "A. Crampton", "D. Wood", "S. Khetani"),
        ),
        ("张伟\n李华", ("张伟", "李华")),
        # one name or one list wrapped over lines stays as it was
        ("Lovelace,\n Ada", ("Ada Lovelace",)),
        ("John\n Smith", ("John Smith",)),
        ("Joseph M.\n Reagle Jr.", ("Joseph M. Reagle Jr.",)),
        ("Maldacena, Juan\n Martin and Ayan, Burcu", ("Juan Martin Maldacena", "Burcu Ayan")),
        ("Lovelace, Ada and\n Turing, Alan", ("Ada Lovelace", "Alan Turing")),
        ("Jan van\n der Berg, Ada Lovelace", ("Jan van der Berg", "Ada Lovelace")),
        ("Smith, John and van der\n Berg, Jan", ("John Smith", "Jan van der Berg")),
    ],
)
def test_a_line_break_parts_names_only_when_each_line_is_whole_names(
    written: str, names: tuple[str, ...]
) -> None:
    assert split(written) == names
    assert split([written]) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # one line that is no whole name is a name of its own; the other lines stay apart
        (
            "Najeebullah\nMaaz Salman\nZar Nawab Khan Swati",
            ("Najeebullah", "Maaz Salman", "Zar Nawab Khan Swati"),
        ),
        (
            "Zirui He\nHaiyan Zhao\nAli Payani\nMengnan du",
            ("Zirui He", "Haiyan Zhao", "Ali Payani", "Mengnan du"),
        ),
        ("Ada Lovelace\nMengnan du\nAli Payani", ("Ada Lovelace", "Mengnan du", "Ali Payani")),
        ("Rajinder Singh\nDiwaker\nSumit Kumar", ("Rajinder Singh", "Diwaker", "Sumit Kumar")),
        ("OpenAI\n:\nSam Altman\nGreg Brockman", ("OpenAI", "Sam Altman", "Greg Brockman")),
        (
            "Essential AI\n:\nSam Altman\nGreg Brockman",
            ("Essential AI", "Sam Altman", "Greg Brockman"),
        ),
        ("Jong Kim\nYoung-Jun_Lee\nHo-Jin Choi", ("Jong Kim", "Young-Jun_Lee", "Ho-Jin Choi")),
        # a list's mark at a line's end or start runs the lines on, the rest stay apart
        (
            "Shijie Lian\nLaurence Tianruo Yang and\nMengyu Ren\nHua Li",
            ("Shijie Lian", "Laurence Tianruo Yang", "Mengyu Ren", "Hua Li"),
        ),
        (
            "Ada Lovelace\nAlan Turing\nand Grace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        (
            "Ada Lovelace\nTuring,\nAlan\nGrace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        # a piece of a neighbour's name joins it
        (
            "Ada Lovelace\nJan van\nder Berg\nAlan Turing",
            ("Ada Lovelace", "Jan van der Berg", "Alan Turing"),
        ),
        (
            "Ada Lovelace\nJoseph M.\nReagle Jr.\nAlan Turing",
            ("Ada Lovelace", "Joseph M. Reagle Jr.", "Alan Turing"),
        ),
        ("Qi He\nYi R.\nFung\nHeng Ji", ("Qi He", "Yi R. Fung", "Heng Ji")),
        # with fewer than two whole lines, the lines are one name or list wrapped, as before
        ("Juan Martin\nMaldacena", ("Juan Martin Maldacena",)),
        ("Ada\nLovelace\nAlan Turing", ("Ada Lovelace Alan Turing",)),
    ],
)
def test_a_line_that_is_no_whole_name_keeps_the_others_apart(
    written: str, names: tuple[str, ...]
) -> None:
    """reg32 F4: one such line had made every author of the field one name."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "Pérez-García, María José; Rodríguez de la Fuente, Juan Carlos",
            ("María José Pérez-García", "Juan Carlos Rodríguez de la Fuente"),
        ),
        (
            "Lovelace, Ada and Rodríguez de la Fuente, Juan Carlos",
            ("Ada Lovelace", "Juan Carlos Rodríguez de la Fuente"),
        ),
        ("Bueno de Mesquita, Bruce; Smith, J.", ("Bruce Bueno de Mesquita", "J. Smith")),
        ("de la Fuente JC, Pérez-García MJ", ("de la Fuente JC", "Pérez-García MJ")),
        ("van der Berg J, de Vries K", ("van der Berg J", "de Vries K")),
        ("Doe, Jane, MD", ("Jane Doe",)),
        ("Doe, Jane, MD, PhD; Roe, Richard, RN", ("Jane Doe", "Richard Roe")),
        ("Lee J, MD", ("Lee J",)),
        ("Lee J, MD, Kim S, MPH", ("Lee J", "Kim S")),
        ("van der Berg, Jan, MD", ("Jan van der Berg",)),
        # a whole-name list and initials that look like degrees read as before
        (
            "Ada Lovelace, Alan Turing and Grace Hopper",
            ("Ada Lovelace", "Alan Turing", "Grace Hopper"),
        ),
        ("Vincent van Gogh, Ada Lovelace", ("Vincent van Gogh", "Ada Lovelace")),
    ],
)
def test_surnames_of_several_words_and_degrees_after_last_first(
    written: str, names: tuple[str, ...]
) -> None:
    """reg32 F5: "Rodríguez de la Fuente, Juan Carlos" had made two authors, "de la Fuente JC,
    Pérez-García MJ" one, "Doe, Jane, MD" three and "Lee J, MD" "MD Lee J"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # a degree after a name with no comma before it goes, and the names stay two
        ("Jane Doe PhD, John Smith MD", ("Jane Doe", "John Smith")),
        ("Doe JA PhD, Smith J MD", ("Doe JA", "Smith J")),
        ("Jane Doe MD, John Smith", ("Jane Doe", "John Smith")),
        ("Ann Lee MSc; Bo Kim FRCP", ("Ann Lee", "Bo Kim")),
        ("Jane Doe MD PhD and John Smith RN", ("Jane Doe", "John Smith")),
        ("Jane Doe PhD", ("Jane Doe",)),
        # a degree that may be initials stays them in a Vancouver list, as does a short name's
        ("García Márquez MD, Smith J", ("García Márquez MD", "Smith J")),
        ("Smith MD, Doe J", ("Smith MD", "Doe J")),
        # a Chinese, Japanese or Korean name after a comma is a whole name, never given names
        ("Wei Zhang, 李华", ("Wei Zhang", "李华")),
        ("Ada Lovelace, 김민수, 李华", ("Ada Lovelace", "김민수", "李华")),
        # "Last, First" pairs whose surnames hold particles, in commas alone
        ("van der Berg, Jan, de la Cruz, Maria", ("Jan van der Berg", "Maria de la Cruz")),
        (
            "van der Berg, Jan Willem, Lovelace, Ada, de Vries, Karel",
            ("Jan Willem van der Berg", "Ada Lovelace", "Karel de Vries"),
        ),
        ("He, Zirui, Payani, Ali, du, Mengnan", ("Zirui He", "Ali Payani", "Mengnan du")),
        # one-word parts with no particle's surname stay as they were: names of one word each
        ("Najeebullah, Diwaker, Sumit, Rajinder", ("Najeebullah", "Diwaker", "Sumit", "Rajinder")),
        (
            "de Vries K, van der Berg J, Smith A, Doe B",
            ("de Vries K", "van der Berg J", "Smith A", "Doe B"),
        ),
        # a by-line written into the field
        ("By Jane Doe and John Smith", ("Jane Doe", "John Smith")),
        ("by J. Doe, A. Smith", ("J. Doe", "A. Smith")),
        ("By Chen", ("By Chen",)),
        # titles before a name and affiliation marks after it
        ("Dr. Jane Doe, Prof. John Smith", ("Jane Doe", "John Smith")),
        ("Prof. Dr. Jan Berg and Dr Alistair Baron", ("Jan Berg", "Alistair Baron")),
        ("Doe, Dr. Jane", ("Jane Doe",)),
        ("Jane Doe1, John Smith2", ("Jane Doe", "John Smith")),
        ("Jane Doe1,2, John Smith2", ("Jane Doe", "John Smith")),
        ("Jane Doe*, John Smith†", ("Jane Doe", "John Smith")),
        ("Jane Doe¹², A. Rigby3 and Yi-Fan Zhang‡", ("Jane Doe", "A. Rigby", "Yi-Fan Zhang")),
        ("Zhang†, Y., Fu, C.", ("Y. Zhang", "C. Fu")),
        # a team's or a model's digits are its name
        ("Team Hunyuan3D, Team Qwen2, GPT-5", ("Team Hunyuan3D", "Team Qwen2", "GPT-5")),
        ("IceCube-Gen2 Collaboration", ("IceCube-Gen2 Collaboration",)),
    ],
)
def test_degrees_titles_marks_and_mixed_lists_leave_each_author_alone(
    written: str, names: tuple[str, ...]
) -> None:
    """reg35 F1, F2, F3, F4, F9: "Jane Doe PhD, John Smith MD" had been one reversed name, as
    had "Wei Zhang, 李华"; "van der Berg, Jan, de la Cruz, Maria" four; "By Jane Doe" and "Dr.
    Jane Doe", "Doe1", "Doe*" no followed Jane Doe."""
    assert split(written) == names
    assert split([written]) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # a surname in capitals beside a "First Last" name: two authors, degrees or none
        ("John Smith MD, Jane DOE PhD", ("John Smith", "Jane DOE")),
        ("John SMITH PhD, Jane DOE MD", ("John SMITH", "Jane DOE")),
        ("John SMITH, Jane DOE PhD", ("John SMITH", "Jane DOE")),
        ("John Smith, Jane DOE", ("John Smith", "Jane DOE")),
        ("John SMITH MD, Wei LI", ("John SMITH", "Wei LI")),
        ("Lingjun Zhao, Hal Daumé III", ("Lingjun Zhao", "Hal Daumé III")),
        ("John Smith, Doe JA", ("John Smith", "Doe JA")),  # Vancouver's beside it: whole too
        # as before: one letter or dotted initials after given names; Vancouver lists
        ("Smith, John A", ("John A Smith",)),
        ("Reagle, Joseph M.", ("Joseph M. Reagle",)),
        ("Anna LEE MD, Paul KIM PhD", ("Anna LEE", "Paul KIM")),
        ("García Márquez MD, Smith J", ("García Márquez MD", "Smith J")),
        ("LEE JH, KIM S", ("LEE JH", "KIM S")),
    ],
)
def test_a_surname_in_capitals_is_no_initials_beside_a_whole_name(
    written: str, names: tuple[str, ...]
) -> None:
    """reg37 F3: "John Smith MD, Jane DOE PhD" had been one reversed name, "Jane DOE John
    Smith", its "DOE" read as the initials of a "Last, First M" name."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jean DUPONT1, Marie CURIE2", ("Jean DUPONT", "Marie CURIE")),
        ("Jane Doe 1, John Smith 2", ("Jane Doe", "John Smith")),
        ("Jane Doe 1,2, John Smith 12", ("Jane Doe", "John Smith")),
        ("Jane Doe#, John Smith#", ("Jane Doe", "John Smith")),
        ("Jane Doe✉, John Smith ✉️", ("Jane Doe", "John Smith")),
        ("Jane Doe⁎, John Smith∗", ("Jane Doe", "John Smith")),
        ("Jane Doe$^{1}$, John Smith$^{2}$", ("Jane Doe", "John Smith")),
        ("Jane Doe$^{1,2}$ and John Smith$^\\dagger$", ("Jane Doe", "John Smith")),
        ("Jane Doe\\textsuperscript{a}, John Smith1*", ("Jane Doe", "John Smith")),
        ("Jane Doe #1, John Smith1 PhD", ("Jane Doe", "John Smith")),
        # digits that are a name's own stay: a team's, a model's, three or more
        ("Team Qwen2, GPT-5, Jane Doe123", ("Team Qwen2", "GPT-5", "Jane Doe123")),
    ],
)
def test_every_affiliation_mark_leaves_the_name(written: str, names: tuple[str, ...]) -> None:
    """reg37 F4: only "Doe1", "Doe*", "Doe†" and "Doe¹" had gone: "Jean DUPONT1", "Jane Doe 1",
    "Jane Doe#" and "Jane Doe✉" were no followed Jane Doe."""
    assert split(written) == names
    assert split(written.replace(", ", "\n")) == names


def test_any_run_of_marks_is_read_in_linear_time() -> None:
    for tail in ("1*" * 50_000 + "b", "*" * 100_000 + "c", " 1" * 50_000 + "x", "$^" * 50_000):
        assert split("Jane Doe" + tail)  # seconds each had they been tried every way


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Van der Berg, Jan, De la Cruz, Maria", ("Jan Van der Berg", "Maria De la Cruz")),
        ("De Groot, Anna, Van Dijk, Bram", ("Anna De Groot", "Bram Van Dijk")),
        ("Van der Berg, Jan W., Le Roux, A.", ("Jan W. Van der Berg", "A. Le Roux")),
        ("Van der Berg, Jan", ("Jan Van der Berg",)),
        # whole names that a capital's particle leads stay whole
        (
            "Al Gore, Bill Clinton, Van Morrison, Jim Morrison",
            ("Al Gore", "Bill Clinton", "Van Morrison", "Jim Morrison"),
        ),
    ],
)
def test_a_particle_with_a_capital_leads_a_surname_in_pairs(
    written: str, names: tuple[str, ...]
) -> None:
    """reg37 F5: "Van der Berg, Jan, De la Cruz, Maria" had made four authors."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe1, John A. LEE2", ("Jane Doe", "John A. LEE")),
        ("Xin ZHANG, Robby T. TAN", ("Xin ZHANG", "Robby T. TAN")),
        ("Hajar SAKAI1, Sarah S. LAM2", ("Hajar SAKAI", "Sarah S. LAM")),
        ("Abhi KAMBOJ, Minh N. DO", ("Abhi KAMBOJ", "Minh N. DO")),
        ("Abhi KAMBOJ1 and Minh N. DO2", ("Abhi KAMBOJ", "Minh N. DO")),
        (
            "Nhung T. T. NGUYEN, Anh T. NGO and Trinh X. HOANG",
            ("Nhung T. T. NGUYEN", "Anh T. NGO", "Trinh X. HOANG"),
        ),
        ("Jane Doe, Lev TAL-OR", ("Jane Doe", "Lev TAL-OR")),
        # still "Last, First M" and degrees after initials
        ("Reagle, Joseph M.", ("Joseph M. Reagle",)),
        ("Doe, Jean J-P", ("Jean J-P Doe",)),
        ("Rakshitha R. T. MD, John Smith PhD", ("Rakshitha R. T.", "John Smith")),
    ],
)
def test_a_given_name_and_initials_before_capitals_are_a_whole_name(
    written: str, names: tuple[str, ...]
) -> None:
    """reg39 F1: "Jane Doe1, John A. LEE2" had been one reversed name, "John A. LEE Jane Doe"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "BY CATALIN D. SPATARU, WEI PAN AND ALEXANDER CERJAN",
            ("CATALIN D. SPATARU", "WEI PAN", "ALEXANDER CERJAN"),
        ),
        ("AAMIR MEHMOOD, YUE HU", ("AAMIR MEHMOOD", "YUE HU")),
        ("ANH T. NGO, KAI HU", ("ANH T. NGO", "KAI HU")),
        ("SMITH, JOHN AND DOE, JANE", ("JOHN SMITH", "JANE DOE")),
        ("ZHANG W, ROSSI M", ("ZHANG W", "ROSSI M")),
    ],
)
def test_in_capitals_alone_case_says_nothing(written: str, names: tuple[str, ...]) -> None:
    """reg39 F2: "CATALIN D. SPATARU, WEI PAN" had been one name, "WEI PAN CATALIN D. SPATARU"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Yuhang Ai 1, Bo Li 2", ("Yuhang Ai", "Bo Li")),
        ("Yuhang Ai 1,2", ("Yuhang Ai",)),
        ("Pei Ai 3", ("Pei Ai",)),
        ("Sakana AI 2, Bo Li 1", ("Sakana AI 2", "Bo Li")),
        ("Qwen Team 2", ("Qwen Team 2",)),
    ],
)
def test_the_surname_ai_loses_its_mark(written: str, names: tuple[str, ...]) -> None:
    """reg39 F6: "Ai" had been read as a team's "AI", whose digits are its own."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Harsha KG\nRithanya V", ("Harsha KG", "Rithanya V")),
        ("Konstantin Todorov\nVenktesh V", ("Konstantin Todorov", "Venktesh V")),
        ("Amaya Gallagher-Syed\nHenry Senior", ("Amaya Gallagher-Syed", "Henry Senior")),
        ("Joseph M.\nReagle Jr.", ("Joseph M. Reagle Jr.",)),
        ("Ada Lovelace\nJoseph M.\nReagle Jr.", ("Ada Lovelace", "Joseph M. Reagle Jr.")),
    ],
)
def test_a_line_ending_in_an_initial_or_senior_is_a_name_of_its_own(
    written: str, names: tuple[str, ...]
) -> None:
    """reg39 F7: "V" and "Senior" had been a suffix that runs on the line before."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe, Ana B. DO", ("Jane Doe", "Ana B. DO")),
        ("Jane Roe, Mary A. MA", ("Jane Roe", "Mary A. MA")),
        ("Minh N. DO", ("Minh N. DO",)),
        ("Wei PAN, Minh N. DO", ("Wei PAN", "Minh N. DO")),
        ("Jane Doe, J. A. MA", ("Jane Doe", "J. A. MA")),
        # no other name of the list carries a degree: a name's last letters are its surname
        ("Jane DOE, Rakshitha R. T. MD", ("Jane DOE", "Rakshitha R. T. MD")),
        ("Minh N. DO PhD, Jane Doe MD", ("Minh N. DO", "Jane Doe")),
        # the list's other names carry degrees: the one after initials is a degree too
        ("Jane Doe MD, Rakshitha R. T. MD", ("Jane Doe", "Rakshitha R. T.")),
        ("Rakshitha R. T. MD, John Smith PhD", ("Rakshitha R. T.", "John Smith")),
        ("Jane Doe MD, John Smith PhD", ("Jane Doe", "John Smith")),
        ("Doe JA MD, Smith J", ("Doe JA", "Smith J")),
    ],
)
def test_a_degrees_letters_after_a_given_name_and_initials_are_the_surname(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F3: "Jane Doe, Ana B. DO" had lost its DO as a degree and become one reversed name,
    "Ana B. Jane Doe"; "Jane Doe MD, Rakshitha R. T. MD" had become "Rakshitha R. T. Jane Doe"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "Xiaoxuan WANG, Mingyu Derek MA, Wei WANG",
            ("Xiaoxuan WANG", "Mingyu Derek MA", "Wei WANG"),
        ),
        ("Darshi SHAH, Shin Won DO", ("Darshi SHAH", "Shin Won DO")),
        ("Mingyu Derek MA MD, Wei WANG PhD", ("Mingyu Derek MA", "Wei WANG")),
        ("Darshi SHAH\nShin Won DO", ("Darshi SHAH", "Shin Won DO")),
        # in capitals alone every surname is in capitals: its list's other names carry no degree
        (
            "XIAOXUAN WANG, MINGYU DEREK MA, WEI WANG",
            ("XIAOXUAN WANG", "MINGYU DEREK MA", "WEI WANG"),
        ),
        ("ABHI KAMBOJ\nHYO JIN DO", ("ABHI KAMBOJ", "HYO JIN DO")),
        ("JANE DOE MD, JOHN SMITH MD", ("JANE DOE", "JOHN SMITH")),
        ("JANE DOE, MD, JOHN SMITH, PHD", ("JANE DOE", "JOHN SMITH")),
        ("JOHN SMITH MD", ("JOHN SMITH",)),
        ("Jane DOE MD, John SMITH PhD", ("Jane DOE", "John SMITH")),
    ],
)
def test_in_a_list_of_capitals_surnames_the_last_capitals_word_is_the_surname(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F4: "Mingyu Derek MA" beside "Xiaoxuan WANG" had lost its MA as a degree."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("ABHI KAMBOJ, MINH N. DO", ("ABHI KAMBOJ", "MINH N. DO")),
        ("MINH N. DO, ABHI KAMBOJ", ("MINH N. DO", "ABHI KAMBOJ")),
        ("JANE DOE, ANA B. DO, WEI PAN", ("JANE DOE", "ANA B. DO", "WEI PAN")),
        ("Abhi KAMBOJ\nMinh N. DO", ("Abhi KAMBOJ", "Minh N. DO")),
        ("JANE DOE MD, JOHN ROE PHD, ANA B. MD", ("JANE DOE", "JOHN ROE", "ANA B.")),
    ],
)
def test_in_capitals_alone_a_degrees_letters_after_initials_are_the_surname(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F5: "ABHI KAMBOJ, MINH N. DO" had been one reversed name, "MINH N. ABHI KAMBOJ"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe, J. A. LEE", ("Jane Doe", "J. A. LEE")),
        ("Jane Doe, J. LEE", ("Jane Doe", "J. LEE")),
        ("Jane Doe, J.-P. LEE", ("Jane Doe", "J.-P. LEE")),
        ("A. SMITH, Z. LI and L. KUHN", ("A. SMITH", "Z. LI", "L. KUHN")),
        ("Jane Doe, Z. LI and L. KUHN", ("Jane Doe", "Z. LI", "L. KUHN")),
        ("Lee, J. A.", ("J. A. Lee",)),
        ("Smith, J. A. and Doe, J.", ("J. A. Smith", "J. Doe")),
    ],
)
def test_dotted_initials_then_capitals_are_a_whole_name(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F6: "Jane Doe, J. A. LEE" had been read as "Last, First", "J. A. LEE Jane Doe"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "Sriram Mandalika, Lalitha V and Athira Nambiar",
            ("Sriram Mandalika", "Lalitha V", "Athira Nambiar"),
        ),
        ("Xin ZHANG, Harsha KG and Wei PAN", ("Xin ZHANG", "Harsha KG", "Wei PAN")),
        # BibTeX's given names are dotted; a "Last, First" piece beside a whole name stays one
        ("Rodríguez Fuente, Juan C. and Jane Doe", ("Juan C. Rodríguez Fuente", "Jane Doe")),
        ("Lovelace, Ada and Alan Turing", ("Ada Lovelace", "Alan Turing")),
    ],
)
def test_a_name_ending_in_an_initial_in_an_and_list_is_a_name_of_its_own(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F7: "Sriram Mandalika, Lalitha V and …" had made "Lalitha V Sriram Mandalika"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Roberto M. Cesar Jr.3, Jane Doe1", ("Roberto M. Cesar Jr.", "Jane Doe")),
        ("Roberto M. Cesar Jr. 3, Jane Doe 1", ("Roberto M. Cesar Jr.", "Jane Doe")),
        ("Rakshitha R. T.3, Jane Doe1", ("Rakshitha R. T.", "Jane Doe")),
        ("Jane Doe1, Rakshitha R. T.2", ("Jane Doe", "Rakshitha R. T.")),
        ("Jane Doe*, Rakshitha R. T.†", ("Jane Doe", "Rakshitha R. T.")),
        ("Smith J.1, Doe A.2", ("Smith J.", "Doe A.")),
        ("Zhang†, Yi-Fan; Fu, Chaoyou", ("Yi-Fan Zhang", "Chaoyou Fu")),
    ],
)
def test_a_mark_after_a_dot_goes(written: str, names: tuple[str, ...]) -> None:
    """reg41 F8: "Jr.3" and "T.†" had kept their marks ("Roberto M. Cesar Jr.3")."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (
            "Jane DOE MD, Rakshitha R. T. MD, John SMITH PhD",
            ("Jane DOE", "Rakshitha R. T.", "John SMITH"),
        ),
        ("Xin ZHANG, Robby T. TAN MD, Jane DOE MD", ("Xin ZHANG", "Robby T. TAN", "Jane DOE")),
        ("Jane DOE MD\nRakshitha R. T. MD", ("Jane DOE", "Rakshitha R. T.")),
        ("Jane Doe MD\nRakshitha R. T. MD", ("Jane Doe", "Rakshitha R. T.")),
    ],
)
def test_in_a_capitals_list_that_writes_degrees_one_after_initials_is_a_degree(
    written: str, names: tuple[str, ...]
) -> None:
    """reg41 F9: "Rakshitha R. T. MD" beside "Jane DOE MD" had kept its MD as a surname."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe, John Smith Jr.2", ("Jane Doe", "John Smith Jr.")),
        ("Jane Doe, John Smith Sr.*", ("Jane Doe", "John Smith Sr.")),
        ("Jane Doe, John Smith Jr. 2", ("Jane Doe", "John Smith Jr.")),
        # a given name and initials after a whole name: a mark after each part (reg43 F1)
        ("Jane Doe1, Rakshitha R. T.2", ("Jane Doe", "Rakshitha R. T.")),
        ("Jane Doe*, Rakshitha R.T.†", ("Jane Doe", "Rakshitha R.T.")),
        ("Jane Doe1, Ravi V.2", ("Jane Doe", "Ravi V.")),
        ("Jane Doe, Roberto M. Cesar Jr.3", ("Jane Doe", "Roberto M. Cesar Jr.")),
        ("Jane Doe, John Smith Jr.2 and Ana Lee", ("Jane Doe", "John Smith Jr.", "Ana Lee")),
        ("Jane Doe1, R. T.3", ("Jane Doe", "R. T.")),
        # a mark after the given names of one "Last, First" name is no second name
        ("Doe, Jane A.*", ("Jane A. Doe",)),
        ("García Márquez, Gabriel*", ("Gabriel García Márquez",)),
        ("van der Berg, Jan A.2", ("Jan A. van der Berg",)),
    ],
)
def test_a_mark_on_a_later_name_keeps_two_whole_names_apart(
    written: str, names: tuple[str, ...]
) -> None:
    """reg42 F6: with the mark after "Jr.2" gone, "Jane Doe, John Smith Jr.2" had been read as
    "Last, First", one reversed name ("John Smith Jr. Jane Doe")."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (["Darshi SHAH", "Shin Won DO"], ("Darshi SHAH", "Shin Won DO")),
        (
            ["Xiaoxuan WANG", "Mingyu Derek MA", "Wei WANG"],
            ("Xiaoxuan WANG", "Mingyu Derek MA", "Wei WANG"),
        ),
        (["ABHI KAMBOJ", "MINGYU DEREK MA"], ("ABHI KAMBOJ", "MINGYU DEREK MA")),
        (["Abhi KAMBOJ1", "Minh N. DO2"], ("Abhi KAMBOJ", "Minh N. DO")),
        (["Jane DOE MD", "Rakshitha R. T. MD"], ("Jane DOE", "Rakshitha R. T.")),
        (["Jane Doe MD", "John Smith PhD"], ("Jane Doe", "John Smith")),
        (["Doe, Jane", "Ma, Wei"], ("Jane Doe", "Wei Ma")),
    ],
)
def test_names_one_per_element_are_read_in_their_lists_context(
    written: list[str], names: tuple[str, ...]
) -> None:
    """reg42 F7: an Atom feed's <author> elements and a JSONL list had been split one name alone,
    so "Shin Won DO" beside "Darshi SHAH" had lost its DO, as one string of them no longer did."""
    assert split(written) == names
    assert split(written) == split("\n".join(written))


@pytest.mark.parametrize(
    ("written", "names"),
    [
        # in a longer list (a lone pair is one "Last, First M" name: reg43 F1)
        ("Priya Raman, Ravi V and Ana Lee", ("Priya Raman", "Ravi V", "Ana Lee")),
        ("Jane Doe, Priya Raman, Ravi V", ("Jane Doe", "Priya Raman", "Ravi V")),
        ("Jane Doe, Rekha B S and Ana Lee", ("Jane Doe", "Rekha B S", "Ana Lee")),
        ("Rasha SINHA, Rekha B S", ("Rasha SINHA", "Rekha B S")),
        ("Ravi V, Jane Doe", ("Ravi V", "Jane Doe")),
        # one "Last, First" name: a one-word surname, or a particle's
        ("Reagle, Joseph M", ("Joseph M Reagle",)),
        ("van der Berg, Jan W", ("Jan W van der Berg",)),
        ("Doe, J", ("J Doe",)),
    ],
)
def test_two_whole_names_the_second_ending_in_an_undotted_initial_stay_two(
    written: str, names: tuple[str, ...]
) -> None:
    """reg42 F8: "Priya Raman, Ravi V" had been one reversed name, "Ravi V Priya Raman"; only
    the "A, B and C" list had kept such names apart."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Ngoc Tuyen DO, Tri Nhu DO", ("Ngoc Tuyen DO", "Tri Nhu DO")),
        ("Ngoc Tuyen DO and Tri Nhu DO", ("Ngoc Tuyen DO", "Tri Nhu DO")),
        ("Ngoc Tuyen DO\nTri Nhu DO", ("Ngoc Tuyen DO", "Tri Nhu DO")),
        ("Ngoc Tuyen DO; Tri Nhu DO", ("Ngoc Tuyen DO", "Tri Nhu DO")),
        ("Ngoc Tuyen DO1, Tri Nhu DO2", ("Ngoc Tuyen DO", "Tri Nhu DO")),
        ("NGOC TUYEN DO, TRI NHU DO", ("NGOC TUYEN DO", "TRI NHU DO")),
        ("BY NGOC TUYEN DO AND TRI NHU DO", ("NGOC TUYEN DO", "TRI NHU DO")),
        ("Mingyu Derek MA, Shin Won DO, Wei LI", ("Mingyu Derek MA", "Shin Won DO", "Wei LI")),
        (["Ngoc Tuyen DO", "Tri Nhu DO"], ("Ngoc Tuyen DO", "Tri Nhu DO")),
        # a list that writes degrees keeps them degrees, DO and MA too
        ("Jane Doe MD, John Smith MD", ("Jane Doe", "John Smith")),
        ("Jane Doe DO, John Smith MD", ("Jane Doe", "John Smith")),
        ("Jane Doe MA, John Smith PhD", ("Jane Doe", "John Smith")),
        ("Jane Doe, John Smith DO", ("Jane Doe", "John Smith")),
        ("JANE DOE MD, JOHN SMITH MD", ("JANE DOE", "JOHN SMITH")),
    ],
)
def test_a_list_whose_capitals_surnames_all_spell_a_degree_keeps_them(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg42 F9: "Ngoc Tuyen DO, Tri Nhu DO" had lost both surnames, each DO counted as a degree
    that the other name's DO confirmed."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (["C. HANHART MD"], ("C. HANHART",)),
        (["Jane Doe MD"], ("Jane Doe",)),
    ],
)
def test_a_name_alone_in_a_list_is_read_as_the_same_string(
    written: list[str], names: tuple[str, ...]
) -> None:
    """A list of one name has no context: it is split as the one string."""
    assert split(written) == names == split(written[0])


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Garcia Lopez, Maria J", ("Maria J Garcia Lopez",)),
        ("Lloyd Webber, Andrew J", ("Andrew J Lloyd Webber",)),
        ("De Sousa Costa, Ana M", ("Ana M De Sousa Costa",)),
        ("Garcia Lopez, M J", ("M J Garcia Lopez",)),
        ("Garcia Lopez, Maria J.2", ("Maria J. Garcia Lopez",)),
        ("By Garcia Lopez, Maria J", ("Maria J Garcia Lopez",)),
        # a particle written with a capital
        ("Le Roux, Pierre A", ("Pierre A Le Roux",)),
        ("Da Silva, Ana P", ("Ana P Da Silva",)),
        ("Van der Berg, Jan V", ("Jan V Van der Berg",)),
        ("Van Dijk, Bram V.2", ("Bram V. Van Dijk",)),
        # a mark after the surname alone
        ("Garcia Lopez1, J.", ("J. Garcia Lopez",)),
        ("Zhang Wei1, Y. L.", ("Y. L. Zhang Wei",)),
        ("Garcia Lopez†, M., Doe‡, J.", ("M. Garcia Lopez", "J. Doe")),
        (["Garcia Lopez, Maria J", "Roe, Jane A"], ("Maria J Garcia Lopez", "Jane A Roe")),
        # alike by shape, so one name too: a list shows two ("Priya Raman, Ravi V and Ana Lee")
        ("Priya Raman, Ravi V", ("Ravi V Priya Raman",)),
        # whole names the second part plainly is stay two
        ("Jane Doe, John Smith Jr.2", ("Jane Doe", "John Smith Jr.")),
        ("Jane Doe, van Dijk B", ("Jane Doe", "van Dijk B")),
        ("Rasha SINHA, Rekha B S", ("Rasha SINHA", "Rekha B S")),
        ("Jane Doe1, R. T.3", ("Jane Doe", "R. T.")),
        # the list shows whole names: titles, "LAST First", Vancouver's initials (corpus lists)
        ("Prof. Rasha Sinha, Dr. Rekha B S", ("Rasha Sinha", "Rekha B S")),
        ("SINGH Sehajdeep, SUBRAMANYAM A V", ("SINGH Sehajdeep", "SUBRAMANYAM A V")),
        ("Miltenburg Ev, Lin C", ("Miltenburg Ev", "Lin C")),
        ("Souza JMSd, Quartin M", ("Souza JMSd", "Quartin M")),
    ],
)
def test_a_lone_last_first_pair_with_a_two_word_surname_is_one_name(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg43 F1: "Garcia Lopez, Maria J" had been two names, "Garcia Lopez" and "Maria J", since
    a two-word first part and a given name with an undotted initial were read as whole names."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe MA, John Smith MA", ("Jane Doe", "John Smith")),
        ("John Smith MA, Jane Doe MA, Ana Lee MA", ("John Smith", "Jane Doe", "Ana Lee")),
        ("Jane Doe BA, John Smith BA", ("Jane Doe", "John Smith")),
        ("Jane Doe MA1, John Smith MA2", ("Jane Doe", "John Smith")),
        (["Jane Doe MA", "John Smith MA"], ("Jane Doe", "John Smith")),
        # surnames still: after one given name, beside a DO, or a capitals surname elsewhere
        ("Wei MA, Jing MA", ("Wei MA", "Jing MA")),
        ("Nguyen Van DO, Tran Thi MA", ("Nguyen Van DO", "Tran Thi MA")),
        ("Mingyu Derek MA, Wei LI", ("Mingyu Derek MA", "Wei LI")),
        (["Xiaoxuan WANG", "Mingyu Derek MA"], ("Xiaoxuan WANG", "Mingyu Derek MA")),
    ],
)
def test_a_degree_every_name_ends_in_after_a_whole_name_is_a_degree(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg43 F2: "Jane Doe MA, John Smith MA" had kept each MA as a surname in capitals."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        (["C. HANHART MD", "J. DOE"], ("C. HANHART", "J. DOE")),
        (["J. DOE", "C. HANHART MD"], ("J. DOE", "C. HANHART")),
        (["JANE DOE MD", "JOHN SMITH"], ("JANE DOE", "JOHN SMITH")),
        ("C. HANHART MD, J. DOE", ("C. HANHART", "J. DOE")),
        ("JANE DOE MD, JOHN SMITH", ("JANE DOE", "JOHN SMITH")),
        # letters a surname spells stay one
        ("ABHI KAMBOJ, MINGYU DEREK MA", ("ABHI KAMBOJ", "MINGYU DEREK MA")),
        (["ABHI KAMBOJ", "HYO JIN DO"], ("ABHI KAMBOJ", "HYO JIN DO")),
    ],
)
def test_md_in_a_list_of_capitals_is_a_degree(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg43 F3: "C. HANHART MD" beside "J. DOE" had kept MD, the capitals list reading "C.
    HANHART" as given names with no surname yet; no surname is "MD"."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Acosta, V.", ("V. Acosta",)),
        ("Acosta, V", ("V Acosta",)),
        ("Acosta, V.; Doe, J.", ("V. Acosta", "J. Doe")),
        (["Acosta, V.", "Doe, J."], ("V. Acosta", "J. Doe")),
        ("Acosta, V., Doe, J.", ("V. Acosta", "J. Doe")),
        ("Doe, V., Jr.", ("V. Doe Jr.",)),
        # a roman V after a whole name or given names stays a suffix
        ("John Smith, V", ("John Smith V",)),
        ("Smith, John, V", ("John Smith V",)),
    ],
)
def test_a_lone_v_after_a_surname_is_an_initial(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg43 F7: "Acosta, V." had been "Acosta V.", its initial read as a roman suffix."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Doe, Jane M, Smith, John A", ("Jane M Doe", "John A Smith")),
        ("Doe, Jane A., Smith, John B.", ("Jane A. Doe", "John B. Smith")),
        ("Doe, Jane A.*, Smith, John B.†", ("Jane A. Doe", "John B. Smith")),
        ("Doe, J.1, Smith, J.2", ("J. Doe", "J. Smith")),
        ("Wang, W.1,2, Li, X.3", ("W. Wang", "X. Li")),
        ("Doe, J.1", ("J. Doe",)),
        # whole names, or one-word names alone, stay as they are
        ("Jane Doe, Ravi V, Ana Lee, Wei X", ("Jane Doe", "Ravi V", "Ana Lee", "Wei X")),
        ("Najeebullah, Diwaker, Ana, Wei", ("Najeebullah", "Diwaker", "Ana", "Wei")),
    ],
)
def test_last_first_pairs_with_initials_or_marks_stay_pairs(
    written: str, names: tuple[str, ...]
) -> None:
    """reg43 F6: "Doe, Jane M, Smith, John A" and "Doe, J.1, Smith, J.2" had made four authors,
    two of them given names alone: pairs needed given parts of initials alone, unmarked."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Reagle, V, Joseph M.", ("Joseph M. Reagle V",)),
        ("Gates, V., William H.", ("William H. Gates V.",)),
        ("Smith, V, John", ("John Smith V",)),
        (["Reagle, V, Joseph M."], ("Joseph M. Reagle V",)),
        ("Reagle, V, Joseph M. and Doe, Jane", ("Joseph M. Reagle V", "Jane Doe")),
        ("Reagle, V, Joseph M.; Doe, J.", ("Joseph M. Reagle V", "J. Doe")),
        # as "Jr." and "III" are
        ("Reagle, Jr., Joseph M.", ("Joseph M. Reagle Jr.",)),
        ("Reagle, III, Joseph M.", ("Joseph M. Reagle III",)),
        # a "V." before initials or another suffix, or in a list of pairs, is an initial still
        ("Doe, V., Jr.", ("V. Doe Jr.",)),
        ("Doe, J., Smith, V., Lee, K.", ("J. Doe", "V. Smith", "K. Lee")),
    ],
)
def test_a_v_between_a_surname_and_given_names_is_a_suffix(
    written: str | list[str], names: tuple[str, ...]
) -> None:
    """reg44 F5: "Reagle, V, Joseph M." (BibTeX's "Last, Suffix, First") had made three authors,
    "Reagle", "V" and "Joseph M.", its V read as an initial as "Acosta, V." is."""
    assert split(written) == names


@pytest.mark.parametrize("written", ["Markov, V., S. Gallerani", "Benes, V., M. Svitek"])
def test_a_v_before_a_whole_name_is_no_suffix_of_it(written: str) -> None:
    """reg44 F5: an initial's "V." before a whole name is no "Last, Suffix, First" name's."""
    assert written.split(", ")[-1] in split(written)


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Jane Doe, Ravi V.2 and Ana Lee", ("Jane Doe", "Ravi V.", "Ana Lee")),
        (
            "Jane Doe, Rakshitha R. T.2 and John Smith",
            ("Jane Doe", "Rakshitha R. T.", "John Smith"),
        ),
        (
            "Jane Doe, Rakshitha R. T.* and John Smith",
            ("Jane Doe", "Rakshitha R. T.", "John Smith"),
        ),
        ("Jane Doe, Rakshitha R. T.† & John Smith", ("Jane Doe", "Rakshitha R. T.", "John Smith")),
        ("Jane Doe, Ravi V.2, and Ana Lee", ("Jane Doe", "Ravi V.", "Ana Lee")),
        # a "Last, First" name marked, beside another "Last, First" or alone, stays one
        ("Doe, Jane A.* and Smith, John", ("Jane A. Doe", "John Smith")),
        ("van der Berg, Jan A.2 and Ana Lee", ("Jan A. van der Berg", "Ana Lee")),
        ("Garcia Lopez, Maria J.2 and Doe, Jane", ("Maria J. Garcia Lopez", "Jane Doe")),
    ],
)
def test_a_marked_given_name_and_initials_in_an_and_list_is_a_whole_name(
    written: str, names: tuple[str, ...]
) -> None:
    """reg44 F6: "Jane Doe, Ravi V.2 and Ana Lee" had glued its first two names into one
    reversed name, "Ravi V. Jane Doe": a mark after the second part, which follows a whole name
    and not a "Last, First" name's given part, counted only where the initial was undotted."""
    assert split(written) == names


@pytest.mark.parametrize(
    ("written", "names"),
    [
        ("Le Roux, Pierre A.2 and Ana Lee", ("Pierre A. Le Roux", "Ana Lee")),
        ("De Sousa Costa, Ana M.1 and John Smith", ("Ana M. De Sousa Costa", "John Smith")),
        ("Van Dijk, Bram V.2, and Ana Lee", ("Bram V. Van Dijk", "Ana Lee")),
        ("Di Matteo, Paola M.* and Ana Lee", ("Paola M. Di Matteo", "Ana Lee")),
        ("Al Khatib, Hassan S.2 & Ana Lee", ("Hassan S. Al Khatib", "Ana Lee")),
        ("Della Rosa, Anna M and Ana Lee", ("Anna M Della Rosa", "Ana Lee")),
        ("Le Roux, P and Ana Lee", ("P Le Roux", "Ana Lee")),
        ("DE SOUSA COSTA, ANA M.1 AND JOHN SMITH", ("ANA M. DE SOUSA COSTA", "JOHN SMITH")),
        # a capital's particle that leads given names more often stays a whole name's, as does
        # one joined to the word after it
        ("Bin Li, Ravi V.2 and Ana Lee", ("Bin Li", "Ravi V.", "Ana Lee")),
        ("Da Xu, Ravi V.2 and Ana Lee", ("Da Xu", "Ravi V.", "Ana Lee")),
        ("El-Sayed Ahmed, Ravi V.2 and Ana Lee", ("El-Sayed Ahmed", "Ravi V.", "Ana Lee")),
        ("Jane Doe, Ravi V.2 and Ana Lee", ("Jane Doe", "Ravi V.", "Ana Lee")),
    ],
)
def test_a_particle_with_a_capital_leads_a_surname_before_a_marked_given_name(
    written: str, names: tuple[str, ...]
) -> None:
    """reg45 F3: "Le Roux, Pierre A.2 and Ana Lee" had made three authors, "Le Roux" and "Pierre
    A." among them: only a particle in small letters was read as leading a surname."""
    assert split(written) == names

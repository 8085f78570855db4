"""The analyzer's word lists: English and domain stop words, other languages' function words
(stop words of a text in that language), and words that count only inside a phrase."""

from __future__ import annotations

import re

# scikit-learn's English stop words (sklearn.feature_extraction.text.ENGLISH_STOP_WORDS,
# BSD-3-Clause), copied so that this module, and so the fit's helper process, imports without
# scikit-learn: 0.1 s and 30 MB instead of 1 s and 120 MB. A test holds the two lists equal.
ENGLISH_STOP_WORDS = frozenset(
    """
    a about above across after afterwards again against all almost alone along already also although
    always am among amongst amoungst amount an and another any anyhow anyone anything anyway
    anywhere are around as at back be became because become becomes becoming been before beforehand
    behind being below beside besides between beyond bill both bottom but by call can cannot cant co
    con could couldnt cry de describe detail do done down due during each eg eight either eleven
    else elsewhere empty enough etc even ever every everyone everything everywhere except few
    fifteen fifty fill find fire first five for former formerly forty found four from front full
    further get give go had has hasnt have he hence her here hereafter hereby herein hereupon hers
    herself him himself his how however hundred i ie if in inc indeed interest into is it its itself
    keep last latter latterly least less ltd made many may me meanwhile might mill mine more
    moreover most mostly move much must my myself name namely neither never nevertheless next nine
    no nobody none noone nor not nothing now nowhere of off often on once one only onto or other
    others otherwise our ours ourselves out over own part per perhaps please put rather re same see
    seem seemed seeming seems serious several she should show side since sincere six sixty so some
    somehow someone something sometime sometimes somewhere still such system take ten than that the
    their them themselves then thence there thereafter thereby therefore therein thereupon these
    they thick thin third this those though three through throughout thru thus to together too top
    toward towards twelve twenty two un under until up upon us very via was we well were what
    whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever
    whether which while whither who whoever whole whom whose why will with within without would yet
    you your yours yourself yourselves
    """.split()
)

# Words every abstract uses to sell itself, in no phrase of a topic.
DOMAIN_STOP_WORDS = frozenset(
    """paper papers study propose proposed proposes method methods approach approaches result
    results show shows shown novel based using use used existing framework frameworks extensive
    experiments experimental demonstrate demonstrates demonstrated achieve achieves achieved
    achieving significant significantly new challenge challenges challenging recent recently
    problem problems introduce introduces present presents provide provides various including
    remarkable despite crucial critical promising furthermore moreover specifically particular
    improve improves improved improvement outperforms outperform effective effectively able ability
    et al available https http github com www state-of-the-art so-called up-to-date easy-to-use
    off-the-shelf out-of-the-box
    """.split()
)
# The commonest function words of the other languages papers and readers write in, accents
# folded as the analyzer folds them: stop words of a text written in that language (at least 2
# of them, and 1 in 6 of its words), and words everywhere else. A German reader's "und", "die",
# "der" matched, and explained, a history of Prussian railways; stop words in every text, they
# cut English acronyms ("ALS", "DoS", "LoS", "Au nanoparticles", "El Niño").
FUNCTION_WORDS = {
    language: frozenset(words.split())
    for language, words in {
        "de": "und der die das den dem des ein eine einer eines einem einen ist sind war mit von"
        " zu zur zum auf im fur nicht sich auch als wie bei oder aus nach werden wird wurde"
        " durch uber unter dass diese dieser dieses wir ich es sie",
        "fr": "le la les un une des du de et est sont dans pour par sur avec que qui ne pas au aux"
        " ce ces cette son sa ses leur leurs nous vous il elle ils elles ou mais plus comme ete"
        " etre en",
        "es": "el la los las del de un una unos unas es son con por para que se su sus al lo como"
        " mas pero este esta estos estas entre sobre sin en",
        "it": "il lo la gli le della delle degli dei di che per con una sono nel nella un da del"
        " al allo alla alle ai agli dal dalla dai nei negli sul sulla sui non come anche piu"
        " questo questa tra fra",
        "pt": "os as da do das dos de em um uma com nao para por que se no na nos nas ao aos pelo"
        " pela pelos pelas num numa mais como sobre entre este esta isso",
        "nl": "het een van de en is op te dat die voor zijn met niet",
        "ru": "и в на с по для что не из от как это при или же но то к о",
        "pl": "w z na do sie nie ze to jest od po jak dla oraz lub przez przy czy tak ale ich"
        " jego jej tym tego ten sa byc tylko juz we",
        "cs": "v na se je z do to pro ze s k jako ktery ktera ktere by byl jsou nebo ale jeho tak"
        " pri po od za ve",
        "sk": "v na sa je z do to pre ze s k ako ktory ktora ktore bol su alebo ale jeho tak pri"
        " po od za vo",
        "sv": "och att det som en pa ar av med till den har inte om ett de var sig men vid kan"
        " fran eller sa",
        "da": "og at det som en pa er af med til den har ikke om et de var sig men ved kan fra"
        " eller sa",
        "no": "og at det som en pa er av med til den har ikke om et de var seg men ved kan fra"
        " eller sa",
        "fi": "ja on ei se etta han oli mutta joka kun niin ovat tai myos sen kanssa",
        "tr": "ve bir bu da de ile icin olarak olan gibi daha ama veya her cok kadar",
        "ro": "si in de la cu pe un ca care din este sunt pentru nu mai sau ce al ale lui",
        "hu": "az es hogy nem is egy meg de ez van csak mar volt mint vagy ha ki",
        "id": "dan di yang untuk dengan pada ini dari dalam adalah ke tidak akan atau juga oleh"
        " sebagai bahwa itu secara kami tersebut telah dapat",
        "vi": "va cua cac la trong duoc cho voi nhung mot khong nay de tu",
    }.items()
}
LANGUAGE_LEAST, LANGUAGE_SHARE = 2, 1 / 6
# Counted without English's own stop words ("is", "as", "per"): an English sentence is no Dutch.
# But "de", in scikit-learn's list for names ("de Sitter"), counts: "Análise De Sentimentos Em
# Textos" had but "em" to count, and was no Portuguese.
_ENGLISH_OWN = ENGLISH_STOP_WORDS - {"de"}
# Nor the function words English papers write themselves, each in 1 in 300 of the 45k corpus's
# abstracts or more: "et al.", "non-", "AI", "come", "github.com", "care", "plus". Italian's
# "non", "come", "al" (every "et al.") had made "Where do non-Hermitian points come from?" Italian,
# its "non hermitian" lost. Once a text is Italian they are its stop words still. ("et", Czech's
# "pro", Slovak's "pre" count: each is in most sentences of its language, the word English
# shares with it its only one.)
ENGLISH_TOO = frozenset("com ai non al ar care par plus come au".split())
_COUNTED = {
    language: words - _ENGLISH_OWN - ENGLISH_TOO for language, words in FUNCTION_WORDS.items()
}
_ANY = frozenset().union(*_COUNTED.values())


def foreign_stops(tokens: list[str], text: str = "") -> frozenset[str]:
    """The function words of the languages other than English a text (its tokens) is written
    in: its stop words. One pass over the tokens first: most texts are English and hold one or
    none. A word the text writes in capitals is an acronym, no function word: "SOM" and "AV"
    made "Self-organizing maps (SOM) for AV perception" Swedish; so is a capitalised word inside
    a sentence, a symbol or a name: "Cu Si alloys" had been Romanian, "alloys", and "(Dai et
    al.)", "Le and Tra" Italian, "sui" and "tra" its words."""
    hits = _ANY.intersection(tokens)
    if len(hits) < LANGUAGE_LEAST:
        return frozenset()
    acronyms = _acronyms(text) if text else set()
    hits -= acronyms
    found: frozenset[str] = frozenset()
    for language, words in _COUNTED.items():
        present = words & hits
        if len(present) < LANGUAGE_LEAST:
            continue
        if sum(map(tokens.count, present)) >= LANGUAGE_SHARE * len(tokens):
            found |= FUNCTION_WORDS[language]
    return found - acronyms


def _acronyms(text: str) -> set[str]:
    """The words a text writes as acronyms, symbols or names (SOM, Cu, Si, Nu, Dai), lower-cased.
    A word opening the text or a sentence may be a capitalised function word ("La teoría", "Si el
    modelo"), and so may any in a sentence in Title Case ("Un Modelo De Lenguaje Para La
    Traducción"); a sentence in capitals alone writes no acronym: every word of "APRENDIZAJE
    PARA EL PRONÓSTICO" had been one, "para", "el" features ("why: matched la", lanthanum)."""
    found: set[str] = set()
    for sentence in _SENTENCES.split(text):
        if sentence.upper() == sentence:
            continue  # all in capitals, "FÜR DIE VORHERSAGE VON": its capitals say nothing
        found.update(c.lower() for c in _CAPITALS.findall(sentence))
        if _title_case(sentence):
            continue
        for name in _NAME.finditer(sentence):  # a symbol (Cu), or a name: "(Dai et al.)", "Le"
            if sentence[: name.start()].rstrip(" \t\"'(“‘"):
                found.add(name[0].lower())
    # Not one the text also writes in small letters: a title in Title Case ("Un Modelo De
    # Textos") says "de" in its abstract, a function word.
    return found - set(_SMALL.findall(text)) if found else found


def _title_case(sentence: str) -> bool:
    """Is a sentence in Title Case: most of its words of three letters or more capitalised (two
    at least), and none of its short ones small? English titles write "of", "in", "by", "and"
    small: there "Al-Si Alloys" are symbols still."""
    if _SHORT_SMALL.search(sentence):
        return False
    words = _LONG.findall(sentence)
    return len(words) >= 2 and 2 * sum(w[0].isupper() for w in words) > len(words)


_CAPITALS = re.compile(r"\b[A-Z]{2,}\b")
_NAME = re.compile(r"\b[A-Z][a-z]*\b")
_SMALL = re.compile(r"\b[a-z]+\b")
_SENTENCES = re.compile(r"[.!?\n\r]")
_LONG = re.compile(r"\b[^\W\d_]{3,}")
_SHORT_SMALL = re.compile(r"\b[a-z]{1,3}\b")


# Words too common alone to say anything, which name a topic with the next or the last word:
# phrases only. As stop words they cut a reader's own phrases in half ("code generation" read
# as "generation", "state space models" as "space", "world models" as "world", "art history"
# as "history"); as words they made every abstract's "our models" and "performance" count. The
# second line are stop words of scikit-learn's list and ours that are half of a field's term:
# "side-channel" was read as "channel" (vision papers' channel attention), "thin film" and
# "thick disk" as "film" and "disk", "quantum well" as "quantum", "top quark", "Pareto front",
# "system identification", "first principles", "many-body", "few-shot", "re-identification",
# "de Sitter", "critical point", "interest rates"; the prefix "non" ("non-Hermitian", French
# "non adiabatique") had explained picks alone ("why: matched surface, non").
# So are prefixes, a word alone in under 1 in 12 of their uses in the 45k corpus ("semi-arid" 746
# papers, "semi" alone 10): "semi-arid" had picked semi-supervised papers, "why: semi". Before
# another phrase word they are a phrase still: "multi task", "sub tasks", "cross model".
PREFIXES = frozenset("semi sub multi pre self cross inter intra post anti quasi tri neuro".split())
PHRASE_ONLY = PREFIXES | frozenset(
    """model models code state work works performance task tasks key art
    side thin thick well top bottom front back up down full whole first third one two three few
    many off re co de non system call fire interest part critical""".split()
)


def both_phrase_only(a: str, b: str) -> bool:
    """Two words of phrases only say nothing together either ("first one", "one two"), but a
    prefix and its word do ("multi task")."""
    return a in PHRASE_ONLY and b in PHRASE_ONLY and a not in PREFIXES


STOP_WORDS = (ENGLISH_STOP_WORDS | DOMAIN_STOP_WORDS) - PHRASE_ONLY

"""Code links the sources find in abstracts and comments (GitHub, GitLab, Hugging Face, ...).
Normalization and the abstract hash are identity's (models/identity.py); titles: titles.py.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

# --- code links -------------------------------------------------------------------------------

_CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")
_URL_CHARS = r"""[^\s<>"'`{}\[\]()|\\^，。；：！？、）】」“”‘’]+"""
_HOSTS = "|".join(map(re.escape, _CODE_HOSTS))
# A URL with a scheme, or a bare "github.com/owner/repo".
_URL = re.compile(rf"(?:https?://|(?<![\w/.@-])(?=(?:www\.)?(?:{_HOSTS})/)){_URL_CHARS}", re.I)
_TRAILING = ".,;:!?'\")]}>…"


def _is_code_url(url: str) -> bool:
    parts = urlsplit(url)
    host = (parts.hostname or "").removeprefix("www.")
    if host.endswith(".github.io"):
        return True
    on_host = any(host == h or host.endswith("." + h) for h in _CODE_HOSTS)
    return on_host and parts.path.strip("/") != ""


def code_links(text: str) -> list[str]:
    """URLs pointing at code or a project page, in order of appearance, without duplicates."""
    lowered = text.lower()
    # Most abstracts name no URL at all: skip the costly scan (it needs "http" or a code host).
    if "http" not in lowered and not any(host in lowered for host in _CODE_HOSTS):
        return []
    # LaTeX escapes the underscore inside \href text; unescaped, both halves name one URL.
    text = re.sub(r"\\([_%#&~])", r"\1", text)
    found: list[str] = []
    for match in _URL.finditer(text):
        url = match.group().rstrip(_TRAILING)
        if not url.lower().startswith(("http://", "https://")):
            url = "https://" + url
        if _is_code_url(url) and url not in found:
            found.append(url)
    return found

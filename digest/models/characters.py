"""The characters that no text digest shows may carry as they are: controls (C0, DEL, C1), the
line and paragraph separators, and the bidi controls. Ranges for a regex class; each channel,
page and terminal composes the ones it strips or escapes."""

# A terminal or a text mail client obeys ESC and BEL; a CR or LF in an email header starts one.
C0 = "\x00-\x1f"
C0_BUT_TAB_NEWLINE = "\x00-\x08\x0b-\x1f"
C0_BUT_WHITESPACE = "\x00-\x08\x0e-\x1f"  # tab, newline, vertical tab, form feed and CR stay
C1 = "\x7f-\x9f"  # DEL and the C1 controls (U+009B is CSI, ESC [ in one character)
SEPARATORS = "\u2028\u2029"  # line and paragraph: a line break to JavaScript and to some clients
# Embeddings, overrides and isolates: one left open turns the text after it around (a score, an
# id, the address a link shows). Right-to-left text itself needs none of them.
BIDI = "\u202a-\u202e\u2066-\u2069"

"""The reader-facing web face ([web]): rating links, one-click unsubscribe, each subscriber's
archive and Atom feed, Slack's button clicks (app.py); signed links (tokens.py); Matrix replies
read back as ratings (replies.py). Reads and writes only through state/."""

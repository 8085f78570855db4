"""digest: a daily research-paper digest and alert bot."""

__version__ = "0.1.0"

"""The config file: TOML plus `.env` plus ${VAR} substitution, checked key by key into Settings
(loader.py), with the checker's vocabulary of types, URLs and addresses in checks.py and the
[smtp] and [web] tables in services.py."""

from digest.config.loader import load
from digest.models import Settings

__all__ = ["Settings", "load"]

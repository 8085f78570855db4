# `digest serve` in a container. Build and run with compose (see compose.yaml and the README):
#   docker compose up -d --build
# No secret is baked in: SMTP passwords, webhooks and tokens come from .env at run time.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Only what the bot needs (.dockerignore keeps .env, state and out out of the build context).
COPY pyproject.toml README.md ./
COPY digest/ digest/
COPY templates/ templates/
COPY config/ config/
COPY seeds/ seeds/

# Editable, so the package finds its built-in templates/ beside it in /app.
RUN pip install -e . \
 && useradd --system --user-group --uid 10001 --home-dir /app --no-create-home digest \
 && mkdir -p /app/state /app/out \
 && chown digest:digest /app/state /app/out

# Relative paths in the config start from its folder, /app/config: mount your config (and
# libraries beside it) over /app/config; templates elsewhere: `templates = "../my-templates"`.
# The state of a config that names none: a config's own [state] (a PostgreSQL url) wins, and
# DIGEST_STATE, set for a container, wins over both.
ENV DIGEST_CONFIG=/app/config/digest.toml \
    DIGEST_DEFAULT_STATE=/app/state/digest.db

USER digest

# The state database, its lock and heartbeat; and the file channel's digests.
VOLUME ["/app/state", "/app/out"]

# `digest health` reads the heartbeat serve writes every 30 s to /app/state: it fails when the
# scheduler has stopped ticking (or stopped).
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["digest", "health"]

# SIGTERM (docker stop) stops it cleanly: no new work, the job in progress finishes.
STOPSIGNAL SIGTERM
CMD ["digest", "serve"]

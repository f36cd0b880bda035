# syntax=docker/dockerfile:1
# Fomento's image: the `fomento` binary (release build, OTLP traces compiled in) on a small Debian runtime, as a
# user without privileges. One image for every role: `fomento migrate up` (run once per upgrade, before the
# servers), `fomento serve`, `fomento worker`. See docs/operations.md.

FROM rust:1.94-slim-bookworm AS build
# A C compiler for the bundled SQLite and aws-lc (TLS to S3 and identity providers); cmake for aws-lc. Unpinned on
# purpose: the distribution's current security updates.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends build-essential cmake pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p fomento-api --bin fomento --features otlp \
 && cp target/release/fomento /usr/local/bin/fomento \
 && rm -rf target

FROM debian:bookworm-slim
# CA certificates for https (S3, JWKS, OIDC, webhooks); curl for the container's health check.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /var/lib/fomento --create-home fomento
COPY --from=build /usr/local/bin/fomento /usr/local/bin/fomento
USER 10001:10001
WORKDIR /var/lib/fomento
ENV FOMENTO_LISTEN=0.0.0.0:8080 \
    FOMENTO_LOG_FORMAT=json \
    FOMENTO_FILE_STORE=/var/lib/fomento/file-store \
    DATABASE_URL=sqlite:///var/lib/fomento/fomento.db
EXPOSE 8080 9464
HEALTHCHECK --interval=10s --timeout=2s --retries=3 CMD ["curl", "-fsS", "http://127.0.0.1:8080/health"]
ENTRYPOINT ["fomento"]
CMD ["serve"]

#!/usr/bin/env bash
# Builds a local stand-in for the official `postgres` image, for docker/compose.yaml where
# postgres:16 cannot be pulled: tools/containers/postgres/Containerfile, Debian bookworm's
# PostgreSQL 15 on the node:24-bookworm-slim base the service images use (built by build-base.sh
# if missing, from the Debian mirror apt already uses), tagged agency-platform/postgres-standin:15.
# Run compose with POSTGRES_IMAGE=agency-platform/postgres-standin:15. Same podman settings as
# build-images.sh (containers.conf, --network host, --format docker).
# Usage: tools/containers/build-postgres.sh [--engine auto|podman|docker]
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

engine=auto
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
select_engine "$engine"
started=$(now)
image_exists "$BASE_IMAGE" || bash "$CONTAINERS_DIR/build-base.sh" --engine "$ENGINE"

build_args=(-f "$CONTAINERS_DIR/postgres/Containerfile" --build-arg "BASE_IMAGE=${BASE_IMAGE}"
  --label io.agency-platform.postgres-standin=tools/containers/build-postgres.sh)
[ "$ENGINE" = podman ] && build_args+=(--format docker --network host)
"$ENGINE" build "${build_args[@]}" -t "$POSTGRES_STANDIN_IMAGE" "$CONTAINERS_DIR/postgres"
"$ENGINE" run --rm --network none --entrypoint sh "$POSTGRES_STANDIN_IMAGE" \
  -c 'postgres --version && pg_isready --version' >&2
log "${POSTGRES_STANDIN_IMAGE} built in $(($(now) - started)) s"

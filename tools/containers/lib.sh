# shellcheck shell=bash disable=SC2034
# Shared by the image scripts (sourced, not run): the container engine, podman's settings on these
# machines, and the names the images go by.

CONTAINERS_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$CONTAINERS_DIR/../.." && pwd)"
APPS=(main-api planner integrations)
# The base the Dockerfile expects (its NODE_IMAGE default), and the Node it carries when
# build-base.sh makes it: the same version .ci/run runs everything on.
BASE_IMAGE=node:24-bookworm-slim
NODE_VERSION="${NODE_VERSION:-24.21.0}"

log() { printf '%s: %s\n' "$(basename "$0")" "$*" >&2; }
die() {
  log "$*"
  exit 1
}

# Seconds since the epoch, for the timings each script prints.
now() { date +%s; }

# select_engine auto|podman|docker: sets ENGINE. auto prefers podman (what CI has), then a docker
# whose daemon answers. For podman, points CONTAINERS_CONF at this folder's containers.conf unless
# the caller chose one (or runc, which it names, is missing).
select_engine() {
  case "$1" in
    podman) command -v podman >/dev/null 2>&1 || die 'podman is not installed' ;;
    docker) docker info >/dev/null 2>&1 || die 'docker is not installed or its daemon does not answer' ;;
    auto)
      if command -v podman >/dev/null 2>&1; then
        set -- podman
      elif docker info >/dev/null 2>&1; then
        set -- docker
      else
        die 'neither podman nor a running docker found'
      fi
      ;;
    *) die "unknown engine $1 (podman or docker)" ;;
  esac
  ENGINE="$1"
  if [ "$ENGINE" = podman ] && [ -z "${CONTAINERS_CONF:-}" ] && command -v runc >/dev/null 2>&1; then
    export CONTAINERS_CONF="$CONTAINERS_DIR/containers.conf"
  fi
}

image_exists() { "$ENGINE" image inspect "$1" >/dev/null 2>&1; }

# The stand-in for the official postgres image that compose-smoke.sh runs docker/compose.yaml with
# where no registry is reachable (build-postgres.sh; Debian bookworm's PostgreSQL 15).
POSTGRES_STANDIN_IMAGE=agency-platform/postgres-standin:15

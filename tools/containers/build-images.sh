#!/usr/bin/env bash
# Builds the three service images from docker/Dockerfile, tagged agency-platform/<app>:<tag>, with
# podman (what CI uses) or docker (with BuildKit). Where node:24-bookworm-slim is neither present nor
# pullable, first builds an equivalent from Debian's archive and the npm registry (build-base.sh) and
# keeps it: later runs on the same machine reuse it.
#
# npm inside the build gets a build-time `npmrc` secret naming the host's CA bundle (the npm-ca
# secret) as its cafile, so it trusts what the host trusts (here, a TLS-intercepting proxy);
# secrets are mounted for the RUN step only and never land in a layer.
#
# Usage: tools/containers/build-images.sh [--engine auto|podman|docker] [--tag TAG]
#          [--base auto|pull|build] [APP...]
#   --tag   default `local` (what docker/compose.yaml runs)
#   --base  auto: use the base if present, else pull it, else build it; pull or build: only that
#   APP     main-api, planner, integrations (default: all three)
#   NPM_BUILD_CAFILE  the CA bundle npm trusts in the build (default /etc/ssl/certs/ca-certificates.crt)
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

engine=auto
tag=local
base=auto
apps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    --base) base="$2"; shift 2 ;;
    main-api | planner | integrations) apps+=("$1"); shift ;;
    *) die "unknown argument $1 (see the usage at the top of $0)" ;;
  esac
done
[ ${#apps[@]} -gt 0 ] || apps=("${APPS[@]}")
select_engine "$engine"
cd "$REPO_ROOT"
started=$(now)

# The base image.
if image_exists "$BASE_IMAGE" && [ "$base" != build ]; then
  log "base ${BASE_IMAGE} present: $("$ENGINE" image inspect --format '{{index .Config.Labels "io.agency-platform.base"}}' "$BASE_IMAGE" 2>/dev/null | sed 's/^$/pulled/;s/<no value>/pulled/')"
elif [ "$base" != build ] && timeout 300 "$ENGINE" pull -q "docker.io/library/${BASE_IMAGE}" >/dev/null 2>&1; then
  log "base ${BASE_IMAGE} pulled"
elif [ "$base" != pull ]; then
  log "base ${BASE_IMAGE} cannot be pulled: building it from Debian's archive and the npm registry"
  bash "$CONTAINERS_DIR/build-base.sh" --engine "$ENGINE"
else
  die "cannot pull ${BASE_IMAGE}"
fi
base_done=$(now)

# Build-time npm settings, as secrets (an empty CA file when the host has none: npm then keeps its own).
secrets="$(mktemp -d)"
trap 'rm -rf "$secrets"' EXIT
ca_file="${NPM_BUILD_CAFILE:-/etc/ssl/certs/ca-certificates.crt}"
if [ -f "$ca_file" ]; then
  printf 'cafile=/run/secrets/npm-ca\n' >"$secrets/npmrc"
  cp "$ca_file" "$secrets/npm-ca"
else
  : >"$secrets/npmrc"
  : >"$secrets/npm-ca"
fi
build_args=(
  -f docker/Dockerfile
  --secret "id=npmrc,src=$secrets/npmrc"
  --secret "id=npm-ca,src=$secrets/npm-ca"
)
case "$ENGINE" in
  # --format docker keeps HEALTHCHECK (OCI image configs have no place for it); host networking for
  # the RUN steps, as bridge networking needs iptables, which the CI machines lack.
  podman) build_args+=(--format docker --network host --ignorefile docker/Dockerfile.dockerignore) ;;
  docker)
    docker buildx version >/dev/null 2>&1 ||
      die 'docker needs BuildKit (the buildx plugin) for the build secrets: install docker-buildx'
    export DOCKER_BUILDKIT=1
    ;;
esac

# Where each engine's inspect shows the image's HEALTHCHECK.
case "$ENGINE" in
  podman) health_format='{{json .HealthCheck}}' ;;
  docker) health_format='{{json .Config.Healthcheck}}' ;;
esac
timings=()
for app in "${apps[@]}"; do
  image="agency-platform/${app}:${tag}"
  log "building ${image}"
  app_started=$(now)
  "$ENGINE" build "${build_args[@]}" --build-arg "APP=${app}" -t "$image" .
  timings+=("${app} $(($(now) - app_started)) s")
  # The regression this guards: a build that silently drops the health check.
  health="$("$ENGINE" image inspect --format "$health_format" "$image")"
  case "$health" in
    *health/live*) ;;
    *) die "${image} has no HEALTHCHECK (${health})" ;;
  esac
done

{
  echo "base: $((base_done - started)) s"
  printf '%s\n' "${timings[@]}"
  echo "total: $(($(now) - started)) s"
  "$ENGINE" images --format '{{.Repository}}:{{.Tag}} {{.Size}}' | grep -E "agency-platform/|/node:" || true
} | sed 's/^/  /' >&2

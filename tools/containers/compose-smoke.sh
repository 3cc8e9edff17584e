#!/usr/bin/env bash
# Runs docker/compose.yaml with podman-compose end to end: PostgreSQL (POSTGRES_IMAGE, default the
# local stand-in from build-postgres.sh, built if missing), the three migrations waiting for it, the
# signing key, the three services up to /health/ready/self; the README's provisioning step (its
# stdout must be one JSON document), a token from the client credentials it prints, one
# authenticated call to each service; then `podman-compose down -v` whatever happened, and a check
# that no container or volume of the project is left.
#
# Usage: tools/containers/compose-smoke.sh [--tag TAG] [--network host|bridge]
#   --tag      the agency-platform/<app> images' tag (IMAGE_TAG; default local)
#   --network  host (default): with docker/compose.podman-host.yaml, for machines without bridge
#              networking (as CI's); bridge: compose.yaml alone (its own network, published ports)
#   POSTGRES_IMAGE  the PostgreSQL image (default agency-platform/postgres-standin:15)
# Needs podman, podman-compose, curl and jq; ports 3000-3002 free (and 127.0.0.2:5432 with host).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

tag=local
network=host
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --network) network="$2"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
select_engine podman
for tool in podman-compose curl jq; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is needed on the host"
done
cd "$REPO_ROOT"
project=agency-platform
export IMAGE_TAG="$tag" POSTGRES_IMAGE="${POSTGRES_IMAGE:-$POSTGRES_STANDIN_IMAGE}"
# -p: podman-compose 1.0.3 ignores the file's `name:` (it would name the project after docker/).
compose=(podman-compose -p "$project" -f docker/compose.yaml)
case "$network" in
  host) compose=(podman-compose --podman-path "$CONTAINERS_DIR/podman-host-network" -p "$project"
    -f docker/compose.yaml -f docker/compose.podman-host.yaml) ;;
  bridge) ;;
  *) die "--network host or bridge" ;;
esac
work="$(mktemp -d)"
started=$(now)
stack_up=no

fail() {
  log "FAILED: $*"
  exit 1
}

project_containers() { podman ps -a --filter "label=io.podman.compose.project=${project}" --format '{{.Names}}'; }
project_volumes() { podman volume ls --filter "label=io.podman.compose.project=${project}" --format '{{.Name}}'; }

cleanup() {
  local status=$?
  set +e
  if [ "$stack_up" = yes ]; then
    if [ "$status" -ne 0 ]; then
      echo '---- podman-compose up' >&2
      tail -n 40 "$work/up.log" >&2
      podman ps -a --filter "label=io.podman.compose.project=${project}" \
        --format '{{.Names}} {{.Status}}' >&2
      for container in $(project_containers); do
        echo "---- last log lines of ${container}" >&2
        podman logs --tail 30 "$container" >&2 2>&1
      done
    fi
    down_started=$(now)
    timeout 180 "${compose[@]}" down -v >"$work/down.log" 2>&1 || {
      status=1
      tail -n 20 "$work/down.log" >&2
      log 'podman-compose down -v failed'
    }
    # podman-compose 1.0.3 leaves the network it created (unused with --network host).
    podman network rm "${project}_default" >/dev/null 2>&1
    left="$(project_containers) $(project_volumes)"
    if [ -n "${left// /}" ]; then
      status=1
      log "left behind after down -v: ${left}"
    fi
    log "down -v: $(($(now) - down_started)) s"
  fi
  rm -rf "$work"
  if [ "$status" -eq 0 ]; then
    log "passed in $(($(now) - started)) s"
  else
    log "failed (status ${status}) after $(($(now) - started)) s"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

for app in "${APPS[@]}"; do
  image_exists "agency-platform/${app}:${tag}" || fail "no image agency-platform/${app}:${tag}: run build-images.sh first"
done
if ! image_exists "$POSTGRES_IMAGE"; then
  [ "$POSTGRES_IMAGE" = "$POSTGRES_STANDIN_IMAGE" ] || fail "no image ${POSTGRES_IMAGE}"
  bash "$CONTAINERS_DIR/build-postgres.sh" --engine podman
fi
[ -z "$(project_containers)$(project_volumes)" ] ||
  fail "containers or volumes of project ${project} exist already: $(project_containers) $(project_volumes)"
for port in 3000 3001 3002; do
  ! ss -Hltn "sport = :${port}" | grep -q . || fail "port ${port} is in use on this host"
done
if [ "$network" = host ] && ss -Hltn 'sport = :5432' | grep -Eq '(0\.0\.0\.0|\*|\[::\]|127\.0\.0\.2):5432'; then
  fail '127.0.0.2:5432 is taken on this host (PostgreSQL listens there with --network host)'
fi

log "podman-compose up -d (images :${tag}, ${POSTGRES_IMAGE}, --network ${network})"
stack_up=yes
up_started=$(now)
timeout 300 "${compose[@]}" up -d >"$work/up.log" 2>&1 || fail 'podman-compose up -d'
log "  up -d returned after $(($(now) - up_started)) s"
declare -A port=([main-api]=3000 [planner]=3001 [integrations]=3002)
for app in "${APPS[@]}"; do
  for attempt in $(seq 1 180); do
    curl -fs -o /dev/null "http://127.0.0.1:${port[$app]}/health/ready/self" && break
    [ "$attempt" -lt 180 ] || fail "${app} not ready (/health/ready/self) within 180 s"
    sleep 1
  done
done
restarts=()
for app in "${APPS[@]}"; do
  restarts+=("${app} $(podman inspect --format '{{.RestartCount}}' "${project}_${app}_1")")
done
# (A service started before its migration has finished exits and is restarted: podman-compose 1.0.3
# does not wait for `depends_on` conditions.)
log "  the three services ready $(($(now) - up_started)) s after up (restarts: $(IFS=,; echo "${restarts[*]}"))"
# compose.yaml's health check of PostgreSQL (pg_isready), run on demand: no systemd here to schedule it.
podman healthcheck run "${project}_postgres_1" >/dev/null || fail 'postgres: health check (pg_isready) failed'
for service in main-api-migrate planner-migrate integrations-migrate signing-key; do
  code="$(podman inspect --format '{{.State.ExitCode}} {{.State.Status}}' "${project}_${service}_1")"
  [ "$code" = '0 exited' ] || fail "${service}: ${code} (expected 0 exited)"
done
# The key as compose.yaml means it: root-owned, group 1000 (main-api's), mode 0440.
key="$(podman exec "${project}_main-api_1" stat -c '%a %u %g' /var/run/secrets/agency-platform/jwt-private-key.pem)"
[ "$key" = '440 0 1000' ] || fail "signing key mode/owner/group ${key} (expected 440 0 1000)"

# The README's provisioning step, in the running main-api container. (podman-compose 1.0.3 prints
# its own podman command lines on stdout, so its `exec`/`run` cannot give a clean JSON document.)
log 'provisioning a company'
podman exec "${project}_main-api_1" node dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js \
  --company 'Compose Smoke' >"$work/provision.json" 2>"$work/provision.err" ||
  fail "provisioning: $(cat "$work/provision.err")"
jq -e '.apiKey and .clientSecret' "$work/provision.json" >/dev/null ||
  fail "provisioning stdout is not one JSON document with apiKey and clientSecret: $(head -c 2000 "$work/provision.json")"

log 'token and one authenticated call per service'
token="$(curl -fsS -X POST -u "$(jq -r '.apiKey + ":" + .clientSecret' "$work/provision.json")" \
  'http://127.0.0.1:3000/v1/oauth/token?grant_type=client_credentials' | jq -er .access_token)" ||
  fail 'no access token from the client credentials'
call() { # method app path jq-check [body]
  local body
  body="$(curl -fsS -X "$1" "http://127.0.0.1:${port[$2]}$3" -H "Authorization: Bearer ${token}" \
    ${5:+-H 'Content-Type: application/json' -H "Idempotency-Key: compose-smoke-$$-$RANDOM" -d "$5"})" ||
    fail "$1 $3 on $2"
  jq -e "$4" <<<"$body" >/dev/null || fail "$1 $3 on $2 answered ${body:0:500}"
  log "  $2 $1 $3: ok"
  printf '%s' "$body"
}
client_id="$(call POST main-api /v1/clients '.id' '{"name":"Compose client","currency_id":1}' | jq -r .id)"
project_id="$(call POST main-api /v1/projects '.id' "{\"name\":\"Compose project\",\"client_id\":${client_id}}" | jq -r .id)"
call GET main-api "/v1/projects/${project_id}" ".id == ${project_id}" >/dev/null
# planner asks main-api about the project (service to service, through the name main-api).
call GET planner "/allocation/getAllocations/${project_id}" '.users == []' >/dev/null
call GET integrations /v2/integrations/subscriptions 'type == "array"' >/dev/null

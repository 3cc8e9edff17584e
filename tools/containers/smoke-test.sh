#!/usr/bin/env bash
# Runs the three images the way the Kubernetes manifests do and checks they work together: a fresh
# database on the host's PostgreSQL; each image's migration; the three services as uid 1000 with a
# read-only root file system, no capabilities, no privilege escalation, and main-api's signing key
# mounted root-owned and group-readable (mode 0440, group FS_GROUP added to the process: what
# `fsGroup` does to a Secret volume); a company provisioned with main-api's CLI, a token from its
# client credentials, one authenticated call to each service, each image's HEALTHCHECK, and a clean
# exit (status 0) on SIGTERM. Removes its containers and database whatever happens.
#
# Usage: tools/containers/smoke-test.sh [--engine auto|podman|docker] [--tag TAG]
#   SMOKE_ADMIN_DATABASE_URL  a superuser's URL (default postgres://postgres@127.0.0.1:5432/postgres)
#   FS_GROUP                  the group the key is readable by (default 1000)
# Needs root (the key's owner), psql, openssl, curl, jq and node on the host; containers use the
# host's network, so ports 3000-3002 are used when free (else free ports through PORT).
set -euo pipefail
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"

engine=auto
tag=local
while [ $# -gt 0 ]; do
  case "$1" in
    --engine) engine="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
select_engine "$engine"
for tool in psql openssl curl jq node; do
  command -v "$tool" >/dev/null 2>&1 || die "$tool is needed on the host"
done
[ "$(id -u)" -eq 0 ] || die 'run as root: the signing key must be root-owned, as Kubernetes mounts it'

admin_url="${SMOKE_ADMIN_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
fs_group="${FS_GROUP:-1000}"
run_id="smoke-$$-$(date +%s)"
database="smoke_$$_$(date +%s)"
database_url="${admin_url%/*}/${database}"
work="$(mktemp -d)"
containers=()
started=$(now)

fail() {
  log "FAILED: $*"
  exit 1
}

cleanup() {
  local status=$?
  set +e
  if [ "$status" -ne 0 ]; then
    for container in "${containers[@]}"; do
      echo "---- last log lines of ${container}" >&2
      "$ENGINE" logs --tail 40 "$container" >&2 2>&1
    done
  fi
  for container in "${containers[@]}"; do
    "$ENGINE" rm -f "$container" >/dev/null 2>&1
  done
  psql -q "$admin_url" -c "DROP DATABASE IF EXISTS \"${database}\" WITH (FORCE)" >/dev/null 2>&1 ||
    log "could not drop database ${database}"
  rm -rf "$work"
  if [ "$status" -eq 0 ]; then
    log "passed in $(($(now) - started)) s"
  else
    log "failed (status ${status})"
  fi
  exit "$status"
}
trap cleanup EXIT

for app in "${APPS[@]}"; do
  image_exists "agency-platform/${app}:${tag}" || fail "no image agency-platform/${app}:${tag}: run build-images.sh first"
done

# The defaults when free, so the images' own port defaults (and HEALTHCHECK's) are what is tested.
declare -A port=([main-api]=3000 [planner]=3001 [integrations]=3002)
declare -A port_env=()
free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }
for app in "${APPS[@]}"; do
  if ss -Hltn "sport = :${port[$app]}" | grep -q .; then
    port[$app]="$(free_port)"
    port_env[$app]="PORT=${port[$app]}"
    log "port of ${app} in use on this host: using ${port[$app]} (PORT)"
  fi
done

psql -q -v ON_ERROR_STOP=1 "$admin_url" -c "CREATE DATABASE \"${database}\"" >/dev/null ||
  fail "cannot create a database with ${admin_url}"

# The signing key as a Secret volume with fsGroup presents it: root-owned, read-only for the group.
mkdir -p "$work/signing-key"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -out "$work/signing-key/jwt-private-key.pem" 2>/dev/null
chown "0:${fs_group}" "$work/signing-key/jwt-private-key.pem"
chmod 0440 "$work/signing-key/jwt-private-key.pem"
chmod 0755 "$work" "$work/signing-key"
change_origin_key="$(openssl rand -base64 32)"
encryption_key="$(openssl rand -base64 32)"

# What the manifests' securityContext asks (Pod Security "restricted").
restricted=(
  --network host --user 1000:1000 --group-add "$fs_group" --read-only --tmpfs /tmp
  --cap-drop ALL --security-opt no-new-privileges
)
# shellcheck disable=SC2034 # used through a nameref: <app>_env
main_api_env=(
  -e "DATABASE_URL=${database_url}" -e LOG_LEVEL=info -e "CHANGE_ORIGIN_KEY=${change_origin_key}"
  -e JWT_PRIVATE_KEY_FILE=/var/run/secrets/agency-platform/jwt-private-key.pem
  -v "$work/signing-key:/var/run/secrets/agency-platform:ro"
)
# shellcheck disable=SC2034
planner_env=(
  -e "DATABASE_URL=${database_url}" -e LOG_LEVEL=info -e "MAIN_API_URL=http://127.0.0.1:${port[main-api]}"
  -e "CHANGE_ORIGIN_KEY=${change_origin_key}"
)
# shellcheck disable=SC2034
integrations_env=(
  -e "DATABASE_URL=${database_url}" -e LOG_LEVEL=info -e "MAIN_API_URL=http://127.0.0.1:${port[main-api]}"
  -e "PLANNER_URL=http://127.0.0.1:${port[planner]}"
  -e "CHANGE_ORIGIN_KEY=${change_origin_key}" -e "INTEGRATIONS_ENCRYPTION_KEY=${encryption_key}"
)

log 'migrations'
for app in "${APPS[@]}"; do
  declare -n app_env="${app//-/_}_env"
  name="${run_id}-${app}-migrate"
  containers+=("$name")
  # The manifests' migration command, behind the wait compose uses (here PostgreSQL is up already).
  "$ENGINE" run --name "$name" --no-healthcheck "${restricted[@]}" "${app_env[@]}" "agency-platform/${app}:${tag}" \
    node wait-for-database.cjs node "dist/apps/${app}/apps/${app}/src/migrate.js" ||
    fail "migration of ${app}"
  unset -n app_env
done

log 'provisioning a company'
name="${run_id}-provision"
containers+=("$name")
"$ENGINE" run --name "$name" --no-healthcheck "${restricted[@]}" "${main_api_env[@]}" "agency-platform/main-api:${tag}" \
  node dist/apps/main-api/apps/main-api/src/provisioning/provision.cli.js --company 'Smoke Test' \
  >"$work/provision.out" || fail 'provisioning'
# The CLI prints one JSON object; whatever else reaches stdout (log lines) is skipped.
credentials="$(node -e '
  const text = require("fs").readFileSync(process.argv[1], "utf8");
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    for (let end = text.lastIndexOf("}"); end > start; end = text.lastIndexOf("}", end - 1)) {
      try {
        const value = JSON.parse(text.slice(start, end + 1));
        if (value && value.apiKey && value.clientSecret) { console.log(JSON.stringify(value)); process.exit(0); }
      } catch {}
    }
  }
  process.exit(1);' "$work/provision.out")" || fail "no credentials in the provisioning output: $(head -c 2000 "$work/provision.out")"

log 'starting the services'
for app in "${APPS[@]}"; do
  declare -n app_env="${app//-/_}_env"
  name="${run_id}-${app}"
  containers+=("$name")
  extra=()
  [ -n "${port_env[$app]:-}" ] && extra=(-e "${port_env[$app]}")
  # podman without systemd cannot schedule the checks and says so on stderr; they run on demand below.
  "$ENGINE" run -d --name "$name" "${restricted[@]}" "${app_env[@]}" "${extra[@]}" "agency-platform/${app}:${tag}" \
    >/dev/null 2>"$work/${app}.run.err" || fail "${app} did not start: $(cat "$work/${app}.run.err")"
  unset -n app_env
  # main-api first: the other two check it at start-up.
  for attempt in $(seq 1 60); do
    curl -fs -o /dev/null "http://127.0.0.1:${port[$app]}/health/live" && break
    [ "$("$ENGINE" inspect --format '{{.State.Running}}' "$name")" = true ] || fail "${app} exited at start-up"
    [ "$attempt" -lt 60 ] || fail "${app} did not answer /health/live within 60 s"
    sleep 1
  done
  [ "$("$ENGINE" exec "$name" id -u)" = 1000 ] || fail "${app} does not run as uid 1000"
  if "$ENGINE" exec "$name" sh -c 'echo x > /app/written' 2>/dev/null; then
    fail "${app}: the root file system is writable"
  fi
done

log 'token and one authenticated call per service'
token="$(curl -fsS -X POST -u "$(jq -r '.apiKey + ":" + .clientSecret' <<<"$credentials")" \
  "http://127.0.0.1:${port[main-api]}/v1/oauth/token?grant_type=client_credentials" | jq -er .access_token)" ||
  fail 'no access token from the client credentials'
call() { # app path jq-check
  local body
  body="$(curl -fsS "http://127.0.0.1:${port[$1]}$2" -H "Authorization: Bearer ${token}")" ||
    fail "GET $2 on $1"
  jq -e "$3" <<<"$body" >/dev/null || fail "GET $2 on $1 answered ${body:0:500}"
  # And without the token: refused.
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${port[$1]}$2")" = 401 ] ||
    fail "GET $2 on $1 without a token was not refused with 401"
  log "  $1 GET $2: ok"
}
post() { # path json -> body
  curl -fsS -X POST "http://127.0.0.1:${port[main-api]}$1" -H "Authorization: Bearer ${token}" \
    -H "Idempotency-Key: ${run_id}-$RANDOM" -H 'Content-Type: application/json' -d "$2" || fail "POST $1 on main-api"
}
client_id="$(post /v1/clients '{"name":"Smoke client","currency_id":1}' | jq -er .id)" || fail 'no client created'
project_id="$(post /v1/projects "{\"name\":\"Smoke project\",\"client_id\":${client_id}}" | jq -er .id)" ||
  fail 'no project created'
call main-api "/v1/projects/${project_id}" ".id == ${project_id}"
# Planner asks main-api about the project: service to service, with the caller's token.
call planner "/allocation/getAllocations/${project_id}" '.users == []'
call integrations /v2/integrations/subscriptions 'type == "array"'

log 'HEALTHCHECK'
for app in "${APPS[@]}"; do
  name="${run_id}-${app}"
  if [ "$ENGINE" = podman ]; then
    # No systemd here to schedule the checks: run the image's own check once, on demand.
    "$ENGINE" healthcheck run "$name" >/dev/null || fail "${app}: HEALTHCHECK unhealthy"
  else
    for attempt in $(seq 1 40); do
      [ "$("$ENGINE" inspect --format '{{.State.Health.Status}}' "$name")" = healthy ] && break
      [ "$attempt" -lt 40 ] || fail "${app}: HEALTHCHECK not healthy after 40 s"
      sleep 1
    done
  fi
  status="$("$ENGINE" inspect --format '{{.State.Health.Status}}' "$name")"
  [ "$status" = healthy ] || fail "${app}: health status ${status}"
  log "  ${app}: ${status}"
done

log 'SIGTERM'
for app in integrations planner main-api; do
  name="${run_id}-${app}"
  stop_started=$(now)
  "$ENGINE" stop -t 30 "$name" >/dev/null 2>"$work/${app}.stop.err" || fail "${app}: $(cat "$work/${app}.stop.err")"
  code="$("$ENGINE" inspect --format '{{.State.ExitCode}}' "$name")"
  seconds=$(($(now) - stop_started))
  [ "$code" = 0 ] || fail "${app} exited with ${code} on SIGTERM (after ${seconds} s)"
  # 0 comes only from the services' SIGTERM handler once the app has closed (server and pool): node
  # dying of the signal gives 143, the engine's kill after the timeout 137, a failed close 1.
  if "$ENGINE" logs "$name" 2>&1 | grep -E '"level":(50|60)|failed to start' >/dev/null; then
    fail "${app} logged an error"
  fi
  log "  ${app}: exit 0 after ${seconds} s"
done

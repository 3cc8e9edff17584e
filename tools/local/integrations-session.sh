#!/usr/bin/env bash
# The README's integrations curl session, runnable: with `npm start` running, it uses the demo
# credentials in .data/demo-credentials.json. An external system (source JIRA) creates a client and
# a project referencing it by its own ids, renames the project, and the change shows in main-api;
# then the same through a signed webhook.
# Usage: tools/local/integrations-session.sh [main_api_url] [integrations_url]   (needs curl, jq, openssl)
set -euo pipefail
MAIN=${1:-http://localhost:${MAIN_API_PORT:-3000}/v1}
INTEGRATIONS=${2:-http://localhost:${INTEGRATIONS_PORT:-3002}/v2/integrations}
# The ports npm start used (MAIN_API_PORT, PLANNER_PORT, INTEGRATIONS_PORT), and the credentials of
# the database it serves (DEMO_CREDENTIALS for another file, e.g. the output of npm run -s provision).
CREDENTIALS=${DEMO_CREDENTIALS:-$(dirname "$0")/../../.data/demo-credentials.json}
[ -r "$CREDENTIALS" ] || { echo "no $CREDENTIALS: start the platform with npm start first (or set DEMO_CREDENTIALS)" >&2; exit 1; }
API_KEY=$(jq -r .apiKey "$CREDENTIALS")
CLIENT_SECRET=$(jq -r .clientSecret "$CREDENTIALS")
COMPANY_ID=$(jq -r .companyId "$CREDENTIALS")
RUN=$RANDOM # external ids of this run

TOKEN=$(curl -sf -X POST -u "$API_KEY:$CLIENT_SECRET" "$MAIN/oauth/token?grant_type=client_credentials" | jq -r .access_token)
call() { # method url [json-body]: prints the body and the status
  curl -sS -X "$1" "$2" -H "Authorization: Bearer $TOKEN" ${3:+-H 'Content-Type: application/json' -d "$3"} -w ' -> %{http_code}\n'
}
step() { printf '\n# %s\n' "$1"; }

step 'create a client and a project referencing it, by JIRA ids'
call POST "$INTEGRATIONS/clients" "{\"metadata\":{\"source\":\"JIRA\"},\"id\":\"CLI-$RUN\",\"name\":\"Jira client $RUN\"}"
PROJECT=$(call POST "$INTEGRATIONS/projects" "{\"metadata\":{\"source\":\"JIRA\"},\"id\":\"PROJ-$RUN\",\"name\":\"Spring\",\"client_id\":\"CLI-$RUN\",\"start\":\"2026-03-01\",\"end\":\"2026-06-30\"}")
echo "$PROJECT"
PROJECT_ID=$(echo "$PROJECT" | sed 's/ -> .*//' | jq .id)
step 'the same external id again: DuplicateExternalIdError (422)'
call POST "$INTEGRATIONS/clients" "{\"metadata\":{\"source\":\"JIRA\"},\"id\":\"CLI-$RUN\",\"name\":\"Again\"}"
step 'rename the project by its JIRA id, and see it in main-api'
call PUT "$INTEGRATIONS/projects/PROJ-$RUN" '{"metadata":{"source":"JIRA"},"name":"Spring launch"}' | jq -c '{id, name}' 2>/dev/null || true
call GET "$MAIN/projects/$PROJECT_ID" | sed 's/ -> .*//' | jq -c '{id, name, client: .client.name}'
step 'look the mapping up'
call GET "$INTEGRATIONS/projects/PROJ-$RUN?source=JIRA"
step 'errors: unknown source, unknown reference, unknown external id'
call POST "$INTEGRATIONS/projects" '{"metadata":{"source":"MYSPACE"},"id":"X","name":"x","client_id":"CLI-1"}'
call POST "$INTEGRATIONS/projects" "{\"metadata\":{\"source\":\"JIRA\"},\"id\":\"X-$RUN\",\"name\":\"x\",\"client_id\":\"NOPE\"}"
call PUT "$INTEGRATIONS/projects/NOPE" '{"metadata":{"source":"JIRA"},"name":"x"}'

step 'webhooks: let GITHUB send events (C-Level), then send a signed one'
SECRET=$(call PUT "$INTEGRATIONS/webhook-sources/GITHUB" "{\"api_key\":\"$API_KEY\",\"client_secret\":\"$CLIENT_SECRET\"}" | sed 's/ -> .*//' | jq -r .signing_secret)
TS=$(date +%s)
BODY="{\"action\":\"create\",\"entity\":\"clients\",\"external_id\":\"GH-$RUN\",\"data\":{\"name\":\"From GitHub $RUN\"}}"
SIG=$(printf '%s' "$TS.$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')
for attempt in 1 2; do # the second delivery is recognised by its event id
  curl -sS -X POST "$INTEGRATIONS/webhooks/GITHUB" -H 'Content-Type: application/json' -H "X-Company-Id: $COMPANY_ID" \
    -H "X-Webhook-Id: evt-$RUN" -H "X-Webhook-Timestamp: $TS" -H "X-Webhook-Signature: sha256=$SIG" -d "$BODY" -w ' -> %{http_code}\n'
done
step 'a bad signature: 401, nothing stored'
curl -sS -X POST "$INTEGRATIONS/webhooks/GITHUB" -H 'Content-Type: application/json' -H "X-Company-Id: $COMPANY_ID" \
  -H "X-Webhook-Id: evt-bad-$RUN" -H "X-Webhook-Timestamp: $TS" -H "X-Webhook-Signature: sha256=$(printf '0%.0s' {1..64})" -d "$BODY" -w ' -> %{http_code}\n'

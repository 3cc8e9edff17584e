#!/usr/bin/env bash
# The README's planner curl session, runnable: with `npm start` running, it uses the demo
# credentials in .data/demo-credentials.json, prepares a user and two projects in main-api, then
# goes through the four /allocation endpoints and their errors.
# Usage: tools/local/planner-session.sh [main_api_url] [planner_url]   (needs curl and jq)
set -euo pipefail
MAIN=${1:-http://localhost:${MAIN_API_PORT:-3000}/v1}
PLANNER=${2:-http://localhost:${PLANNER_PORT:-3001}}
# The ports npm start used (MAIN_API_PORT, PLANNER_PORT, INTEGRATIONS_PORT), and the credentials of
# the database it serves (DEMO_CREDENTIALS for another file, e.g. the output of npm run -s provision).
CREDENTIALS=${DEMO_CREDENTIALS:-$(dirname "$0")/../../.data/demo-credentials.json}
[ -r "$CREDENTIALS" ] || { echo "no $CREDENTIALS: start the platform with npm start first (or set DEMO_CREDENTIALS)" >&2; exit 1; }
API_KEY=$(jq -r .apiKey "$CREDENTIALS")
CLIENT_SECRET=$(jq -r .clientSecret "$CREDENTIALS")
COMPANY_ID=$(jq -r .companyId "$CREDENTIALS")
BOSS_ID=$(jq -r .userId "$CREDENTIALS")

TOKEN=$(curl -sf -X POST -u "$API_KEY:$CLIENT_SECRET" "$MAIN/oauth/token?grant_type=client_credentials" | jq -r .access_token)
call() { # method url [json-body]: prints the status and the body
  curl -sS -X "$1" "$2" -H "Authorization: Bearer $TOKEN" ${3:+-H 'Content-Type: application/json' -d "$3"} \
    -w ' -> %{http_code}\n'
}
step() { printf '\n# %s\n' "$1"; }
allocation() { # user project from to hours
  printf '{"userId":%s,"companyId":%s,"resource":{"typeId":"Project","entityId":%s},"from":"%s","to":"%s","assignedByUserId":%s,"allocatedHours":%s}' \
    "$1" "$COMPANY_ID" "$2" "$3" "$4" "$BOSS_ID" "$5"
}

step 'main-api: a client, two projects, a part-time user with a leave'
CLIENT_ID=$(call POST "$MAIN/clients" '{"name":"Planner demo client"}' | sed 's/ -> .*//' | jq .id)
WEBSITE=$(call POST "$MAIN/projects" "{\"name\":\"Website\",\"client_id\":$CLIENT_ID}" | sed 's/ -> .*//' | jq .id)
ADS=$(call POST "$MAIN/projects" "{\"name\":\"Ads\",\"client_id\":$CLIENT_ID}" | sed 's/ -> .*//' | jq .id)
USER_ID=$(call POST "$MAIN/users" "{\"first_name\":\"Ada\",\"last_name\":\"Planned\",\"email\":\"ada.$RANDOM@demo.example\",\"role_id\":4}" | sed 's/ -> .*//' | jq .id)
call PUT "$MAIN/working-time/users/$USER_ID" '{"entries":[{"day_of_week":1,"daily_hours":4,"start_at":"09:00:00","end_at":"13:00:00"},{"day_of_week":2,"daily_hours":4,"start_at":"09:00:00","end_at":"13:00:00"},{"day_of_week":3,"daily_hours":4,"start_at":"09:00:00","end_at":"13:00:00"}]}' >/dev/null
call POST "$MAIN/user/leaves" "{\"userId\":$USER_ID,\"leaveTypeId\":1,\"start\":\"2027-01-12T00:00:00Z\",\"end\":\"2027-01-12T23:59:59Z\",\"allDay\":true}" >/dev/null
echo "user $USER_ID (Mon-Wed mornings, on leave Tue 2027-01-12), projects Website $WEBSITE and Ads $ADS"

step 'save: 200, no body'
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-01-06 2027-01-19 16)"
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$ADS" 2027-01-04 2027-01-15 18)"
step 'save again on overlapping days: AllocationAlreadyExistInDatesRangeError'
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-01-19 2027-01-22 8)"
step 'invalid: from after to, more than 12 months, no hours: InvalidAllocationError'
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-03-05 2027-03-01 8)"
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-03-01 2028-03-02 8)"
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-03-01 2027-03-05 null)"
step 'unknown user and project; a weekend: UserNotFoundError, ProjectNotFoundError, UserNotHaveWorkDaysError'
call POST "$PLANNER/allocation/saveAllocation" "$(allocation 999999 "$WEBSITE" 2027-03-01 2027-03-05 8)"
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" 999999 2027-03-01 2027-03-05 8)"
call POST "$PLANNER/allocation/saveAllocation" "$(allocation "$USER_ID" "$WEBSITE" 2027-03-06 2027-03-07 8)"

step 'get: capacity 20 (5 mornings, the leave removed), Ads prorated 18 x 4/6 = 12, availability 20 - 16 - 12 = -8'
call GET "$PLANNER/allocation/getAllocations/$WEBSITE"
step 'update: move the Website allocation to March on the Ads project'
call PUT "$PLANNER/allocation/updateAllocation" "{\"oldAllocation\":$(allocation "$USER_ID" "$WEBSITE" 2027-01-06 2027-01-19 16),\"newAllocation\":$(allocation "$USER_ID" "$ADS" 2027-03-01 2027-03-10 20)}"
call GET "$PLANNER/allocation/getAllocations/$WEBSITE"
step 'remove: 200, then AllocationNotFoundError'
call DELETE "$PLANNER/allocation/removeAllocation" "$(allocation "$USER_ID" "$ADS" 2027-03-01 2027-03-10 20)"
call DELETE "$PLANNER/allocation/removeAllocation" "$(allocation "$USER_ID" "$ADS" 2027-03-01 2027-03-10 20)"
step 'a project of no company you can see: 404 ProjectNotFoundError'
call GET "$PLANNER/allocation/getAllocations/999999"

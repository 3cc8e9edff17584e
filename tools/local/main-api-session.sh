#!/usr/bin/env bash
# The README's main-api curl session, runnable: with `npm start` running, it uses the demo
# credentials in .data/demo-credentials.json and exercises each main-api resource once.
# Usage: tools/local/main-api-session.sh [base_url]   (needs curl and jq)
set -euo pipefail
BASE=${1:-http://localhost:${MAIN_API_PORT:-3000}/v1}
# The ports npm start used (MAIN_API_PORT, PLANNER_PORT, INTEGRATIONS_PORT), and the credentials of
# the database it serves (DEMO_CREDENTIALS for another file, e.g. the output of npm run -s provision).
CREDENTIALS=${DEMO_CREDENTIALS:-$(dirname "$0")/../../.data/demo-credentials.json}
[ -r "$CREDENTIALS" ] || { echo "no $CREDENTIALS: start the platform with npm start first (or set DEMO_CREDENTIALS)" >&2; exit 1; }
API_KEY=$(jq -r .apiKey "$CREDENTIALS")
CLIENT_SECRET=$(jq -r .clientSecret "$CREDENTIALS")

TOKEN=$(curl -sf -X POST -u "$API_KEY:$CLIENT_SECRET" "$BASE/oauth/token?grant_type=client_credentials" | jq -r .access_token)
api() { # method path [json-body]
  curl -sS -X "$1" "$BASE$2" -H "Authorization: Bearer $TOKEN" -H "Idempotency-Key: session-$RANDOM-$RANDOM" \
    ${3:+-H 'Content-Type: application/json' -d "$3"} -w '\n'
}
step() { printf '\n# %s\n' "$1"; }

step 'reference data';   api GET /currencies | jq -c '.[0:3]'
step 'client';           CLIENT=$(api POST /clients '{"name":"Northwind","currency_id":1}'); echo "$CLIENT" | jq -c .
CLIENT_ID=$(echo "$CLIENT" | jq .id)
step 'brand';            BRAND_ID=$(api POST /brands "{\"client_id\":$CLIENT_ID,\"name\":\"Organic\"}" | jq .id); echo "brand $BRAND_ID"
step 'product';          PRODUCT_ID=$(api POST /products "{\"client_id\":$CLIENT_ID,\"brand_id\":$BRAND_ID,\"name\":\"Oats\"}" | jq .id)
api GET "/products/$PRODUCT_ID" | jq -c .
step 'position + user';  POSITION_ID=$(api POST /positions '{"name":"Designer"}' | jq .id)
USER=$(api POST /users "{\"first_name\":\"Ada\",\"last_name\":\"L\",\"email\":\"ada.$RANDOM@demo.example\",\"role_id\":4,\"user_position_id\":$POSITION_ID}")
echo "$USER" | jq -c .; USER_ID=$(echo "$USER" | jq .id)
api GET "/users?ids=$USER_ID" | jq -c '.[0] | {id, position_name}'
step 'team + workspace'; TEAM_ID=$(api POST /teams '{"name":"Pod"}' | jq .id)
api POST "/teams/$TEAM_ID/users" "{\"user_ids\":[$USER_ID]}" | jq -c '{id, user_ids}'
api POST /workspaces '{"name":"Studio"}' | jq -c .
step 'contract';         CONTRACT_ID=$(api POST /contracts "{\"client_id\":$CLIENT_ID,\"name\":\"MSA\"}" | jq .id)
api DELETE "/contracts/$CONTRACT_ID" | jq -c '{id, deleted_at, currency}'
step 'ratecard + labels'; api POST /ratecards "{\"name\":\"Standard\",\"prices\":[{\"position_id\":$POSITION_ID,\"price\":95}]}" | jq -c '{id, prices}'
api POST /labels '{"name":"Priority","model":"project"}' >/dev/null; api GET '/categories/labels-model?model=project' | jq -c .
step 'fee';              api POST "/clients/$CLIENT_ID/fees" '{"name":"Retainer","estimate":12000,"start":"2026-01-01","end":"2026-12-31"}' | jq -c .
step 'transaction';      TRANSACTION=$(api POST /transactions "{\"date\":\"2026-11-20\",\"type\":\"invoice\",\"total\":1500,\"currency_change_amount\":1500,\"exchange\":1,\"source_id\":1,\"currency_id\":1,\"receipt_number\":\"INV-1\",\"is_income\":true,\"client_id\":$CLIENT_ID}")
echo "$TRANSACTION" | jq -c .; api DELETE "/transactions/$(echo "$TRANSACTION" | jq .id)" | jq -c '{id}'
step 'working time';     api PUT "/working-time/users/$USER_ID" '{"entries":[{"day_of_week":1,"daily_hours":8,"start_at":"09:00:00","end_at":"18:00:00"}]}' | jq -c .
api GET /working-time/company/with/users | jq -c 'keys'
step 'leaves';           api POST /user/leaves "{\"userId\":$USER_ID,\"leaveTypeId\":1,\"start\":\"2026-12-21T00:00:00Z\",\"end\":\"2026-12-24T23:59:59Z\",\"allDay\":true}" | jq -c .
api POST /user/leaves "{\"userId\":$USER_ID,\"leaveTypeId\":1,\"start\":\"2026-12-22T00:00:00Z\",\"end\":\"2026-12-23T00:00:00Z\"}" | jq -c .
api GET "/user/leaves?user_ids=$USER_ID&from=2026-12-01&to=2026-12-31" | jq -c 'length'
step 'lists';            api GET "/clients?perPage=1&filters=$(jq -rn '{name:"north"}|tojson|@uri')" | jq -c '{total, perPage, page, lastPage}'
step 'project';          PROJECT=$(api POST /projects "{\"name\":\"Spring\",\"client_id\":$CLIENT_ID,\"income_type\":\"hourly_rate\",\"ratecard_id\":$(api GET /ratecards | jq '.data[0].id'),\"estimated_by_position\":true,\"users_positions\":[{\"id\":$POSITION_ID,\"estimated_time\":40}]}")
PROJECT_ID=$(echo "$PROJECT" | jq .id); echo "$PROJECT" | jq -c '{id, estimated_time, total_estimated}'
step 'task + hours';     TASK_ID=$(api POST /tasks "{\"project_id\":$PROJECT_ID,\"name\":\"Key visual\"}" | jq .id)
api POST "/tasks/$TASK_ID/attachments/source/dropbox" '{"filename":"https://dropbox.example/s/x","originalname":"kv.png","size":1024,"available":true}' | jq -c '{id, source, media_type}'
api POST /hours "{\"user_id\":$USER_ID,\"project_id\":$PROJECT_ID,\"task_id\":$TASK_ID,\"date\":\"2026-11-20\",\"hours\":4}" | jq -c .
api POST "/projects/$PROJECT_ID/project_cost" '{"title":"Stock photos","cost":120,"datetime":"2026-11-21"}' | jq -c .
step 'project figures';  api GET "/projects/$PROJECT_ID" | jq -c '{elapsed_time, total_estimated, estimated_profitability, profitability_now, usersPositionsProject}'

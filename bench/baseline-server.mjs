// The baseline of `npm run bench`: a minimal Fastify + pg server answering the benchmarked requests
// with the same SQL statements the services run (same joins, filters, order, page size and figures),
// written out by hand, without the framework, authentication, validation, mapping or main-api calls,
// as the services' runtime roles under the same row-level security.
// The services are measured against what this costs on the same machine, in the same run.
// Usage (by bench/run-all.mjs): node bench/baseline-server.mjs <port> <database url> <company id>
import { createRequire } from 'node:module';
import Fastify from 'fastify';
import pg from 'pg';

const [port, databaseUrl, company] = process.argv.slice(2);
const companyId = Number(company);
// Each service's schema first and its runtime role, as the service's connections have them, so its
// statements run as written and under the same row-level security policies. The company is a session
// setting here (the service sets it per round trip, with a statement that shares the round trip), so
// PostgreSQL evaluates the same policies for the same company on both sides.
const poolFor = (schema, role) =>
  new pg.Pool({
    connectionString: databaseUrl,
    max: 10,
    options: `-c search_path=${schema},public -c role=${role} -c app.company_id=${companyId}`,
  });
const pool = poolFor('main_api', 'main_api_runtime');
const plannerPool = poolFor('planner', 'planner_runtime');
const app = Fastify();

// Fixed statements are prepared once per connection, as the services prepare theirs (ScopedSql);
// the list's statements, built per filter in the services, are sent unprepared here too.
const statementNames = new Map();
function prepared(text, values, on = pool) {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `baseline_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return on.query({ name, text, values });
}

// The statements main-api runs for the project reads (same joins, filters, order and figures), as
// plain SQL: what the reads cost without the framework, authentication, validation and mapping.
// The project with the columns of its relations the list's read shape shows.
const PROJECT_WITH_RELATIONS = `SELECT project.*, client.id AS client_id_, client.name AS client_name, client.archived AS client_archived,
    pm.id AS pm_id_, pm.first_name AS pm_first_name, pm.last_name AS pm_last_name, pm.email AS pm_email, pm.role_id AS pm_role_id
  FROM main_api.projects project
  LEFT JOIN main_api.clients client ON client.id = project.client_id AND client.deleted_at IS NULL
  LEFT JOIN main_api.users pm ON pm.id = project.pm_id AND pm.deleted_at IS NULL`;
const PROJECT_TOTALS = `SELECT project.id AS project_id, logged.hours, logged.earned,
    (SELECT sum(line.estimated_hours * coalesce(price.price, 0)) FROM main_api.project_positions line
       LEFT JOIN main_api.ratecard_prices price ON price.ratecard_id = project.user_positions_header_id AND price.position_id = line.position_id
      WHERE line.project_id = project.id AND line.company_id = project.company_id AND line.deleted_at IS NULL) AS planned,
    (SELECT sum(cost) FROM main_api.project_estimates budget WHERE budget.project_id = project.id AND budget.company_id = project.company_id) AS budgeted,
    (SELECT sum(cost) FROM main_api.project_costs cost WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
    (SELECT estimate FROM main_api.fees fee WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee
  FROM main_api.projects project
  LEFT JOIN LATERAL (SELECT sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
      FROM main_api.time_entries entry
      LEFT JOIN main_api.ratecard_prices price ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
     WHERE entry.project_id = project.id AND entry.company_id = project.company_id) logged ON true
 WHERE project.id = ANY($1) AND project.company_id = $2`;

// GET /v1/projects?perPage=50&filters={"status":"active"}: the count and the page side by side, then
// the figures of the page.
app.get('/v1/projects', async (request) => {
  const filters = JSON.parse(request.query.filters ?? '{}');
  const statuses = filters.status ? [].concat(filters.status) : ['active', 'finished', 'suspended'];
  const perPage = Number(request.query.perPage ?? 20);
  const page = Number(request.query.page ?? 1);
  const where = 'WHERE project.company_id = $1 AND project.status = ANY($2) AND project.deleted_at IS NULL';
  const [count, rows] = await Promise.all([
    pool.query(`SELECT count(*) FROM main_api.projects project ${where}`, [companyId, statuses]),
    pool.query(`${PROJECT_WITH_RELATIONS} ${where} ORDER BY project.id ASC LIMIT $3 OFFSET $4`, [
      companyId,
      statuses,
      perPage,
      (page - 1) * perPage,
    ]),
  ]);
  const totals = await prepared(PROJECT_TOTALS, [rows.rows.map((row) => row.id), companyId]);
  const totalsOf = new Map(totals.rows.map((row) => [row.project_id, row]));
  const total = Number(count.rows[0].count);
  return {
    total: String(total),
    perPage,
    page,
    lastPage: Math.ceil(total / perPage),
    data: rows.rows.map((row) => ({ ...row, figures: totalsOf.get(row.id) })),
  };
});

// GET /v1/projects/{id}: main-api's one statement (apps/main-api/src/projects/project-reads.repository.ts,
// PROJECT_DETAIL, with the figures' sums of project-figures.repository.ts): the project, its to-one
// relations, its estimate lines, figures and logged hours by position. $3: no own-client restriction.
const PROJECT_DETAIL = `SELECT project.id, project.company_id AS "companyId", project.client_id AS "clientId",
       project.pm_id AS "pmId", project.created_by AS "createdBy", project.template_id AS "templateId",
       project.brand_id AS "brandId", project.product_id AS "productId", project.fee_id AS "feeId",
       project.contract_id AS "contractId", project.user_positions_header_id AS "userPositionsHeaderId",
       project.name, project.brief, project.health, project.status, project.start, project.end,
       project.estimated_time AS "estimatedTime", project.archived, project.billable,
       project.income_type AS "incomeType", project.estimated, project.labels,
       project.estimated_by_position AS "estimatedByPosition",
       project.estimation_by_categories AS "estimationByCategories",
       project.estimated_by_hourly_rates AS "estimatedByHourlyRates", project.exchange,
       project.currency_change_amount AS "currencyChangeAmount", project.created_at AS "createdAt",
       project.updated_at AS "updatedAt", project.deleted_at AS "deletedAt", project.version,
       CASE WHEN client.id IS NOT NULL
            THEN json_build_object('id', client.id, 'name', client.name, 'archived', client.archived)
       END AS client,
       CASE WHEN pm.id IS NOT NULL
            THEN json_build_object('id', pm.id, 'firstName', pm.first_name, 'lastName', pm.last_name,
                                   'email', pm.email, 'roleId', pm.role_id)
       END AS pm,
       CASE WHEN ratecard.id IS NOT NULL
            THEN json_build_object('id', ratecard.id, 'name', ratecard.name,
                                   'originalName', ratecard.original_name, 'percent', ratecard.percent,
                                   'currencyId', ratecard.currency_id,
                                   'linkedToBasePrice', ratecard.linked_to_base_price)
       END AS ratecard,
       (SELECT coalesce(json_agg(json_build_object('id', line.id, 'positionId', line.position_id,
                                                   'projectId', line.project_id,
                                                   'estimatedHours', line.estimated_hours,
                                                   'positionName', position.name) ORDER BY line.id), '[]')
          FROM project_positions line
          LEFT JOIN positions position ON position.id = line.position_id AND position.deleted_at IS NULL
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS "positionLines",
       (SELECT coalesce(json_agg(json_build_object('id', line.id, 'categoryId', line.category_id,
                                                   'estimatedHours', line.estimated_hours)
                                 ORDER BY line.id), '[]')
          FROM project_categories line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS "categoryLines",
       logged.hours, logged.earned,
          (SELECT sum(line.estimated_hours * coalesce(price.price, 0))
             FROM project_positions line
             LEFT JOIN ratecard_prices price
               ON price.ratecard_id = project.user_positions_header_id AND price.position_id = line.position_id
            WHERE line.project_id = project.id AND line.company_id = project.company_id AND line.deleted_at IS NULL) AS planned,
          (SELECT sum(cost) FROM project_estimates budget
            WHERE budget.project_id = project.id AND budget.company_id = project.company_id) AS budgeted,
          (SELECT sum(cost) FROM project_costs cost
            WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
          (SELECT estimate FROM fees fee WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee,
       (SELECT coalesce(json_agg(by_position), '[]')
     FROM (SELECT entry.user_position_id AS position_id, position.category_id,
                  sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
             FROM time_entries entry
             LEFT JOIN positions position ON position.id = entry.user_position_id
             LEFT JOIN ratecard_prices price
               ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
            WHERE entry.project_id = project.id AND entry.company_id = project.company_id
            GROUP BY entry.user_position_id, position.category_id) by_position) AS "loggedByPosition"
  FROM projects project
  LEFT JOIN clients client ON client.id = project.client_id AND client.deleted_at IS NULL
  LEFT JOIN users pm ON pm.id = project.pm_id AND pm.deleted_at IS NULL
  LEFT JOIN ratecards ratecard
    ON ratecard.id = project.user_positions_header_id AND ratecard.deleted_at IS NULL
  LEFT JOIN LATERAL (
          SELECT sum(entry.hours) AS hours, sum(entry.hours * coalesce(price.price, 0)) AS earned
            FROM time_entries entry
            LEFT JOIN ratecard_prices price
              ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
           WHERE entry.project_id = project.id AND entry.company_id = project.company_id) logged ON true
 WHERE project.id = $1 AND project.company_id = $2
   AND ($3::int IS NULL OR project.client_id = $3) AND project.deleted_at IS NULL`;

app.get('/v1/projects/:id', async (request, reply) => {
  const { rows } = await prepared(PROJECT_DETAIL, [Number(request.params.id), companyId, null]);
  if (rows.length === 0) {
    return reply.status(404).send({ status: 404 });
  }
  return rows[0];
});

// getAllocations: the planner's two queries, without its main-api call.
const reportedColumns = (alias) =>
  `${alias}.id AS "id", ${alias}.user_id AS "userId", ${alias}.project_id AS "projectId", ${alias}.from_date AS "fromDate",
   ${alias}.to_date AS "toDate", ${alias}.allocated_hours::float8 AS "allocatedHours",
   to_char(${alias}.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') AS "createdAt"`;
app.get('/allocation/getAllocations/:projectId', async (request) => {
  const projectId = Number(request.params.projectId);
  const [here, others] = await Promise.all([
    prepared(
      `SELECT ${reportedColumns('allocation')} FROM planner.allocations allocation
        WHERE allocation.company_id = $1 AND allocation.project_id = $2 AND allocation.user_id IS NOT NULL
        ORDER BY allocation.from_date ASC, allocation.created_at ASC`,
      [companyId, projectId],
      plannerPool,
    ),
    prepared(
      `SELECT ${reportedColumns('other')} FROM planner.allocations other
         INNER JOIN (SELECT span.user_id AS user_id, daterange(min(span.from_date), max(span.to_date), '[]') AS days
                       FROM planner.allocations span WHERE span.company_id = $1 AND span.project_id = $2
                        AND span.user_id IS NOT NULL
                      GROUP BY span.user_id) here
           ON here.user_id = other.user_id AND daterange(other.from_date, other.to_date, '[]') && here.days
        WHERE other.company_id = $1 AND other.project_id <> $2`,
      [companyId, projectId],
      plannerPool,
    ),
  ]);
  return { users: here.rows, others: others.rows };
});

// saveAllocation: the insert, without the user, project and working-time look-ups.
app.post('/allocation/saveAllocation', async (request, reply) => {
  const body = request.body;
  try {
    await plannerPool.query(
      `INSERT INTO planner.allocations (company_id, user_id, project_id, from_date, to_date, allocated_hours, assigned_by_user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        companyId,
        body.userId,
        body.resource.entityId,
        body.from,
        body.to,
        body.allocatedHours,
        body.assignedByUserId,
      ],
    );
    return reply.status(200).send();
  } catch {
    return reply.status(400).send({ error: 'AllocationAlreadyExistInDatesRangeError' });
  }
});

// The planner v2 ledger (issue 37): the statements LedgerRepository runs, in the same order and
// transaction, unprepared as the service sends them; the days are planned here for the bench's
// bookings only (hours per day on Monday to Friday), without main-api's calendar look-up.
const LEDGER_COLUMNS = `a.id, a.user_id, a.project_id, a.from_date::text AS "from", a.to_date::text AS "to",
  a.status, a.mode, a.hours_per_day::float8 AS hours_per_day, a.percent::float8 AS percent_of_capacity,
  a.allocated_hours::float8 AS total_hours, a.note, a.billable, a.task_id, a.assigned_by_user_id,
  a.confirmed_by_user_id, to_char(a.confirmed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS confirmed_at,
  a.version, to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
  to_char(a.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at`;
const REPLANNED = `(a.mode IN ('hours_per_day', 'percent_of_capacity')
          OR NOT EXISTS (SELECT 1 FROM allocation_days d WHERE d.allocation_id = a.id))`;
const LEDGER_DAYS = `SELECT allocation_id, day::text AS date, hours::float8 AS hours, pinned FROM allocation_days
      WHERE company_id = $1 AND allocation_id = ANY($2::uuid[]) ORDER BY allocation_id, day`;

async function ledgerDays(ids) {
  const days = new Map();
  if (ids.length === 0) {
    return days;
  }
  const { rows } = await plannerPool.query(LEDGER_DAYS, [companyId, ids]);
  for (const row of rows) {
    const day = { date: row.date, hours: row.hours, pinned: row.pinned };
    const list = days.get(row.allocation_id);
    if (list) {
      list.push(day);
    } else {
      days.set(row.allocation_id, [day]);
    }
  }
  return days;
}

app.post('/v2/allocations', async (request, reply) => {
  const body = request.body;
  await plannerPool.query(
    'SELECT capacity_policy, count_tentative, version FROM planner_settings WHERE company_id = $1',
    [companyId],
  );
  await plannerPool.query(
    `SELECT min(a.from_date)::text AS "from", max(a.to_date)::text AS "to" FROM allocations a
        WHERE a.company_id = $1 AND a.user_id = $2 AND a.to_date >= $3::date AND a.from_date <= $4::date
          AND ${REPLANNED}`,
    [companyId, body.user_id, body.from, body.to],
  );
  const days = [];
  for (let day = new Date(`${body.from}T00:00:00Z`); day <= new Date(`${body.to}T00:00:00Z`);) {
    const weekday = day.getUTCDay();
    days.push({
      date: day.toISOString().slice(0, 10),
      hours: weekday === 0 || weekday === 6 ? 0 : body.hours_per_day,
    });
    day = new Date(day.getTime() + 86_400_000);
  }
  const total = days.reduce((sum, day) => sum + day.hours, 0);
  const client = await plannerPool.connect();
  let id;
  const over = [];
  try {
    await client.query('BEGIN');
    await client.query(
      'SELECT pg_advisory_xact_lock(($1::bigint << 32) | person) FROM unnest($2::integer[]) AS person ORDER BY person',
      [companyId, [body.user_id]],
    );
    await client.query(
      `SELECT ${LEDGER_COLUMNS} FROM allocations a
        WHERE a.company_id = $1 AND a.user_id = $2 AND a.to_date >= $3::date AND a.from_date <= $4::date
          AND ($5::uuid IS NULL OR a.id <> $5::uuid) AND ${REPLANNED}`,
      [companyId, body.user_id, body.from, body.to, null],
    );
    const overlapping = await client.query(
      `SELECT from_date::text AS "from", to_date::text AS "to" FROM allocations
        WHERE company_id = $1 AND user_id = $2 AND project_id = $3
          AND daterange(from_date, to_date, '[]') && daterange($4::date, $5::date, '[]')
          AND ($6::uuid IS NULL OR id <> $6::uuid)
        ORDER BY from_date LIMIT 1`,
      [companyId, body.user_id, body.project_id, body.from, body.to, null],
    );
    if (overlapping.rows.length > 0) {
      await client.query('ROLLBACK');
      return reply.status(409).send({ error: 'AllocationAlreadyExistInDatesRangeError' });
    }
    const inserted = await client.query(
      `INSERT INTO allocations (company_id, user_id, project_id, from_date, to_date, status, mode,
              hours_per_day, percent, allocated_hours, note, billable, task_id, assigned_by_user_id,
              confirmed_by_user_id, confirmed_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) RETURNING id`,
      [
        companyId,
        body.user_id,
        body.project_id,
        body.from,
        body.to,
        'confirmed',
        'hours_per_day',
        body.hours_per_day,
        null,
        total.toFixed(2),
        null,
        true,
        null,
        body.assigned_by_user_id,
        body.assigned_by_user_id,
        new Date(),
      ],
    );
    id = inserted.rows[0].id;
    await client.query('DELETE FROM allocation_days WHERE company_id = $1 AND allocation_id = $2', [
      companyId,
      id,
    ]);
    await client.query(
      `INSERT INTO allocation_days (company_id, allocation_id, day, user_id, status, hours, pinned)
       SELECT $1, $2, day, $3, $4, hours, pinned
         FROM unnest($5::date[], $6::numeric[], $7::boolean[]) AS planned (day, hours, pinned)`,
      [
        companyId,
        id,
        body.user_id,
        'confirmed',
        days.map((day) => day.date),
        days.map((day) => day.hours),
        days.map(() => false),
      ],
    );
    const booked = await client.query(
      `SELECT day::text AS date,
              coalesce(sum(hours) FILTER (WHERE status = 'confirmed'), 0)::float8 AS confirmed,
              coalesce(sum(hours) FILTER (WHERE status = 'tentative'), 0)::float8 AS tentative
         FROM allocation_days
        WHERE company_id = $1 AND user_id = $2 AND day BETWEEN $3::date AND $4::date
        GROUP BY day`,
      [companyId, body.user_id, body.from, body.to],
    );
    for (const row of booked.rows) {
      const weekday = new Date(`${row.date}T00:00:00Z`).getUTCDay();
      const capacity = weekday === 0 || weekday === 6 ? 0 : 8;
      if (row.confirmed > capacity) {
        over.push({ date: row.date, capacity, booked: row.confirmed, over: row.confirmed - capacity });
      }
    }
    if (over.length > 0 && body.capacity_policy === 'reject') {
      await client.query('ROLLBACK');
      return reply.status(422).send({ error: 'OverCapacityError', over_allocated_days: over });
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
  const { rows } = await plannerPool.query(
    `SELECT ${LEDGER_COLUMNS} FROM allocations a WHERE a.company_id = $1 AND a.id = ANY($2::uuid[])`,
    [companyId, [id]],
  );
  const planned = await ledgerDays([id]);
  return reply.status(201).send({ ...rows[0], days: planned.get(id) ?? [], over_allocated_days: over });
});

app.get('/v2/allocations', async (request) => {
  const query = request.query;
  const limit = Number(query.limit ?? 100);
  const { rows } = await plannerPool.query(
    `SELECT ${LEDGER_COLUMNS} FROM allocations a
        WHERE a.company_id = $1
          AND ($2::integer[] IS NULL OR a.user_id = ANY($2::integer[]))
          AND ($3::integer[] IS NULL OR a.project_id = ANY($3::integer[]))
          AND ($4::varchar IS NULL OR a.status = $4::varchar)
          AND ($5::date IS NULL OR a.to_date >= $5::date)
          AND ($6::date IS NULL OR a.from_date <= $6::date)
          AND ($7::date IS NULL OR (a.from_date, a.id) > ($7::date, $8::uuid))
        ORDER BY a.from_date, a.id
        LIMIT $9`,
    [
      companyId,
      query.user_ids ? query.user_ids.split(',').map(Number) : null,
      query.project_ids ? query.project_ids.split(',').map(Number) : null,
      query.status ?? null,
      query.from ?? null,
      query.to ?? null,
      null,
      null,
      limit + 1,
    ],
  );
  const page = rows.slice(0, limit);
  const days = query.include === 'days' ? await ledgerDays(page.map((row) => row.id)) : undefined;
  const last = page.at(-1);
  return {
    data: days ? page.map((row) => ({ ...row, days: days.get(row.id) ?? [] })) : page,
    next_cursor:
      rows.length > limit && last ? Buffer.from(`${last.from}|${last.id}`).toString('base64url') : null,
    has_more: rows.length > limit,
  };
});

// GET /v2/availability (issue 38): the rows the planner's answer is made of, read straight from both
// schemas (the people of the team, their names and zones, their working weeks by first day, the
// holidays of the calendar in force each day, their approved leaves, and what they are booked for
// each day), and each day's figures computed in plain code, summed by period in hundredths.
const AVAILABILITY_PEOPLE = `SELECT u.id FROM main_api.users u
 WHERE u.company_id = $1 AND u.deleted_at IS NULL
   AND EXISTS (SELECT 1 FROM main_api.team_members member WHERE member.team_id = $2 AND member.user_id = u.id)
 ORDER BY u.id`;
const AVAILABILITY_USERS = `SELECT id, first_name, last_name, user_position_id, time_zone FROM main_api.users
 WHERE company_id = $1 AND id = ANY($2::integer[]) AND deleted_at IS NULL`;
const AVAILABILITY_SCHEDULES = `SELECT s.user_id, s.effective_from::text AS effective_from, e.day_of_week,
       e.daily_hours::float8 AS daily_hours, to_char(e.start_at, 'HH24:MI:SS') AS start_at, to_char(e.end_at, 'HH24:MI:SS') AS end_at
  FROM main_api.working_schedules s JOIN main_api.working_time_entries e ON e.schedule_id = s.id
 WHERE s.company_id = $1 AND s.user_id = ANY($2::integer[])
 ORDER BY s.user_id, s.effective_from, e.day_of_week`;
const AVAILABILITY_HOLIDAYS = `SELECT m.user_id, h.date::text AS date, h.hours_off::float8 AS hours_off
  FROM main_api.user_holiday_calendars m
  JOIN main_api.holiday_calendars c ON c.id = m.calendar_id AND c.deleted_at IS NULL
  JOIN main_api.holidays h ON h.calendar_id = m.calendar_id AND h.company_id = m.company_id
 WHERE m.company_id = $1 AND m.user_id = ANY($2::integer[])
   AND h.date BETWEEN $3::date AND $4::date AND h.date >= m.effective_from
   AND NOT EXISTS (SELECT 1 FROM main_api.user_holiday_calendars later
                    WHERE later.company_id = m.company_id AND later.user_id = m.user_id
                      AND later.effective_from > m.effective_from AND later.effective_from <= h.date)`;
const AVAILABILITY_LEAVES = `SELECT user_id, start, "end", all_day FROM main_api.user_leaves
 WHERE company_id = $1 AND user_id = ANY($2::integer[]) AND status = 'approved'
   AND start < $4::date + 1 AND "end" >= $3::date`;
const AVAILABILITY_BOOKED = `SELECT user_id, day::text AS date,
       coalesce(sum(hours) FILTER (WHERE status = 'confirmed'), 0)::float8 AS confirmed,
       coalesce(sum(hours) FILTER (WHERE status = 'tentative'), 0)::float8 AS tentative
  FROM allocation_days
 WHERE company_id = $1 AND user_id = ANY($2::integer[]) AND day BETWEEN $3::date AND $4::date
 GROUP BY user_id, day`;
const DAY_MS = 86_400_000;
const dayOf = (date) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOfDay = (day) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const zoneFormats = new Map();
// The offset of a zone at an instant, in ms, from Intl's parts (as the planner's time-zones.ts).
function offsetAt(zone, ms) {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const local = Date.UTC(
    +parts.year,
    +parts.month - 1,
    +parts.day,
    +parts.hour,
    +parts.minute,
    +parts.second,
  );
  return local - Math.floor(ms / 1000) * 1000;
}
const wallTime = (zone, day, time) => {
  const [h, m, sec] = time.split(':').map(Number);
  const guess = day * DAY_MS + ((h * 60 + m) * 60 + sec) * 1000;
  return guess - offsetAt(zone, guess - offsetAt(zone, guess));
};
const periodEnd = (day, granularity) => {
  if (granularity === 'week') {
    return day + ((7 - ((day + 4) % 7)) % 7);
  }
  if (granularity === 'month') {
    const date = new Date(day * DAY_MS);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0) / DAY_MS;
  }
  return day;
};
const FIGURES = ['working', 'holidays', 'time_off', 'capacity', 'confirmed', 'tentative'];
const hoursOf = (cents, includeTentative) => {
  const booked = cents.confirmed + (includeTentative ? cents.tentative : 0);
  return {
    working: cents.working / 100,
    holidays: cents.holidays / 100,
    time_off: cents.time_off / 100,
    capacity: cents.capacity / 100,
    confirmed: cents.confirmed / 100,
    tentative: cents.tentative / 100,
    available: (cents.capacity - booked) / 100,
    utilization: cents.capacity === 0 ? null : Math.round((booked / cents.capacity) * 10_000) / 10_000,
  };
};
// GET /v1/projects/{id}/forecast (issue 40): main-api's three statements (ForecastRepository) and the
// planner's two (what to plan again, then the planned hours by day: ReportsRepository), read here
// from both schemas instead of through the planner's HTTP route; the figures computed by main-api's
// own compiled computation (forecast.ts), so the two sides do the same arithmetic and the ratio
// measures the framework, the token, the validation and the planner hop.
const require = createRequire(import.meta.url);
const { projectForecast } = require('../dist/apps/main-api/apps/main-api/src/forecast/forecast.js');
const { summarizeProject } = require('../dist/apps/main-api/apps/main-api/src/projects/project-figures.js');
const FORECAST_FACTS = `SELECT project.id, project.start::text AS start, project."end"::text AS "end",
       project.income_type, project.estimated, project.estimated_time,
       project.estimated_by_position, project.estimation_by_categories,
       (SELECT sum(cost.cost) FROM project_costs cost
         WHERE cost.project_id = project.id AND cost.company_id = project.company_id) AS costs,
       (SELECT fee.estimate FROM fees fee
         WHERE fee.id = project.fee_id AND fee.company_id = project.company_id) AS fee,
       (SELECT coalesce(json_agg(json_build_object('position_id', price.position_id, 'price', price.price)), '[]')
          FROM ratecard_prices price
         WHERE price.ratecard_id = project.user_positions_header_id
           AND price.company_id = project.company_id) AS prices,
       (SELECT coalesce(json_agg(json_build_object('position_id', line.position_id,
                                                   'estimated_hours', line.estimated_hours)), '[]')
          FROM project_positions line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS position_lines,
       (SELECT coalesce(json_agg(json_build_object('category_id', line.category_id,
                                                   'estimated_hours', line.estimated_hours)), '[]')
          FROM project_categories line
         WHERE line.project_id = project.id AND line.company_id = project.company_id
           AND line.deleted_at IS NULL) AS category_lines
  FROM projects project
 WHERE project.id = ANY($1) AND project.company_id = $2 AND project.deleted_at IS NULL
 ORDER BY project.id`;
const FORECAST_APPROVED = `SELECT entry.project_id, entry.date::text AS date, entry.user_position_id AS position_id,
       sum(entry.hours)::float8 AS hours
  FROM time_entries entry
 WHERE entry.project_id = ANY($1) AND entry.company_id = $2 AND entry.status = 'approved'
 GROUP BY entry.project_id, entry.date, entry.user_position_id`;
const FORECAST_POSITIONS = `SELECT person.id AS user_id, person.user_position_id AS position_id, position.category_id
  FROM users person
  LEFT JOIN positions position
    ON position.id = person.user_position_id AND position.company_id = person.company_id
 WHERE person.id = ANY($1) AND person.company_id = $3
UNION ALL
SELECT NULL, position.id, position.category_id
  FROM positions position
 WHERE position.id = ANY($2) AND position.company_id = $3`;
const PLAN_AGAIN = `SELECT a.id FROM allocations a
  WHERE a.company_id = $1 AND a.project_id = ANY($2::integer[])
    AND a.to_date >= $3::date AND a.from_date <= $4::date
    AND (a.mode IN ('hours_per_day', 'percent_of_capacity')
         OR NOT EXISTS (SELECT 1 FROM allocation_days d WHERE d.allocation_id = a.id))
  ORDER BY a.from_date, a.id`;
const PLANNED_BY_DAY = `SELECT a.project_id, a.user_id, a.placeholder_id, p.position_id, p.category_id,
       date_trunc($5::text, d.day::timestamp)::date::text AS period_start,
       coalesce(sum(d.hours) FILTER (WHERE d.status = 'confirmed'), 0)::float8 AS confirmed_hours,
       coalesce(sum(d.hours) FILTER (WHERE d.status = 'tentative'), 0)::float8 AS tentative_hours
  FROM allocations a
  JOIN allocation_days d ON d.allocation_id = a.id AND d.company_id = a.company_id
  LEFT JOIN placeholders p ON p.id = a.placeholder_id AND p.company_id = a.company_id
 WHERE a.company_id = $1 AND a.project_id = ANY($2::integer[])
   AND a.to_date >= $3::date AND a.from_date <= $4::date
   AND d.day BETWEEN $3::date AND $4::date AND d.hours > 0
 GROUP BY a.project_id, a.user_id, a.placeholder_id, p.position_id, p.category_id,
          date_trunc($5::text, d.day::timestamp)
 ORDER BY a.project_id, period_start, a.user_id NULLS LAST, a.placeholder_id`;
app.get('/v1/projects/:id/forecast', async (request, reply) => {
  const ids = [Number(request.params.id)];
  const today = new Date().toISOString().slice(0, 10);
  const horizon = new Date(Date.parse(`${today}T00:00:00Z`) + 3650 * 86_400_000).toISOString().slice(0, 10);
  const [row] = (await prepared(FORECAST_FACTS, [ids, companyId])).rows;
  if (!row) {
    return reply.status(404).send({ message: 'not found' });
  }
  const [approved, planned] = await Promise.all([
    prepared(FORECAST_APPROVED, [ids, companyId]),
    (async () => {
      await plannerPool.query(PLAN_AGAIN, [companyId, ids, today, horizon]);
      return plannerPool.query(PLANNED_BY_DAY, [companyId, ids, today, horizon, 'day']);
    })(),
  ]);
  const userIds = [...new Set(planned.rows.filter((r) => r.user_id !== null).map((r) => r.user_id))];
  const positionIds = [
    ...new Set(
      [...planned.rows.filter((r) => r.user_id === null), ...approved.rows]
        .map((r) => r.position_id)
        .filter((id) => id !== null),
    ),
  ];
  const directory = (await prepared(FORECAST_POSITIONS, [userIds, positionIds, companyId])).rows;
  const prices = new Map(row.prices.map((price) => [price.position_id, Number(price.price)]));
  const plannedIncome = row.position_lines.reduce(
    (total, line) => total + Number(line.estimated_hours) * (prices.get(line.position_id) ?? 0),
    0,
  );
  const figures = summarizeProject(
    { incomeType: row.income_type, estimated: row.estimated },
    {
      hours: null,
      earned: null,
      budgeted: null,
      planned: String(plannedIncome),
      costs: row.costs,
      fee: row.fee,
    },
  );
  const project = {
    id: row.id,
    start: row.start,
    end: row.end,
    incomeType: row.income_type,
    estimateMode: row.estimated_by_position
      ? 'by_position'
      : row.estimation_by_categories
        ? 'by_category'
        : 'total',
    estimatedTime: Number(row.estimated_time),
    budgetAmount: figures.totalEstimated,
    costs: Number(row.costs ?? 0),
    prices,
    positionLines: row.position_lines.map((line) => ({
      position_id: line.position_id,
      estimated_hours: Number(line.estimated_hours),
    })),
    categoryLines: row.category_lines.map((line) => ({
      category_id: line.category_id,
      estimated_hours: Number(line.estimated_hours),
    })),
  };
  const positionOfUser = new Map();
  const categoryOfPosition = new Map();
  for (const entry of directory) {
    if (entry.user_id !== null) {
      positionOfUser.set(entry.user_id, entry.position_id);
    }
    if (entry.position_id !== null) {
      categoryOfPosition.set(entry.position_id, entry.category_id);
    }
  }
  return projectForecast(
    project,
    approved.rows,
    planned.rows,
    { positionOfUser, categoryOfPosition },
    {
      today,
      granularity: request.query.granularity ?? 'month',
      from: request.query.from,
      to: request.query.to,
      includeTentative: request.query.include_tentative === 'true',
    },
  );
});

app.get('/v2/availability', async (request) => {
  const { from, to } = request.query;
  const granularity = request.query.granularity ?? 'day';
  const includeTentative = request.query.include_tentative === 'true';
  const ids = request.query.user_ids
    ? request.query.user_ids.split(',').map(Number)
    : (await prepared(AVAILABILITY_PEOPLE, [companyId, Number(request.query.team_id)])).rows.map(
        (row) => row.id,
      );
  const [users, schedules, holidays, leaves, booked] = await Promise.all([
    prepared(AVAILABILITY_USERS, [companyId, ids]),
    prepared(AVAILABILITY_SCHEDULES, [companyId, ids]),
    prepared(AVAILABILITY_HOLIDAYS, [companyId, ids, from, to]),
    prepared(AVAILABILITY_LEAVES, [companyId, ids, from, to]),
    prepared(AVAILABILITY_BOOKED, [companyId, ids, from, to], plannerPool),
  ]);
  const byUser = (rows) => {
    const map = new Map();
    for (const row of rows) {
      const list = map.get(row.user_id) ?? [];
      list.push(row);
      map.set(row.user_id, list);
    }
    return map;
  };
  const schedulesOf = byUser(schedules.rows);
  const holidaysOf = byUser(holidays.rows);
  const leavesOf = byUser(leaves.rows);
  const bookedOf = byUser(booked.rows);
  const first = dayOf(from);
  const last = dayOf(to);
  const people = users.rows
    .sort(
      (a, b) =>
        a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name) || a.id - b.id,
    )
    .map((user) => {
      const weeks = [];
      for (const row of schedulesOf.get(user.id) ?? []) {
        let week = weeks.at(-1);
        if (!week || week.from !== dayOf(row.effective_from)) {
          week = { from: dayOf(row.effective_from), days: new Map() };
          weeks.push(week);
        }
        week.days.set(row.day_of_week, row);
      }
      const holidayHours = new Map();
      for (const holiday of holidaysOf.get(user.id) ?? []) {
        holidayHours.set(dayOf(holiday.date), [
          ...(holidayHours.get(dayOf(holiday.date)) ?? []),
          holiday.hours_off,
        ]);
      }
      const bookedOn = new Map((bookedOf.get(user.id) ?? []).map((row) => [dayOf(row.date), row]));
      const userLeaves = leavesOf.get(user.id) ?? [];
      const series = [];
      const totals = Object.fromEntries(FIGURES.map((name) => [name, 0]));
      let period;
      for (let day = first; day <= last; day += 1) {
        if (!period || day > period.end) {
          period = {
            from: day,
            end: Math.min(periodEnd(day, granularity), last),
            cents: Object.fromEntries(FIGURES.map((name) => [name, 0])),
          };
          series.push(period);
        }
        let week = weeks[0];
        for (const candidate of weeks) {
          if (candidate.from <= day) {
            week = candidate;
          }
        }
        const entry = week?.days.get((day + 4) % 7);
        const working = entry && entry.daily_hours > 0 ? entry.daily_hours : 0;
        const holidayTaken = Math.min(
          working,
          (holidayHours.get(day) ?? []).reduce((sum, off) => sum + (off ?? working), 0),
        );
        let left = working - holidayTaken;
        for (const leave of userLeaves) {
          if (left <= 0) {
            break;
          }
          if (leave.all_day) {
            if (
              Math.floor(leave.start.getTime() / DAY_MS) <= day &&
              Math.floor((leave.end.getTime() - 1) / DAY_MS) >= day
            ) {
              left = 0;
            }
          } else if (
            entry &&
            // Only a leave within a day of this one can touch its window, whatever the zone (±14 h).
            leave.start.getTime() < (day + 2) * DAY_MS &&
            leave.end.getTime() > (day - 1) * DAY_MS
          ) {
            const opens = wallTime(user.time_zone, day, entry.start_at);
            const closes = wallTime(user.time_zone, day, entry.end_at);
            const overlap = Math.min(closes, leave.end.getTime()) - Math.max(opens, leave.start.getTime());
            if (overlap > 0) {
              left -= Math.min(left, overlap / 3_600_000);
            }
          }
        }
        const w = Math.round(working * 100);
        const h = Math.round(holidayTaken * 100);
        const t = Math.round((working - holidayTaken - left) * 100);
        const onDay = bookedOn.get(day);
        const cents = {
          working: w,
          holidays: h,
          time_off: t,
          capacity: w - h - t,
          confirmed: Math.round((onDay?.confirmed ?? 0) * 100),
          tentative: Math.round((onDay?.tentative ?? 0) * 100),
        };
        for (const name of FIGURES) {
          period.cents[name] += cents[name];
          totals[name] += cents[name];
        }
      }
      return {
        user_id: user.id,
        first_name: user.first_name,
        last_name: user.last_name,
        position_id: user.user_position_id,
        time_zone: user.time_zone,
        totals: hoursOf(totals, includeTentative),
        series: series.map((item) => ({
          from: dateOfDay(item.from),
          to: dateOfDay(item.end),
          ...hoursOf(item.cents, includeTentative),
        })),
      };
    });
  return { from, to, granularity, include_tentative: includeTentative, people };
});

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => Promise.all([pool.end(), plannerPool.end()]))
    .then(() => process.exit(0));
});

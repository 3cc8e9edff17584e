// The baseline of `npm run bench`: a minimal Fastify + pg server answering the benchmarked requests
// with the same SQL statements the services run (same joins, filters, order, page size and figures),
// written out by hand, without the framework, authentication, validation, mapping or main-api calls.
// The services are measured against what this costs on the same machine, in the same run.
// Usage (by bench/run-all.mjs): node bench/baseline-server.mjs <port> <database url> <company id>
import Fastify from 'fastify';
import pg from 'pg';

const [port, databaseUrl, company] = process.argv.slice(2);
const companyId = Number(company);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const app = Fastify();

// Fixed statements are prepared once per connection, as the services prepare theirs (readRows);
// the list's statements, built per filter in the services, are sent unprepared here too.
const statementNames = new Map();
function prepared(text, values) {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `baseline_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return pool.query({ name, text, values });
}

// The statements main-api runs for the project reads (same joins, filters, order and figures), as
// plain SQL: what the reads cost without the framework, authentication, validation and mapping.
// The project with the columns of its relations the read shape shows; the detail adds its ratecard.
const PROJECT_WITH_RELATIONS = `SELECT project.*, client.id AS client_id_, client.name AS client_name, client.archived AS client_archived,
    pm.id AS pm_id_, pm.first_name AS pm_first_name, pm.last_name AS pm_last_name, pm.email AS pm_email, pm.role_id AS pm_role_id
  FROM main_api.projects project
  LEFT JOIN main_api.clients client ON client.id = project.client_id AND client.deleted_at IS NULL
  LEFT JOIN main_api.users pm ON pm.id = project.pm_id AND pm.deleted_at IS NULL`;
const PROJECT_WITH_RELATIONS_AND_RATECARD = `SELECT project.*, client.id AS client_id_, client.name AS client_name, client.archived AS client_archived,
    pm.id AS pm_id_, pm.first_name AS pm_first_name, pm.last_name AS pm_last_name, pm.email AS pm_email, pm.role_id AS pm_role_id,
    ratecard.id AS ratecard_id, ratecard.name AS ratecard_name, ratecard.original_name AS ratecard_original_name,
    ratecard.percent AS ratecard_percent, ratecard.currency_id AS ratecard_currency_id,
    ratecard.linked_to_base_price AS ratecard_linked_to_base_price
  FROM main_api.projects project
  LEFT JOIN main_api.clients client ON client.id = project.client_id AND client.deleted_at IS NULL
  LEFT JOIN main_api.users pm ON pm.id = project.pm_id AND pm.deleted_at IS NULL
  LEFT JOIN main_api.ratecards ratecard ON ratecard.id = project.user_positions_header_id AND ratecard.deleted_at IS NULL`;
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

// GET /v1/projects/{id}: the project with its relations, estimate lines and figures, side by side.
app.get('/v1/projects/:id', async (request, reply) => {
  const id = Number(request.params.id);
  const [project, positions, categories, totals, logged] = await Promise.all([
    prepared(
      `${PROJECT_WITH_RELATIONS_AND_RATECARD} WHERE project.company_id = $1 AND project.id = $2 AND project.deleted_at IS NULL`,
      [companyId, id],
    ),
    prepared(
      `SELECT line.*, position.name AS position_name, position.category_id FROM main_api.project_positions line
         LEFT JOIN main_api.positions position ON position.id = line.position_id AND position.deleted_at IS NULL
        WHERE line.project_id = $1 AND line.company_id = $2 AND line.deleted_at IS NULL ORDER BY line.id`,
      [id, companyId],
    ),
    prepared(
      'SELECT * FROM main_api.project_categories WHERE project_id = $1 AND company_id = $2 AND deleted_at IS NULL ORDER BY id',
      [id, companyId],
    ),
    prepared(PROJECT_TOTALS, [[id], companyId]),
    prepared(
      `SELECT entry.user_position_id AS position_id, position.category_id, sum(entry.hours) AS hours,
              sum(entry.hours * coalesce(price.price, 0)) AS earned
         FROM main_api.time_entries entry
         JOIN main_api.projects project ON project.id = entry.project_id AND project.company_id = entry.company_id
         LEFT JOIN main_api.positions position ON position.id = entry.user_position_id
         LEFT JOIN main_api.ratecard_prices price ON price.ratecard_id = project.user_positions_header_id AND price.position_id = entry.user_position_id
        WHERE entry.project_id = $1 AND entry.company_id = $2
        GROUP BY entry.user_position_id, position.category_id`,
      [id, companyId],
    ),
  ]);
  if (project.rows.length === 0) {
    return reply.status(404).send({ status: 404 });
  }
  return {
    ...project.rows[0],
    usersPositionsProject: positions.rows,
    categoriesProject: categories.rows,
    figures: totals.rows[0],
    logged: logged.rows,
  };
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
        WHERE allocation.company_id = $1 AND allocation.project_id = $2
        ORDER BY allocation.from_date ASC, allocation.created_at ASC`,
      [companyId, projectId],
    ),
    prepared(
      `SELECT ${reportedColumns('other')} FROM planner.allocations other
         INNER JOIN (SELECT span.user_id AS user_id, daterange(min(span.from_date), max(span.to_date), '[]') AS days
                       FROM planner.allocations span WHERE span.company_id = $1 AND span.project_id = $2
                      GROUP BY span.user_id) here
           ON here.user_id = other.user_id AND daterange(other.from_date, other.to_date, '[]') && here.days
        WHERE other.company_id = $1 AND other.project_id <> $2`,
      [companyId, projectId],
    ),
  ]);
  return { users: here.rows, others: others.rows };
});

// saveAllocation: the insert, without the user, project and working-time look-ups.
app.post('/allocation/saveAllocation', async (request, reply) => {
  const body = request.body;
  try {
    await pool.query(
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

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});

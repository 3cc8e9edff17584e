// The baseline of `npm run bench`: a minimal Fastify + pg server answering the benchmarked requests
// with hand-written SQL on the same tables (same filters, joins, order and page size), without
// authentication, validation, tenancy helpers or main-api calls. The services are measured against
// what this costs on the same machine, in the same run.
// Usage (by bench/run-all.mjs): node bench/baseline-server.mjs <port> <database url> <company id>
import Fastify from 'fastify';
import pg from 'pg';

const [port, databaseUrl, company] = process.argv.slice(2);
const companyId = Number(company);
const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
const app = Fastify();

// GET /v1/projects?perPage=50&filters={"status":"active"}: a count and a page with the client.
app.get('/v1/projects', async (request) => {
  const filters = JSON.parse(request.query.filters ?? '{}');
  const statuses = filters.status ? [].concat(filters.status) : ['active', 'finished', 'suspended'];
  const perPage = Number(request.query.perPage ?? 20);
  const page = Number(request.query.page ?? 1);
  const [count, rows] = await Promise.all([
    pool.query(
      'SELECT count(*) FROM main_api.projects WHERE company_id = $1 AND status = ANY($2) AND deleted_at IS NULL',
      [companyId, statuses],
    ),
    pool.query(
      `SELECT p.*, c.id AS client_id, c.name AS client_name FROM main_api.projects p
         LEFT JOIN main_api.clients c ON c.id = p.client_id
        WHERE p.company_id = $1 AND p.status = ANY($2) AND p.deleted_at IS NULL
        ORDER BY p.id DESC LIMIT $3 OFFSET $4`,
      [companyId, statuses, perPage, (page - 1) * perPage],
    ),
  ]);
  const total = Number(count.rows[0].count);
  return { total: String(total), perPage, page, lastPage: Math.ceil(total / perPage), data: rows.rows };
});

// GET /v1/projects/{id}: the project with its client, positions, categories and logged hours.
app.get('/v1/projects/:id', async (request, reply) => {
  const id = Number(request.params.id);
  const [project, positions, categories, hours] = await Promise.all([
    pool.query(
      `SELECT p.*, c.name AS client_name FROM main_api.projects p LEFT JOIN main_api.clients c ON c.id = p.client_id
        WHERE p.id = $1 AND p.company_id = $2 AND p.deleted_at IS NULL`,
      [id, companyId],
    ),
    pool.query('SELECT * FROM main_api.project_positions WHERE project_id = $1 ORDER BY id', [id]),
    pool.query('SELECT * FROM main_api.project_categories WHERE project_id = $1 ORDER BY id', [id]),
    pool.query('SELECT coalesce(sum(hours), 0) AS hours FROM main_api.time_entries WHERE project_id = $1', [
      id,
    ]),
  ]);
  if (project.rows.length === 0) {
    return reply.status(404).send({ status: 404 });
  }
  return {
    ...project.rows[0],
    usersPositionsProject: positions.rows,
    categoriesProject: categories.rows,
    elapsed_time: Number(hours.rows[0].hours),
  };
});

// getAllocations: the planner's two queries, without its main-api calls.
app.get('/allocation/getAllocations/:projectId', async (request) => {
  const projectId = Number(request.params.projectId);
  const [here, others] = await Promise.all([
    pool.query(
      'SELECT * FROM planner.allocations WHERE company_id = $1 AND project_id = $2 ORDER BY from_date, created_at',
      [companyId, projectId],
    ),
    pool.query(
      `SELECT DISTINCT other.* FROM planner.allocations other
         JOIN planner.allocations here ON here.company_id = other.company_id AND here.user_id = other.user_id
          AND here.from_date <= other.to_date AND here.to_date >= other.from_date AND here.project_id <> other.project_id
        WHERE other.company_id = $1 AND here.project_id = $2`,
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

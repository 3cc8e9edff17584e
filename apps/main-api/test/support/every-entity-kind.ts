import type { LightMyRequestResponse } from 'fastify';
import type { MainApiTestApp } from './main-api-test-app';

/**
 * One change of every entity kind main-api's change feed names (CHANGE_FEED_ENTITIES), made through
 * its routes as a client would: a create of each, working time set for a user (its events are the
 * user's) and a leave. Answers the platform id of each kind's changed entity, by kind.
 */
export async function changeEveryEntityKind(
  app: MainApiTestApp,
  company: number,
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  const create = async (kind: string, path: string, body: object): Promise<number> => {
    const answer: LightMyRequestResponse = await app.call('POST', path, body, { company });
    if (answer.statusCode !== 201) {
      throw new Error(`creating ${kind} answered ${answer.statusCode}: ${answer.body}`);
    }
    const id = answer.json<{ id: number }>().id;
    ids.set(kind, id);
    return id;
  };
  const suffix = `${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  const client = await create('clients', '/clients', { name: `Every kind ${suffix}` });
  const brand = await create('brands', '/brands', { name: 'Every kind brand', client_id: client });
  await create('products', '/products', { name: 'Every kind product', client_id: client, brand_id: brand });
  const category = await create('position-categories', '/position-categories', { name: 'Every kind' });
  const position = await create('positions', '/positions', { name: 'Every kind', category_id: category });
  await create('teams', '/teams', { name: `Every kind ${suffix}` });
  await create('workspaces', '/workspaces', { name: `Every kind ${suffix}` });
  await create('contracts', '/contracts', { name: 'Every kind', client_id: client });
  await create('labels', '/labels', { name: `Every kind ${suffix}`, color: '#112233', model: 'project' });
  await create('holiday-calendars', '/holiday-calendars', { name: `Every kind ${suffix}`, country: 'FR' });
  await create('ratecards', '/ratecards', {
    name: 'Every kind',
    prices: [{ position_id: position, price: 90 }],
  });
  const user = await create('users', '/users', {
    first_name: 'Every',
    last_name: 'Kind',
    email: `every-kind-${suffix}@sync.test`,
    role_id: 4,
  });
  const project = await create('projects', '/projects', { name: 'Every kind', client_id: client });
  await create('tasks', '/tasks', { project_id: project, name: 'Every kind' });
  await create('hours', '/hours', {
    user_id: user,
    project_id: project,
    user_position_id: position,
    date: '2027-01-04',
    hours: 2,
  });
  await create('fees', `/clients/${client}/fees`, { name: 'Every kind', estimate: 1000 });
  const estimate = await create('project-estimates', `/projects/${project}/project_estimate`, {
    title: 'Every kind',
    cost: '450.00',
    datetime: '2027-01-05',
    currency_id: 1,
  });
  await create('project-costs', `/projects/${project}/project_cost`, {
    title: 'Every kind',
    cost: 120,
    datetime: '2027-01-06',
    project_estimate_id: estimate,
  });
  await create('transactions', '/transactions', {
    date: '2027-01-07',
    type: 'invoice',
    total: 120,
    currency_change_amount: 120,
    exchange: 1,
    source_id: 3,
    currency_id: 1,
    receipt_number: `EK-${suffix}`,
    is_income: true,
    client_id: client,
    company_id: company,
    can_update: true,
    can_delete: true,
  });
  await create('user-leaves', '/user/leaves', {
    userId: user,
    leaveTypeId: 1,
    start: '2027-02-01T00:00:00Z',
    end: '2027-02-03T00:00:00Z',
    allDay: true,
  });
  const week = [1, 2, 3, 4, 5].map((day) => ({
    day_of_week: day,
    daily_hours: 8,
    start_at: '09:00:00',
    end_at: '17:00:00',
  }));
  const workingTime = await app.call('PUT', `/working-time/users/${user}`, { entries: week }, { company });
  if (workingTime.statusCode !== 200) {
    throw new Error(`setting working time answered ${workingTime.statusCode}: ${workingTime.body}`);
  }
  ids.set('working-time', user);
  return ids;
}

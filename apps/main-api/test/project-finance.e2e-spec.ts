import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api project estimates and costs (e2e)', () => {
  let app: MainApiTestApp;
  let projectId: number;
  let clientId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['FA', 'FB']);
    clientId = (await app.call('POST', '/clients', { name: 'C' })).json<{ id: number }>().id;
    projectId = (await app.call('POST', '/projects', { name: 'P', client_id: clientId })).json<{
      id: number;
    }>().id;
  });

  afterAll(() => app.close());

  it('adds a budget line and a cost spending it, with the docs/spec/interfaces.md fields', async () => {
    const estimate = await app.call('POST', `/projects/${projectId}/project_estimate`, {
      title: 'Photography',
      cost: '4500.00',
      datetime: '2026-03-15',
      currency_id: 1,
    });
    const estimateId = estimate.json<{ id: number }>().id;
    const cost = await app.call('POST', `/projects/${projectId}/project_cost`, {
      title: 'Studio',
      cost: 1200.5,
      datetime: '2026-03-20',
      project_estimate_id: estimateId,
    });

    expect(estimate.statusCode).toBe(201);
    expect(estimate.json()).toEqual({
      id: estimateId,
      title: 'Photography',
      cost: '4500.00',
      datetime: '2026-03-15',
      currency_id: 1,
      fee_id: null,
    });
    expect(cost.statusCode).toBe(201);
    expect(cost.json()).toEqual({
      id: expect.any(Number),
      title: 'Studio',
      cost: 1200.5,
      datetime: '2026-03-20',
      label_id: null,
      project_estimate_id: estimateId,
      id_project_history: null,
    });
    expect((await app.call('GET', `/projects/${projectId}/project_cost`)).json()).toHaveLength(1);
    expect((await app.call('GET', `/projects/${projectId}/project_estimate`)).json()).toHaveLength(1);
  });

  it.each([
    ['project_estimate', { title: 'X', cost: 'a lot', datetime: '2026-03-15' }, 'cost'],
    ['project_estimate', { title: 'X', cost: '1', datetime: '2026-13-01' }, 'datetime'],
    ['project_cost', { title: 'X', cost: -1, datetime: '2026-03-15' }, 'cost'],
    ['project_cost', { title: '', cost: 1, datetime: '2026-03-15' }, 'title'],
  ])('%s refuses %p naming %s', async (path, body, field) => {
    const response = await app.call('POST', `/projects/${projectId}/${path}`, body);

    expect(response.statusCode).toBe(400);
    expect(fieldsOf(response)).toContain(field);
  });

  it("refuses another company's fee and label, and another project's budget line, by field", async () => {
    const asB = { company: app.companies[1].companyId };
    const clientOfB = (await app.call('POST', '/clients', { name: 'CB' }, asB)).json<{ id: number }>().id;
    const foreignFee = (await app.call('POST', `/clients/${clientOfB}/fees`, { name: 'Theirs' }, asB)).json<{
      id: number;
    }>().id;
    const foreignLabel = (await app.call('POST', '/labels', { name: 'Theirs', model: 'project' }, asB)).json<{
      id: number;
    }>().id;
    const otherProject = (await app.call('POST', '/projects', { name: 'Q', client_id: clientId })).json<{
      id: number;
    }>().id;
    const otherLine = (
      await app.call('POST', `/projects/${otherProject}/project_estimate`, {
        title: 'Elsewhere',
        cost: '10',
        datetime: '2026-03-15',
      })
    ).json<{ id: number }>().id;
    const line = { title: 'X', cost: '1', datetime: '2026-03-15' };
    const cost = { title: 'X', cost: 1, datetime: '2026-03-15' };

    const withFee = await app.call('POST', `/projects/${projectId}/project_estimate`, {
      ...line,
      fee_id: foreignFee,
    });
    const withLabel = await app.call('POST', `/projects/${projectId}/project_cost`, {
      ...cost,
      label_id: foreignLabel,
    });
    const withOtherLine = await app.call('POST', `/projects/${projectId}/project_cost`, {
      ...cost,
      project_estimate_id: otherLine,
    });

    expect(withFee.json()).toMatchObject({ errors: [{ field: 'fee_id', validation: 'exists' }] });
    expect(withLabel.json()).toMatchObject({ errors: [{ field: 'label_id', validation: 'exists' }] });
    expect(withOtherLine.json()).toMatchObject({
      errors: [{ field: 'project_estimate_id', validation: 'ofProject' }],
    });
    expect((await app.call('GET', `/projects/${otherProject}/project_estimate`)).json()).toEqual([
      expect.objectContaining({ id: otherLine, title: 'Elsewhere' }),
    ]);
  });

  it("answers another company's project as missing", async () => {
    const response = await app.call(
      'POST',
      `/projects/${projectId}/project_cost`,
      { title: 'X', cost: 1, datetime: '2026-03-15' },
      { company: app.companies[1].companyId },
    );

    expect(response.statusCode).toBe(404);
  });
});

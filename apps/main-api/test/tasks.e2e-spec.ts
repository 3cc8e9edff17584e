import { fieldsOf, startMainApiTestApp, type MainApiTestApp } from './support/main-api-test-app';

describe('main-api tasks and attachments (e2e)', () => {
  let app: MainApiTestApp;
  let projectId: number;

  beforeAll(async () => {
    app = await startMainApiTestApp(['TA', 'TB']);
    const clientId = (await app.call('POST', '/clients', { name: 'C' })).json<{ id: number }>().id;
    projectId = (await app.call('POST', '/projects', { name: 'P', client_id: clientId })).json<{
      id: number;
    }>().id;
  });

  afterAll(() => app.close());

  const newTask = async () =>
    (await app.call('POST', '/tasks', { project_id: projectId, name: 'Key visual' })).json<{ id: number }>()
      .id;

  it('creates a task as nueva and moves it through the states', async () => {
    const created = await app.call('POST', '/tasks', {
      project_id: projectId,
      name: 'Key visual',
      estimated_time: 6,
    });
    const id = created.json<{ id: number }>().id;

    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      project_id: projectId,
      name: 'Key visual',
      status: 'nueva',
      estimated_time: 6,
    });
    for (const status of ['en_proceso', 'estancada', 'finalizada']) {
      expect((await app.call('PUT', `/tasks/${id}`, { status })).json()).toMatchObject({ status });
    }
    expect(fieldsOf(await app.call('PUT', `/tasks/${id}`, { status: 'done' }))).toEqual(['status']);
  });

  it('soft-deletes a task', async () => {
    const id = await newTask();

    expect((await app.call('DELETE', `/tasks/${id}`)).statusCode).toBe(200);
    expect((await app.call('GET', `/tasks/${id}`)).statusCode).toBe(404);
  });

  it('attaches a file from an external store with the docs/spec/interfaces.md response fields', async () => {
    const id = await newTask();

    const response = await app.call('POST', `/tasks/${id}/attachments/source/google_drive`, {
      filename: 'https://drive.example/file/d/abc',
      originalname: 'moodboard.pdf',
      size: 204800,
      available: true,
      session_token: null,
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      url: 'https://drive.example/file/d/abc',
      name: 'moodboard.pdf',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      source: 'google_drive',
      size: 204800,
      file_type: 'pdf',
      media_type: 'application/pdf',
      user_id: 1,
      discussions_id: null,
      session_token: null,
    });
  });

  it.each([
    [
      'google_drive',
      '1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D',
      'https://drive.google.com/file/d/1dandXB0QZpjeGQq_56wTXKNwaqgsOa9D/view',
    ],
    [
      'dropbox',
      '/Clients/Acme/mood board.pdf',
      'https://www.dropbox.com/home/Clients/Acme?preview=mood%20board.pdf',
    ],
    ['onedrive', '7ED6275F2340188C!116', 'https://onedrive.live.com/redir?resid=7ED6275F2340188C!116'],
  ])("answers a %s reference's url as the store's address of the file", async (source, filename, url) => {
    const id = await newTask();

    const response = await app.call('POST', `/tasks/${id}/attachments/source/${source}`, {
      filename,
      originalname: 'mood board.pdf',
      size: 1024,
      available: true,
    });

    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ url, source, name: 'mood board.pdf', session_token: null });
  });

  it.each([
    ['google_drive', 'moodboard.pdf'],
    ['dropbox', 'id:a4ayc_80_OEAAAAAAAAAXw'],
    ['onedrive', 'report.docx'],
    ['dropbox', 'javascript:alert(1)'],
    ['onedrive', 'https://user:secret@files.example/a.pdf'],
  ])('refuses a %s filename %s that no url could open, naming filename', async (source, filename) => {
    const id = await newTask();

    const response = await app.call('POST', `/tasks/${id}/attachments/source/${source}`, {
      filename,
      originalname: 'x.pdf',
      size: 1,
      available: true,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      code: 'AC002',
      errors: [{ field: 'filename', validation: 'isFileLink' }],
    });
  });

  it('documents the url as an always-present URI and the task and attachment fields by type', async () => {
    const schemas = (await app.service.app.inject({ method: 'GET', url: '/docs-json' })).json<{
      components: {
        schemas: Record<string, { required?: string[]; properties: Record<string, Record<string, unknown>> }>;
      };
    }>().components.schemas;
    const attachment = schemas.AttachmentDto;
    const task = schemas.TaskDto;

    expect(attachment.properties.url).toMatchObject({ type: 'string', format: 'uri' });
    expect(attachment.properties.url.nullable).toBeUndefined();
    expect(attachment.required).toContain('url');
    expect(attachment.properties.source).toMatchObject({ enum: ['google_drive', 'dropbox', 'onedrive'] });
    for (const field of ['id', 'size']) {
      expect(attachment.properties[field]).toMatchObject({ type: 'integer' });
    }
    expect(task.properties.id).toMatchObject({ type: 'integer' });
    expect(task.properties.project_id).toMatchObject({ type: 'integer' });
    expect(task.properties.status).toMatchObject({
      enum: ['nueva', 'en_proceso', 'estancada', 'finalizada'],
    });
    expect(task.properties.start).toMatchObject({ format: 'date' });
    expect(task.properties.created_at).toMatchObject({
      pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    });
  });

  it('answers an unknown source_type with 400 AC001 and the validation array, even with a bad body', async () => {
    const id = await newTask();

    const response = await app.call('POST', `/tasks/${id}/attachments/source/ftp`, { filename: '' });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      status: 400,
      name: 'PlatformCustomError',
      code: 'AC001',
      message: expect.stringContaining('source_type'),
      errors: [
        {
          field: 'source_type',
          validation: 'isIn',
          message: 'source_type must be one of google_drive, dropbox, onedrive',
        },
      ],
    });
  });

  it("assigns a user of the company, refuses another company's user by field, and lists by assignee", async () => {
    const [own, other] = app.companies;
    const assigned = await app.call('POST', '/tasks', {
      project_id: projectId,
      name: 'Assigned',
      assignee_id: own.userId,
    });
    const unassigned = await newTask();

    expect(assigned.statusCode).toBe(201);
    expect(
      fieldsOf(
        await app.call('POST', '/tasks', { project_id: projectId, name: 'x', assignee_id: other.userId }),
      ),
    ).toEqual(['assignee_id']);
    expect(fieldsOf(await app.call('PUT', `/tasks/${unassigned}`, { assignee_id: other.userId }))).toEqual([
      'assignee_id',
    ]);
    const listed = (
      await app.call(
        'GET',
        `/tasks?page=false&filters=${encodeURIComponent(JSON.stringify({ assignee_id: own.userId }))}`,
      )
    ).json<{ id: number; assignee_id: number }[]>();
    expect(listed.map((task) => task.assignee_id)).toEqual(listed.map(() => own.userId));
    expect(listed.map((task) => task.id)).toContain(assigned.json<{ id: number }>().id);
    expect(listed.map((task) => task.id)).not.toContain(unassigned);
  });

  it("refuses another company's project and answers its tasks as missing", async () => {
    const id = await newTask();
    const intruder = { company: app.companies[1].companyId };

    expect(
      fieldsOf(await app.call('POST', '/tasks', { project_id: projectId, name: 'x' }, intruder)),
    ).toEqual(['project_id']);
    expect((await app.call('GET', `/tasks/${id}`, undefined, intruder)).statusCode).toBe(404);
    expect((await app.call('DELETE', `/tasks/${id}`, undefined, intruder)).statusCode).toBe(404);
  });
});

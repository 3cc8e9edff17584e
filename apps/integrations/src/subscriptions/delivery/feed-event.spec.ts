import { CHANGE_FEED_ENTITIES, PLANNER_FEED_ENTITIES } from '@platform/contracts';
import { parseFeedEvent, wants, webhookBody, type FeedEvent } from './feed-event';

const event: FeedEvent = {
  cursor: '42',
  entity: 'projects' as FeedEvent['entity'],
  id: 17,
  kind: 'updated',
  changed_fields: ['name'],
  origin: null,
  project_id: 17,
  occurred_at: '2026-11-23T10:00:00.500Z',
};

describe('parseFeedEvent', () => {
  it('reads an event of the feed', () => {
    expect(parseFeedEvent({ ...event, extra: true }, CHANGE_FEED_ENTITIES)).toEqual(event);
    expect(
      parseFeedEvent(
        { ...event, occurred_at: '2026-11-23 10:00:00', changed_fields: undefined },
        CHANGE_FEED_ENTITIES,
      ),
    ).toEqual({
      ...event,
      occurred_at: '2026-11-23T10:00:00.000Z',
      changed_fields: [],
    });
    // A feed from before events named their project.
    expect(parseFeedEvent({ ...event, project_id: undefined }, CHANGE_FEED_ENTITIES)).toEqual({
      ...event,
      project_id: null,
    });
  });

  it.each([
    ['a cursor that is not a decimal', { cursor: 'abc' }],
    ['a numeric cursor', { cursor: 42 }],
    ['an unknown entity', { entity: 'invoices' }],
    ['an unknown kind', { kind: 'archived' }],
    ['a fractional id', { id: 1.5 }],
    ['a bad time', { occurred_at: 'yesterday' }],
    ['changed fields that are not names', { changed_fields: [1] }],
    ['a project that is not an id', { project_id: '17' }],
  ])('skips %s', (_case, change) => {
    expect(parseFeedEvent({ ...event, ...change }, CHANGE_FEED_ENTITIES)).toBeUndefined();
  });

  it("reads the planner's events: a uuid id and the user booked", () => {
    const allocation = {
      ...event,
      entity: 'allocations',
      id: '0b8f5c3e-3c4e-4a53-9a57-2f0f2b1d8a11',
      origin: undefined,
      user_id: 7,
    };
    expect(parseFeedEvent(allocation, PLANNER_FEED_ENTITIES)).toEqual({ ...allocation, origin: null });
    // Each feed carries its own kinds only.
    expect(parseFeedEvent(allocation, CHANGE_FEED_ENTITIES)).toBeUndefined();
    expect(parseFeedEvent(event, PLANNER_FEED_ENTITIES)).toBeUndefined();
    expect(parseFeedEvent({ ...allocation, id: 'not-a-uuid' }, PLANNER_FEED_ENTITIES)).toBeUndefined();
    expect(parseFeedEvent({ ...allocation, user_id: '7' }, PLANNER_FEED_ENTITIES)).toBeUndefined();
    expect(
      JSON.parse(webhookBody(parseFeedEvent(allocation, PLANNER_FEED_ENTITIES)!, null)).data,
    ).toMatchObject({
      entity: 'allocations',
      id: allocation.id,
      user_id: 7,
    });
  });
});

describe('wants', () => {
  const subscription = {
    source: 'SLACK',
    entities: [] as string[],
    kinds: ['created', 'updated', 'deleted'],
    projectIds: [] as number[],
    createdAt: new Date('2026-11-23T09:00:00.000Z'),
  };

  it('takes every entity when none is named, and the kinds named', () => {
    expect(wants(subscription, event)).toBe(true);
    expect(wants({ ...subscription, entities: ['clients'] }, event)).toBe(false);
    expect(wants({ ...subscription, entities: ['clients', 'projects'] }, event)).toBe(true);
    expect(wants({ ...subscription, kinds: ['deleted'] }, event)).toBe(false);
  });

  it('takes only the changes of the projects named, when it names any', () => {
    expect(wants({ ...subscription, projectIds: [17, 40] }, event)).toBe(true);
    expect(wants({ ...subscription, projectIds: [40] }, event)).toBe(false);
    expect(
      wants(
        { ...subscription, projectIds: [17] },
        { ...event, entity: 'clients' as FeedEvent['entity'], project_id: null },
      ),
    ).toBe(false);
  });

  it('does not echo a change back to the source that made it', () => {
    expect(wants(subscription, { ...event, origin: 'SLACK' })).toBe(false);
    expect(wants(subscription, { ...event, origin: 'JIRA' })).toBe(true);
  });

  it('takes the changes that occurred after the subscription was created', () => {
    expect(wants({ ...subscription, createdAt: new Date('2026-11-23T10:00:00.500Z') }, event)).toBe(true);
    expect(wants({ ...subscription, createdAt: new Date('2026-11-23T10:00:00.501Z') }, event)).toBe(false);
  });
});

describe('webhookBody', () => {
  it('has the Standard Webhooks shape, with the external id', () => {
    expect(JSON.parse(webhookBody(event, 'PROJ-1'))).toEqual({
      type: 'projects.updated',
      timestamp: '2026-11-23T10:00:00.500Z',
      data: {
        entity: 'projects',
        id: 17,
        external_id: 'PROJ-1',
        kind: 'updated',
        changed_fields: ['name'],
        cursor: '42',
        occurred_at: '2026-11-23T10:00:00.500Z',
        project_id: 17,
      },
    });
  });

  it('carries the snapshot for a snapshot subscription, null included', () => {
    expect(JSON.parse(webhookBody(event, null, { id: 17, name: 'Site' })).data.snapshot).toEqual({
      id: 17,
      name: 'Site',
    });
    expect(JSON.parse(webhookBody(event, null, null)).data).toHaveProperty('snapshot', null);
    expect(JSON.parse(webhookBody(event, null)).data).not.toHaveProperty('snapshot');
  });
});

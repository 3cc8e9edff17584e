import { keysetCursor, parseKeysetCursor } from '../common/keyset-cursor';
import { Injectable } from '@nestjs/common';
import { entityIdsOf } from '@platform/contracts';
import { constraintViolationOf, PG_FOREIGN_KEY_VIOLATION } from '@platform/database';
import type { CallerContext } from '@platform/main-api-client';
import { assertWritePrecondition, PreconditionFailedError } from '@platform/runtime';
import { projectNotFound } from '../allocations/allocation.errors';
import { PlannerMainApi, type LookupRequest, type MainApiLookups } from '../main-api/planner-main-api';
import type {
  CreatePlaceholderDto,
  ListPlaceholdersQueryDto,
  PlaceholderDto,
  PlaceholderPageDto,
  UpdatePlaceholderDto,
} from './dto/placeholder.dto';
import { Placeholder } from './placeholder.entity';
import { invalidPlaceholder, placeholderInUse, placeholderNotFound } from './placeholder.errors';
import {
  PlaceholdersRepository,
  type PlaceholderColumns,
  type PlaceholderRow,
  type PlaceholdersUnit,
} from './placeholders.repository';

/**
 * Placeholders (issue 39): roles booked before knowing who. What one names (position, category,
 * project, user labels) is checked with main-api in the request's one look-up; each write is one
 * transaction, and a deletion runs under the placeholder's booking lock, so it cannot pass a
 * booking being written (409 while any allocation books it).
 */
@Injectable()
export class PlaceholdersService {
  constructor(
    private readonly placeholders: PlaceholdersRepository,
    private readonly mainApi: PlannerMainApi,
  ) {}

  async create(body: CreatePlaceholderDto, caller: CallerContext): Promise<PlaceholderDto> {
    const columns = await this.checked(
      {
        name: body.name,
        position_id: body.position_id ?? null,
        category_id: body.category_id ?? null,
        project_id: body.project_id ?? null,
        label_ids: [...new Set(body.label_ids ?? [])],
      },
      body,
      caller,
    );
    const id = await this.placeholders.transaction((unit) => unit.insert(columns));
    return this.get(id);
  }

  async get(id: string): Promise<PlaceholderDto> {
    const row = await this.placeholders.get(id);
    if (!row) {
      throw placeholderNotFound(id);
    }
    return row;
  }

  async list(query: ListPlaceholdersQueryDto): Promise<PlaceholderPageDto> {
    const rows = await this.placeholders.list({
      projectIds: query.project_ids === undefined ? undefined : entityIdsOf(query.project_ids),
      positionIds: query.position_ids === undefined ? undefined : entityIdsOf(query.position_ids),
      categoryIds: query.category_ids === undefined ? undefined : entityIdsOf(query.category_ids),
      after: query.cursor === undefined ? undefined : cursorOf(query.cursor),
      limit: query.limit,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const more = rows.length > query.limit;
    return {
      data: page,
      next_cursor: more && last ? keysetCursor(last.name, last.id) : null,
      has_more: more,
    };
  }

  async update(id: string, body: UpdatePlaceholderDto, caller: CallerContext): Promise<PlaceholderDto> {
    const stored = await this.placeholders.get(id);
    if (!stored) {
      throw placeholderNotFound(id);
    }
    const columns = await this.checked(
      {
        name: body.name ?? stored.name,
        position_id: body.position_id === undefined ? stored.position_id : body.position_id,
        category_id: body.category_id === undefined ? stored.category_id : body.category_id,
        project_id: body.project_id === undefined ? stored.project_id : body.project_id,
        label_ids: body.label_ids === undefined ? stored.label_ids : [...new Set(body.label_ids)],
      },
      body,
      caller,
    );
    await this.placeholders.transaction(async (unit) => {
      await lockVersion(unit, id, stored.version);
      await unit.update(id, columns);
    });
    return this.get(id);
  }

  async remove(id: string): Promise<void> {
    const stored = await this.placeholders.get(id);
    if (!stored) {
      throw placeholderNotFound(id);
    }
    try {
      await this.placeholders.transaction(async (unit) => {
        // After any booking being written, before any that starts now: what it finds booked is so.
        await unit.lockBookings(id);
        await lockVersion(unit, id, stored.version);
        if (await unit.isBooked(id)) {
          throw placeholderInUse(id);
        }
        await unit.delete(id);
      });
    } catch (error) {
      // The foreign keys refuse it too (RESTRICT), whatever wrote a booking meanwhile.
      if (constraintViolationOf(error)?.code === PG_FOREIGN_KEY_VIOLATION) {
        throw placeholderInUse(id);
      }
      throw error;
    }
  }

  /**
   * The columns to write, once main-api has answered, in one look-up, for what the body names
   * (fields it leaves out were checked when written): the position, the category (by default the
   * position's, and never another than the position's), the project and the labels (user labels).
   */
  private async checked(
    columns: PlaceholderColumns,
    body: UpdatePlaceholderDto,
    caller: CallerContext,
  ): Promise<PlaceholderColumns> {
    const named = (value: number | null | undefined): number[] =>
      value === undefined || value === null ? [] : [value];
    // The position is asked for whenever the category may have to agree with it.
    const request = {
      positionIds: named(
        body.position_id !== undefined || body.category_id !== undefined ? columns.position_id : null,
      ),
      categoryIds: named(body.category_id),
      projectIds: named(body.project_id),
      labelIds: body.label_ids ?? [],
    } satisfies LookupRequest;
    if (Object.values(request).every((ids) => ids.length === 0)) {
      return columns;
    }
    const lookups = await this.mainApi.lookups(request, caller);
    const position = columns.position_id === null ? undefined : lookups.positions.get(columns.position_id);
    if (body.position_id !== undefined && body.position_id !== null && !position) {
      throw invalidPlaceholder(
        `position_id: position ${body.position_id} does not exist in your company (or was deleted)`,
      );
    }
    if (
      body.category_id !== undefined &&
      body.category_id !== null &&
      !lookups.categories.has(body.category_id)
    ) {
      throw invalidPlaceholder(
        `category_id: position category ${body.category_id} does not exist in your company (or was deleted)`,
      );
    }
    const category =
      body.category_id === undefined && body.position_id !== undefined
        ? (position?.category_id ?? columns.category_id)
        : columns.category_id;
    const positionCategory = position?.category_id ?? null;
    if (positionCategory !== null && category !== null && category !== positionCategory) {
      throw invalidPlaceholder(
        `category_id: position ${columns.position_id} is in category ${positionCategory}, not ${category}`,
      );
    }
    if (body.project_id !== undefined && body.project_id !== null && !lookups.projects.has(body.project_id)) {
      throw projectNotFound(body.project_id);
    }
    checkLabels(body.label_ids ?? [], lookups);
    return { ...columns, category_id: category };
  }
}

function checkLabels(labelIds: readonly number[], lookups: Pick<MainApiLookups, 'labels'>): void {
  const unknown = labelIds.filter((id) => lookups.labels.get(id)?.model !== 'user');
  if (unknown.length > 0) {
    throw invalidPlaceholder(
      `label_ids: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a user label' : 'are not user labels'} of your company`,
    );
  }
}

/**
 * The row under its lock, checked against the request's `If-Match` (required on every v2 write)
 * and against the version the write was prepared from: 412 either way when it changed since.
 */
async function lockVersion(unit: PlaceholdersUnit, id: string, version: number): Promise<PlaceholderRow> {
  const row = await unit.lock(id);
  if (!row) {
    throw placeholderNotFound(id);
  }
  if (row.version !== version) {
    throw new PreconditionFailedError('placeholder');
  }
  assertWritePrecondition(Placeholder, id, row.version, 'placeholder');
  return row;
}

function cursorOf(cursor: string): { name: string; id: string } {
  const parsed = parseKeysetCursor(cursor);
  if (!parsed) {
    throw invalidPlaceholder('cursor must be the next_cursor of a previous page');
  }
  return { name: parsed.key, id: parsed.id };
}

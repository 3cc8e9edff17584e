import { Injectable } from '@nestjs/common';
import { MAX_IDS_PER_LOOKUP } from '@platform/contracts';
import { preparedStatementName, RequestTenantScope } from '@platform/database';

/** Which people a look-up is about, when the planner names a group rather than ids (neither: everyone). */
export interface PeopleSelector {
  teamId?: number;
  positionId?: number;
}

// The people a planner read is about: current (not deleted) users of the company, in a team, in a
// position or all of them, by id, at most MAX_IDS_PER_LOOKUP + 1 (one more says there are more).
const PEOPLE = `SELECT u.id FROM users u
 WHERE u.company_id = $1 AND u.deleted_at IS NULL
   AND ($2::integer IS NULL OR EXISTS (
         SELECT 1 FROM team_members member WHERE member.team_id = $2 AND member.user_id = u.id))
   AND ($3::integer IS NULL OR u.user_position_id = $3)
 ORDER BY u.id
 LIMIT ${MAX_IDS_PER_LOOKUP + 1}`;
const PEOPLE_NAME = preparedStatementName(PEOPLE);

// The company's latest change-feed cursor: every input of the planner's capacity (working time,
// schedules, leaves, holidays, calendars, time zones, positions, teams) is a tracked entity, so any
// change of them moves it.
const REVISION = `SELECT coalesce(max(event.cursor), 0)::text AS revision
  FROM change_events event WHERE event.company_id = $1`;
const REVISION_NAME = preparedStatementName(REVISION);

// Positions and categories a planner placeholder names (issue 39): current ones of the company, by id.
const POSITIONS = `SELECT p.id, p.name, p.category_id FROM positions p
 WHERE p.company_id = $1 AND p.id = ANY($2::integer[]) AND p.deleted_at IS NULL
 ORDER BY p.id`;
const POSITIONS_NAME = preparedStatementName(POSITIONS);
const CATEGORIES = `SELECT c.id, c.name FROM position_categories c
 WHERE c.company_id = $1 AND c.id = ANY($2::integer[]) AND c.deleted_at IS NULL
 ORDER BY c.id`;
const CATEGORIES_NAME = preparedStatementName(CATEGORIES);

/** The look-up's own statements: people by group, positions and categories by id, and the revision. */
@Injectable()
export class PlannerLookupsRepository {
  constructor(private readonly scope: RequestTenantScope) {}

  /** Ids of the company's current people in the group, at most MAX_IDS_PER_LOOKUP + 1. */
  async people(selector: PeopleSelector): Promise<number[]> {
    const rows = await this.scope.sql.select<{ id: number }>(
      PEOPLE,
      [this.scope.companyId(), selector.teamId ?? null, selector.positionId ?? null],
      PEOPLE_NAME,
    );
    return rows.map((row) => row.id);
  }

  /** The company's current positions among `ids`, with their category. */
  positions(ids: readonly number[]): Promise<{ id: number; name: string; category_id: number | null }[]> {
    return this.scope.sql.select(POSITIONS, [this.scope.companyId(), ids], POSITIONS_NAME);
  }

  /** The company's current position categories among `ids`. */
  categories(ids: readonly number[]): Promise<{ id: number; name: string }[]> {
    return this.scope.sql.select(CATEGORIES, [this.scope.companyId(), ids], CATEGORIES_NAME);
  }

  async revision(): Promise<string> {
    const [row] = await this.scope.sql.select<{ revision: string }>(
      REVISION,
      [this.scope.companyId()],
      REVISION_NAME,
    );
    return row?.revision ?? '0';
  }
}

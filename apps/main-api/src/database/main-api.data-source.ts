import {
  ownerDataSourceOptions,
  serviceDataSourceOptions,
  type DatabaseEnv,
  type ServiceDatabase,
} from '@platform/database';
import type { DataSourceOptions } from 'typeorm';
import { ApiClient } from '../api-clients/api-client.entity';
import { Company } from '../companies/company.entity';
import { AuthorizationCode } from '../oauth/authorization/authorization-code.entity';
import { OAuthApp } from '../oauth/authorization/oauth-app.entity';
import { RateLimitBucket } from '../oauth/rate-limit/rate-limit-bucket.entity';
import { RefreshToken } from '../oauth/refresh-tokens/refresh-token.entity';
import { SubjectTokenEpoch } from '../oauth/revocation/subject-token-epoch.entity';
import { Brand } from '../brands/brand.entity';
import { Client } from '../clients/client.entity';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { PositionCategory } from '../positions/position-category.entity';
import { Position } from '../positions/position.entity';
import { ContractMember } from '../contracts/contract-member.entity';
import { Contract } from '../contracts/contract.entity';
import { Fee } from '../fees/fee.entity';
import { Label } from '../labels/label.entity';
import { HolidayCalendar } from '../holiday-calendars/holiday-calendar.entity';
import { Holiday } from '../holiday-calendars/holiday.entity';
import { UserCalendarMembership } from '../holiday-calendars/user-calendar-membership.entity';
import { RatecardPrice } from '../ratecards/ratecard-price.entity';
import { Ratecard } from '../ratecards/ratecard.entity';
import { TimeEntry } from '../hours/time-entry.entity';
import { Product } from '../products/product.entity';
import { ProjectCost, ProjectEstimate } from '../project-finance/project-finance.entities';
import { TaskAttachment } from '../tasks/task-attachment.entity';
import { Task } from '../tasks/task.entity';
import { ProjectCategory, ProjectPosition } from '../projects/project-estimate-line.entities';
import { Project } from '../projects/project.entity';
import { Transaction } from '../transactions/transaction.entity';
import { TeamMember } from '../teams/team-member.entity';
import { Team } from '../teams/team.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { Currency, LeaveType, TransactionSource } from '../reference-data/reference-item.entities';
import { UserLeave } from '../leaves/user-leave.entity';
import { User } from '../users/user.entity';
import { WorkingSchedule } from '../working-time/working-schedule.entity';
import { WorkingTimeEntry } from '../working-time/working-time-entry.entity';
import { ChangeEvent, ChangeFeedWatermark } from '../change-feed/change-event.entity';
import { TimesheetLock } from '../hours/timesheet-lock.entity';
import { EventStreamTicket } from '../change-feed/stream/event-stream-ticket.entity';
import { MAIN_API_MIGRATIONS } from './migrations';

/** main-api's own schema, entities and migrations: shared by the app, the migrate command and tests. */
export const MAIN_API_DATABASE: ServiceDatabase = {
  schema: 'main_api',
  applicationName: 'main-api',
  runtimeRole: 'main_api_runtime',
  entities: [
    Company,
    ChangeEvent,
    ChangeFeedWatermark,
    User,
    ApiClient,
    RefreshToken,
    RateLimitBucket,
    SubjectTokenEpoch,
    OAuthApp,
    AuthorizationCode,
    Currency,
    LeaveType,
    TransactionSource,
    Client,
    Brand,
    Product,
    IdempotencyRecord,
    WorkingSchedule,
    WorkingTimeEntry,
    UserLeave,
    PositionCategory,
    Position,
    Workspace,
    Team,
    TeamMember,
    Fee,
    Transaction,
    Contract,
    ContractMember,
    Ratecard,
    RatecardPrice,
    Label,
    HolidayCalendar,
    Holiday,
    UserCalendarMembership,
    Project,
    ProjectPosition,
    ProjectCategory,
    Task,
    TaskAttachment,
    TimeEntry,
    TimesheetLock,
    EventStreamTicket,
    ProjectEstimate,
    ProjectCost,
  ],
  migrations: MAIN_API_MIGRATIONS,
};

/** The service's own connections, as `main_api_runtime` under row-level security. */
export function mainApiDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return serviceDataSourceOptions(MAIN_API_DATABASE, env);
}

/** The owner's connections: migrations, migration generation, and tests that inspect the tables. */
export function mainApiOwnerDataSourceOptions(env: DatabaseEnv): DataSourceOptions & { schema: string } {
  return ownerDataSourceOptions(MAIN_API_DATABASE, env);
}

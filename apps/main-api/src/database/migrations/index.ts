import { AddClientsBrandsProducts1795359029188 } from './1795359029188-AddClientsBrandsProducts';
import { AddContracts1795360228103 } from './1795360228103-AddContracts';
import { AddFeesAndTransactions1795360003207 } from './1795360003207-AddFeesAndTransactions';
import { AddIdempotencyRecords1795359290584 } from './1795359290584-AddIdempotencyRecords';
import { AddOAuthTokens1795357558410 } from './1795357558410-AddOAuthTokens';
import { AddWorkspacesAndTeams1795359841140 } from './1795359841140-AddWorkspacesAndTeams';
import { AddWorkingTimeAndLeaves1795359551633 } from './1795359551633-AddWorkingTimeAndLeaves';
import { AddPositions1795359693922 } from './1795359693922-AddPositions';
import { AddProjectEstimatesAndCosts1795361626258 } from './1795361626258-AddProjectEstimatesAndCosts';
import { AddProjectNameSearchIndex1795361793205 } from './1795361793205-AddProjectNameSearchIndex';
import { AddProjects1795361287362 } from './1795361287362-AddProjects';
import { AddAuthorizationCodes1795700000100 } from './1795700000100-AddAuthorizationCodes';
import { AddChangeFeed1795440000000 } from './1795440000000-AddChangeFeed';
import { AddTokenRevocation1795500000000 } from './1795500000000-AddTokenRevocation';
import { IdempotencyKeysPerCaller1795600000300 } from './1795600000300-IdempotencyKeysPerCaller';
import { RetentionIndexes1795600000301 } from './1795600000301-RetentionIndexes';
import { AddRatecardDetailsAndClientUsers1795361932140 } from './1795361932140-AddRatecardDetailsAndClientUsers';
import { AddRatecardsAndLabels1795360554505 } from './1795360554505-AddRatecardsAndLabels';
import { AddTasks1795361435513 } from './1795361435513-AddTasks';
import { AddTimeEntries1795361524769 } from './1795361524769-AddTimeEntries';
import { AddUserProfile1795359401249 } from './1795359401249-AddUserProfile';
import { InitialSchema1795356125849 } from './1795356125849-InitialSchema';
import { RowLevelSecurity1795800000100 } from './1795800000100-RowLevelSecurity';
import { ChangeFeedWatch1795900000100 } from './1795900000100-ChangeFeedWatch';
import { AddRowVersions1796000000100 } from './1796000000100-AddRowVersions';
import { ChangeFeedEveryEntity1796000000200 } from './1796000000200-ChangeFeedEveryEntity';
import { ChangeEventsProject1796000000400 } from './1796000000400-ChangeEventsProject';
import { HolidayCalendars1796000001100 } from './1796000001100-HolidayCalendars';
import { UserCalendars1796000001300 } from './1796000001300-UserCalendars';
import { LeaveStatus1796000001700 } from './1796000001700-LeaveStatus';
import { WorkingSchedules1796000001900 } from './1796000001900-WorkingSchedules';
import { BillableTime1796000002400 } from './1796000002400-BillableTime';
import { EventStreamTickets1796000002500 } from './1796000002500-EventStreamTickets';
import { EventStreamTicketHolds1796000002700 } from './1796000002700-EventStreamTicketHolds';

// Listed explicitly (no globs), in order: what runs in production is exactly what is reviewed here.
export const MAIN_API_MIGRATIONS = [
  InitialSchema1795356125849,
  AddOAuthTokens1795357558410,
  AddClientsBrandsProducts1795359029188,
  AddIdempotencyRecords1795359290584,
  AddUserProfile1795359401249,
  AddWorkingTimeAndLeaves1795359551633,
  AddPositions1795359693922,
  AddWorkspacesAndTeams1795359841140,
  AddFeesAndTransactions1795360003207,
  AddContracts1795360228103,
  AddRatecardsAndLabels1795360554505,
  AddProjects1795361287362,
  AddTasks1795361435513,
  AddTimeEntries1795361524769,
  AddProjectEstimatesAndCosts1795361626258,
  AddProjectNameSearchIndex1795361793205,
  AddRatecardDetailsAndClientUsers1795361932140,
  AddChangeFeed1795440000000,
  AddTokenRevocation1795500000000,
  IdempotencyKeysPerCaller1795600000300,
  RetentionIndexes1795600000301,
  AddAuthorizationCodes1795700000100,
  RowLevelSecurity1795800000100,
  ChangeFeedWatch1795900000100,
  AddRowVersions1796000000100,
  ChangeFeedEveryEntity1796000000200,
  ChangeEventsProject1796000000400,
  HolidayCalendars1796000001100,
  UserCalendars1796000001300,
  LeaveStatus1796000001700,
  WorkingSchedules1796000001900,
  BillableTime1796000002400,
  EventStreamTickets1796000002500,
  EventStreamTicketHolds1796000002700,
];

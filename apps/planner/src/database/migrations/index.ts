import { InitialSchema1795356237865 } from './1795356237865-InitialSchema';
import { AllocationAssignment1795431737129 } from './1795431737129-AllocationAssignment';
import { RowLevelSecurity1795800000300 } from './1795800000300-RowLevelSecurity';
import { AddChangeFeed1796000000600 } from './1796000000600-AddChangeFeed';
import { ChangeFeedWatch1796000000700 } from './1796000000700-ChangeFeedWatch';
import { AllocationLedger1796000000900 } from './1796000000900-AllocationLedger';
import { OverAllocationEvents1796000001000 } from './1796000001000-OverAllocationEvents';
import { Placeholders1796000002000 } from './1796000002000-Placeholders';
import { Scenarios1796000002200 } from './1796000002200-Scenarios';
import { EventStreamTickets1796000002600 } from './1796000002600-EventStreamTickets';
import { EventStreamTicketHolds1796000002800 } from './1796000002800-EventStreamTicketHolds';

// Listed explicitly (no globs), in order: what runs in production is exactly what is reviewed here.
export const PLANNER_MIGRATIONS = [
  InitialSchema1795356237865,
  AllocationAssignment1795431737129,
  RowLevelSecurity1795800000300,
  AddChangeFeed1796000000600,
  ChangeFeedWatch1796000000700,
  AllocationLedger1796000000900,
  OverAllocationEvents1796000001000,
  Placeholders1796000002000,
  Scenarios1796000002200,
  EventStreamTickets1796000002600,
  EventStreamTicketHolds1796000002800,
];

import { AllocationErrorName } from '../errors/allocation-error-name';
import type { PlannerErrorName } from '../errors/planner-error-names';

/** A named planner failure, rendered `{error: name, message}` (docs/spec/interfaces.md "Allocation error body"). */
export class AllocationError extends Error {
  constructor(
    readonly errorName: PlannerErrorName,
    message: string,
    readonly status = 400,
    /** More of the body, beside error and message (e.g. OverCapacityError's days). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = errorName;
  }
}

export const invalidAllocation = (message: string) =>
  new AllocationError(AllocationErrorName.InvalidAllocation, message);

export const userNotFound = (field: string, userId: number) =>
  new AllocationError(
    AllocationErrorName.UserNotFound,
    `${field}: user ${userId} does not exist in your company (or was deleted)`,
  );

export const projectNotFound = (projectId: number, status = 400) =>
  new AllocationError(
    AllocationErrorName.ProjectNotFound,
    `Project ${projectId} does not exist in your company`,
    status,
  );

export const userHasNoWorkDays = (userId: number, from: string, to: string) =>
  new AllocationError(
    AllocationErrorName.UserNotHaveWorkDays,
    `User ${userId} has no working day between ${from} and ${to}: set their working time in main-api ` +
      `(PUT /v1/working-time/users/${userId}) or choose other dates`,
  );

export const allocationNotFound = (allocation: {
  userId: number;
  projectId: number;
  from: string;
  to: string;
}) =>
  new AllocationError(
    AllocationErrorName.AllocationNotFound,
    `No allocation of user ${allocation.userId} on project ${allocation.projectId} from ` +
      `${allocation.from} to ${allocation.to}`,
  );

export const allocationOverlaps = (
  allocation: { userId: number; projectId: number },
  existing: { from: string; to: string } | undefined,
) =>
  new AllocationError(
    AllocationErrorName.AllocationAlreadyExistInDatesRange,
    `User ${allocation.userId} is already allocated on project ${allocation.projectId} ` +
      (existing ? `from ${existing.from} to ${existing.to}` : 'within these dates') +
      ': change that allocation or choose dates that do not overlap it',
  );

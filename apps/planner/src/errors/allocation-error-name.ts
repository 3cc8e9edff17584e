/** The `error` values of the planner's error body (docs/spec/interfaces.md, docs/spec/decisions.md §4). */
export enum AllocationErrorName {
  InvalidAllocation = 'InvalidAllocationError',
  AllocationAlreadyExistInDatesRange = 'AllocationAlreadyExistInDatesRangeError',
  UserNotFound = 'UserNotFoundError',
  UserNotHaveWorkDays = 'UserNotHaveWorkDaysError',
  ProjectNotFound = 'ProjectNotFoundError',
  AllocationNotFound = 'AllocationNotFoundError',
}

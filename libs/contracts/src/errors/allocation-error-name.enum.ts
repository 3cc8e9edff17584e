/** The `error` values of the planner's error body (interfaces.md, decisions §4). */
export enum AllocationErrorName {
  InvalidAllocation = 'InvalidAllocationError',
  AllocationAlreadyExistInDatesRange = 'AllocationAlreadyExistInDatesRangeError',
  UserNotFound = 'UserNotFoundError',
  UserNotHaveWorkDays = 'UserNotHaveWorkDaysError',
  ProjectNotFound = 'ProjectNotFoundError',
  AllocationNotFound = 'AllocationNotFoundError',
}

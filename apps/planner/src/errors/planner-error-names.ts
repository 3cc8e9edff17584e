import { AllocationErrorName } from './allocation-error-name';

/**
 * Every `error` the planner's body can carry: its allocation rules' (AllocationErrorName) and the
 * failures that are no rule's own. The renderer is typed by this list, so the document's enumeration
 * cannot miss a name the service answers.
 */
export const PLANNER_ERROR_NAMES = [
  ...Object.values(AllocationErrorName),
  'UnsupportedMediaTypeError',
  'PayloadTooLargeError',
  'Unauthorized',
  'Forbidden',
  'NotFoundError',
  'MethodNotAllowedError',
  'ConflictError',
  'UnprocessableEntityError',
  'TooManyRequestsError',
  'PreconditionFailedError',
  'PreconditionRequiredError',
  'FailedDependencyError',
  // The change feed's cursor is behind its retention window (410).
  'CursorExpiredError',
  // The change stream (issue 41): a ticket that cannot open a stream (401), a cap of open streams
  // reached (503 with Retry-After).
  'StreamTicketInvalidError',
  'TooManyStreamsError',
  // A v2 booking under the reject capacity policy would put a day of the person over capacity (422).
  'OverCapacityError',
  // An availability read or search asked wrongly: its window, or whom it names (400).
  'InvalidAvailabilityQueryError',
  // Placeholders (issue 39): none such in the company (404 on its routes, 400 where a booking names
  // it), still booked when deleted (409), or naming what main-api does not have (400).
  'PlaceholderNotFoundError',
  'PlaceholderInUseError',
  'InvalidPlaceholderError',
  // A fill of a placeholder with no booking in its window (409: nothing changed).
  'NothingToAssignError',
  // Scenarios (issue 39): none such in the company (404; 400 where a query names it), applied already
  // (409), asked wrongly (400), or not applicable because the live plan moved since (409, per item).
  'ScenarioNotFoundError',
  'ScenarioAppliedError',
  'InvalidScenarioError',
  'ScenarioConflictError',
  'MainApiUnavailableError',
  'ServiceUnavailableError',
  'InternalServerError',
] as const;
export type PlannerErrorName = (typeof PLANNER_ERROR_NAMES)[number];

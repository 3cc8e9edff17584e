import { ConflictError } from '../errors/main-api.errors';

/** An upsert by person, project, task and day that finds more than one entry: which to change is unknown. */
export class AmbiguousTimeEntryError extends ConflictError {
  constructor(count: number) {
    super(
      `AmbiguousTimeEntry: ${count} entries have this person, project, task and day; ` +
        'give them source and external_id, or change one by id',
    );
  }
}

/** A week to submit, approve or reject that has no entry in the state the step starts from: 409 AC004. */
export class TimesheetStateError extends ConflictError {
  constructor(userId: number, isoWeek: string, action: 'submit' | 'approve' | 'reject', expected: string) {
    super(`TimesheetNotReady: week ${isoWeek} of user ${userId} has no ${expected} entry to ${action}`);
  }
}

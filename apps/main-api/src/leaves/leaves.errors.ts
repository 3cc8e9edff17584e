import { ConflictError } from '../errors/main-api.errors';
import type { LeaveStatus } from './user-leave.entity';

/** Approve or reject a leave that is not waiting for a decision: 409 AC004. */
export class LeaveNotRequestedError extends ConflictError {
  constructor(id: number, status: LeaveStatus, action: 'approve' | 'reject') {
    super(`LeaveNotRequested: leave ${id} is ${status}; only a requested leave can be ${action}d`);
  }
}

/** Cancel a leave already rejected or cancelled: 409 AC004. */
export class LeaveNotOpenError extends ConflictError {
  constructor(id: number, status: LeaveStatus) {
    super(`LeaveNotOpen: leave ${id} is ${status}; only a requested or approved leave can be cancelled`);
  }
}

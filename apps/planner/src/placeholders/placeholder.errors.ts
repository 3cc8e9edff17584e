import { AllocationError } from '../allocations/allocation.errors';

/** No such placeholder in the caller's company: 404 on its own routes, 400 where a booking names it. */
export const placeholderNotFound = (id: string, status = 404, field?: string) =>
  new AllocationError(
    'PlaceholderNotFoundError',
    `${field ? `${field}: ` : ''}No placeholder ${id} in your company`,
    status,
  );

export const invalidPlaceholder = (message: string) =>
  new AllocationError('InvalidPlaceholderError', message);

export const placeholderInUse = (id: string) =>
  new AllocationError(
    'PlaceholderInUseError',
    `Placeholder ${id} is still booked: remove its allocations (or, later, fill it) before deleting it`,
    409,
  );

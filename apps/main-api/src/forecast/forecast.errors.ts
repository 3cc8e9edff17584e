import { RequestValidationError } from '@platform/runtime';
import { AccessDeniedError } from '../errors/main-api.errors';

/** Forecasts show the company's money: only roles 1-3 read them (403 AC006). */
export class ForecastNotAllowedError extends AccessDeniedError {
  constructor() {
    super('ForecastNotAllowed: only roles 1-3 (C-Level, Director, Project manager) read forecasts');
  }
}

/** A `from`/`to` that makes no series: 400 naming the field. */
export class ForecastRangeError extends RequestValidationError {
  constructor(field: 'from' | 'to', message: string) {
    super([{ field, validation: 'forecastRange', message }]);
  }
}

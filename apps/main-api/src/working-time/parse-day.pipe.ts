import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { isCalendarDate } from '@platform/contracts';
import { RequestValidationError } from '@platform/runtime';

/** A path day `YYYY-MM-DD` that exists (a schedule's first day), else the service's 400 naming it. */
@Injectable()
export class ParseDayPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (!isCalendarDate(value)) {
      const field = metadata.data ?? 'date';
      throw new RequestValidationError([
        { field, validation: 'isCalendarDay', message: `${field} must be a day of the calendar, YYYY-MM-DD` },
      ]);
    }
    return value;
  }
}

import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { RequestValidationError } from '../errors/request-validation.error';

const MAX_ID = 2_147_483_647; // Postgres integer: a larger id would fail in the database, not here.

/** A path id: a positive integer that fits the database column, else the service's 400. */
@Injectable()
export class ParseIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const id = /^[1-9]\d{0,9}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(id) || id > MAX_ID) {
      const field = metadata.data ?? 'id';
      throw new RequestValidationError([
        { field, validation: 'isId', message: `${field} must be a positive integer id` },
      ]);
    }
    return id;
  }
}

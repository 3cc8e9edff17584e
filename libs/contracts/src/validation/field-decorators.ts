import { applyDecorators } from '@nestjs/common';
import { IsInt, Matches, Max, Min } from 'class-validator';

/** Postgres `integer`: a larger id would fail in the database instead of validation. */
export const MAX_ENTITY_ID = 2_147_483_647;

/** A reference to a row by id: a positive integer that fits the column. */
export const IsEntityId = (): PropertyDecorator => applyDecorators(IsInt(), Min(1), Max(MAX_ENTITY_ID));

/** A calendar day `YYYY-MM-DD` (its existence is checked with `isCalendarDate` where it matters). */
export const IsDateOnly = (): PropertyDecorator =>
  Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a date YYYY-MM-DD' });

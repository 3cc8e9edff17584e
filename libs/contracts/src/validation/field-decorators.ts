import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, Matches, Max, Min, ValidateBy, ValidateIf } from 'class-validator';

/** Postgres `integer`: a larger id would fail in the database instead of validation. */
export const MAX_ENTITY_ID = 2_147_483_647;

/** A reference to a row by id: a positive integer that fits the column. */
export const IsEntityId = (): PropertyDecorator => applyDecorators(IsInt(), Min(1), Max(MAX_ENTITY_ID));

/**
 * A query parameter that is a whole number from `min` to `max`: the digits of the query text become
 * a number, and anything else is refused naming the parameter and the range.
 */
export const IsQueryIntegerInRange = (min: number, max: number): PropertyDecorator => {
  const message = `$property must be an integer from ${min} to ${max}`;
  return applyDecorators(
    Transform(({ value }: { value: unknown }) => (/^\d+$/.test(String(value)) ? Number(value) : value)),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  );
};

/** A calendar day `YYYY-MM-DD` (its existence is checked with `isCalendarDate` where it matters). */
export const IsDateOnly = (): PropertyDecorator =>
  Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a date YYYY-MM-DD' });

/** An instant in UTC, ISO 8601 with `Z`: `2026-12-21T00:00:00Z`, milliseconds optional. */
export const UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/** A calendar day `YYYY-MM-DD`, or an instant as `UTC_DATE_TIME` (a contract's start and end). */
export const DATE_OR_UTC_DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/;

/** An instant in UTC (`UTC_DATE_TIME`), refused naming the field and an `example` of the format. */
export const IsUtcDateTime = (example: string): PropertyDecorator =>
  Matches(UTC_DATE_TIME, { message: `$property must be a UTC date-time such as ${example}` });

/** A calendar day or an instant in UTC (`DATE_OR_UTC_DATE_TIME`). */
export const IsDateOrUtcDateTime = (): PropertyDecorator =>
  Matches(DATE_OR_UTC_DATE_TIME, { message: '$property must be a date YYYY-MM-DD or a UTC date-time' });

/** Most ids one comma-separated batch look-up (`?ids=1,2,3`) may carry. */
export const MAX_IDS_PER_LOOKUP = 500;

/**
 * A query value `1,2,3`: 1 to 500 entity ids, comma-separated, each one fitting the id column, so a
 * too-large id is a 400 here rather than an out-of-range error in the database.
 */
export const IsEntityIdList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isEntityIdList',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' &&
        /^[1-9]\d{0,9}(,[1-9]\d{0,9})*$/.test(value) &&
        value.split(',').length <= MAX_IDS_PER_LOOKUP &&
        value.split(',').every((id) => Number(id) <= MAX_ENTITY_ID),
      defaultMessage: (args) =>
        `${args?.property ?? 'value'} must be 1 to ${MAX_IDS_PER_LOOKUP} comma-separated ids, e.g. 1,2,3`,
    },
  });

/** The distinct ids of a list `IsEntityIdList` accepted (`1,2,2` is `[1, 2]`), in their order. */
export function entityIdsOf(list: string): number[] {
  return [...new Set(list.split(',').map(Number))];
}

/**
 * An optional field: it may be left out, but `null` is validated like any other value, so it is
 * refused by the field's own rules (400 naming the field) instead of reaching a NOT NULL column as a
 * 500 (issue 20). class-validator's `IsOptional` lets `null` through: use it only through
 * `MayBeAbsentOrNull`, where `null` means "clear this value" and the column takes it.
 */
export const MayBeAbsent = (): PropertyDecorator =>
  applyDecorators(
    ValidateIf((_object, value) => value !== undefined),
    // IsDefined runs before the field's other rules, so null is named as such, not as a bad string.
    IsDefined({ message: '$property may be left out, but must not be null' }),
  );

/** An optional field whose `null` is meaningful (clears a nullable column). */
export const MayBeAbsentOrNull = (): PropertyDecorator => IsOptional();

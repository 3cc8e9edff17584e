import { applyDecorators } from '@nestjs/common';
import { IsEmail, IsInt, IsNumber, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

// The rules of main-api's body fields that integrations also checks before it forwards a body to
// main-api: one copy, so the two services cannot accept different values for the same field.
//
// Each decorator lists its rules in the order stacked decorators register them (the lowest first):
// the validation pipe stops at a field's first failed rule, so this order decides which message
// is answered, and it stays the message the stacked decorators gave.

/** The platform's currencies are ids 1 to 10 (`GET /v1/currencies`). */
export const MAX_CURRENCY_ID = 10;

/** A currency id (1 to `MAX_CURRENCY_ID`). */
export const IsCurrencyId = (): PropertyDecorator => applyDecorators(Max(MAX_CURRENCY_ID), Min(1), IsInt());

/** An e-mail address that fits its column. */
export const IsEmailAddress = (): PropertyDecorator => applyDecorators(MaxLength(254), IsEmail());

/** A user's first or last name: 1 to 100 characters. */
export const IsPersonName = (): PropertyDecorator => applyDecorators(Length(1, 100), IsString());

/** A role id, 1 C-Level … 6 Client (`ROLE_IDS`). */
export const IsRoleId = (): PropertyDecorator => applyDecorators(Max(6), Min(1), IsInt());

/** A leave type id, 1 Vacation … 6 Other. */
export const IsLeaveTypeId = (): PropertyDecorator => applyDecorators(Max(6), Min(1), IsInt());

/** A user's picture (its address). */
export const IsUserPicture = (): PropertyDecorator => applyDecorators(MaxLength(500), IsString());

/** A working day of the week, 0 = Sunday … 6 = Saturday. */
export const IsDayOfWeek = (): PropertyDecorator => applyDecorators(Max(6), Min(0), IsInt());

/** Hours of one day (worked or of break): 0 to 24, at most two decimals. */
export const IsHoursOfDay = (): PropertyDecorator =>
  applyDecorators(Max(24), Min(0), IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }));

/** A time of day `HH:mm:ss`. */
export const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
export const IsTimeOfDay = (): PropertyDecorator =>
  Matches(TIME_OF_DAY, { message: '$property must be a time HH:mm:ss' });

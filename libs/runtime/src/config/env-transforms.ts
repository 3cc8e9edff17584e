import { Transform } from 'class-transformer';

/** "true"/"1"/"yes" → true, "false"/"0"/"no" → false, anything else stays a string and fails validation. */
export const ToBoolean = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') {
      return value;
    }
    const normalized = value.trim().toLowerCase();
    if (['true', '1', 'yes'].includes(normalized)) {
      return true;
    }
    if (['false', '0', 'no'].includes(normalized)) {
      return false;
    }
    return value;
  });

/** A decimal integer string → number; anything else stays a string and fails `@IsInt`. */
export const ToInteger = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value,
  );

import { Expose } from 'class-transformer';
import { IsInt, Max, Min } from 'class-validator';
import { ToInteger } from './env-transforms';

/**
 * A whole-number variable within [min, max]: one message naming the variable and its range, for a
 * missing unit, a fraction or a value out of range alike.
 */
export function IntegerSetting(name: string, min: number, max: number, unit = ''): PropertyDecorator {
  const message = `${name} must be an integer ${unit ? `${unit} ` : ''}between ${min} and ${max}`;
  const decorators = [
    Expose(),
    ToInteger(),
    IsInt({ message }),
    Min(min, { message }),
    Max(max, { message }),
  ];
  return (target, key) => {
    for (const decorator of decorators) {
      decorator(target, key);
    }
  };
}

import { plainToInstance, type ClassConstructor } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { EnvValidationError } from './env-validation.error';

/**
 * Reads the environment into a typed, validated object once, at boot. Only declared (`@Expose`d)
 * variables are read, defaults come from the class, and error messages name the variable and what it
 * expects but never echo the value (it may be a secret).
 */
export function loadEnv<T extends object>(
  envClass: ClassConstructor<T>,
  source: NodeJS.ProcessEnv = process.env,
): T {
  const present = Object.fromEntries(
    Object.entries(source).filter(([, value]) => value !== undefined && value !== ''),
  );
  const env = plainToInstance(envClass, present, {
    excludeExtraneousValues: true,
    exposeDefaultValues: true,
  });
  const errors = validateSync(env, { forbidUnknownValues: true });
  if (errors.length > 0) {
    throw new EnvValidationError(errors.flatMap(describe));
  }
  return env;
}

function describe(error: ValidationError): string[] {
  const expectations = Object.values(error.constraints ?? {});
  if (expectations.length === 0) {
    return (error.children ?? []).flatMap(describe);
  }
  // class-validator messages start with the property name: "PORT must be ...". Keep the first one;
  // the others usually restate it.
  return [expectations[0]];
}

/**
 * Loads the environment or stops the process with exit code 1 and a single line on stderr, so a
 * Kubernetes event or a terminal shows exactly which variable is wrong.
 */
export function loadEnvOrExit<T extends object>(serviceName: string, envClass: ClassConstructor<T>): T {
  try {
    return loadEnv(envClass);
  } catch (error) {
    if (error instanceof EnvValidationError) {
      process.stderr.write(`${serviceName}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** A missing or malformed environment variable; its message is one line naming the variable. */
export class EnvValidationError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration: ${problems.join('; ')}`);
    this.name = 'EnvValidationError';
  }
}

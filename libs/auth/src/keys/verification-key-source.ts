import type { KeyObject } from 'node:crypto';

/** Where the public keys that verify access tokens come from, by `kid`. */
export abstract class VerificationKeySource {
  /** The key for `kid`, or undefined when no such key is published. */
  abstract keyFor(kid: string): Promise<KeyObject | undefined>;
}

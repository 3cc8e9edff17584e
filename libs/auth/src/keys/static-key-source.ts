import type { KeyObject } from 'node:crypto';
import { rsaThumbprint } from './jwk';
import { VerificationKeySource } from './verification-key-source';

/** Keys known in process (main-api verifies with its own key set, without calling itself). */
export class StaticKeySource extends VerificationKeySource {
  private readonly keys: Map<string, KeyObject>;

  constructor(publicKeys: KeyObject[]) {
    super();
    this.keys = new Map(publicKeys.map((key) => [rsaThumbprint(key), key]));
  }

  keyFor(kid: string): Promise<KeyObject | undefined> {
    return Promise.resolve(this.keys.get(kid));
  }
}

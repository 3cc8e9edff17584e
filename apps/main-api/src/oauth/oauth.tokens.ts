export const SIGNING_KEYS = Symbol('SIGNING_KEYS');

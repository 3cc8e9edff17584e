import { InitialSchema1795356275054 } from './1795356275054-InitialSchema';

// Listed explicitly (no globs), in order: what runs in production is exactly what is reviewed here.
export const INTEGRATIONS_MIGRATIONS = [InitialSchema1795356275054];

import { InitialSchema1795356237865 } from './1795356237865-InitialSchema';

// Listed explicitly (no globs), in order: what runs in production is exactly what is reviewed here.
export const PLANNER_MIGRATIONS = [InitialSchema1795356237865];

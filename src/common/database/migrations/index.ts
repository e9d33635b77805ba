import { InitialSchema1763800000000 } from './1763800000000-initial-schema';

/** Every migration, oldest first; run at start with one transaction each. */
export const MIGRATIONS = [InitialSchema1763800000000];

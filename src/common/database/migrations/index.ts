import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { TaxQuotes1763900000000 } from './1763900000000-tax-quotes';
import { Rates1764000000000 } from './1764000000000-rates';
import { DeviceFingerprints1764100000000 } from './1764100000000-device-fingerprints';

/** Every migration, oldest first; run at start with one transaction each. */
export const MIGRATIONS = [InitialSchema1763800000000, TaxQuotes1763900000000, Rates1764000000000, DeviceFingerprints1764100000000];

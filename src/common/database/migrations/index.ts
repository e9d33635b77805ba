import { InitialSchema1763800000000 } from './1763800000000-initial-schema';
import { TaxQuotes1763900000000 } from './1763900000000-tax-quotes';
import { Rates1764000000000 } from './1764000000000-rates';
import { DeviceFingerprints1764100000000 } from './1764100000000-device-fingerprints';
import { SignedRequestReplay1764200000000 } from './1764200000000-signed-request-replay';
import { JobLease1764300000000 } from './1764300000000-job-lease';
import { Orders1764400000000 } from './1764400000000-orders';
import { Notifications1764500000000 } from './1764500000000-notifications';
import { Remittance1764600000000 } from './1764600000000-remittance';

/** Every migration, oldest first; run at start under a lock between instances (run-migrations.ts). */
export const MIGRATIONS = [InitialSchema1763800000000, TaxQuotes1763900000000, Rates1764000000000, DeviceFingerprints1764100000000, SignedRequestReplay1764200000000, JobLease1764300000000, Orders1764400000000, Notifications1764500000000, Remittance1764600000000];

/** RFC 3339 date-time with a zone: 2025-11-27T10:00:00Z, 2025-11-27T11:00:00.123+01:00. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 text names, or null when it is not one. Parsed by hand because Date.parse
 * accepts texts without a zone (read as local time) and rolls over impossible dates (February 30).
 */
export function parseRfc3339(text: string): Date | null {
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [fraction, sign, offsetHours, offsetMinutes] = [match[7], match[8], Number(match[9] ?? 0), Number(match[10] ?? 0)];
  // Second 60 is a leap second (RFC 3339 allows it); Date.UTC carries it into the next minute.
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return null;
  if (day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  const millis = fraction ? Math.floor(Number(`0${fraction}`) * 1000) : 0;
  const offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000;
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, millis) - offset);
}

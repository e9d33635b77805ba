/** A user-id and password taken from an `Authorization: Basic …` header. */
export interface BasicCredentials {
  username: string;
  password: string;
}

// RFC 7617: scheme "Basic" (any case), one or more spaces, then base64 as a token68.
const BASIC = /^basic +([A-Za-z0-9+/]+={0,2})$/i;

/**
 * Parses a Basic Authorization header (RFC 7617), or returns null when it is missing, another scheme
 * or malformed. Splits at the first ':' only, as user-ids cannot hold one but passwords can. An empty
 * user-id or password is null too: passport-http, which this replaces, refused those as well.
 */
export function parseBasicAuthorization(header: string | undefined): BasicCredentials | null {
  const match = BASIC.exec(header?.trim() ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return username && password ? { username, password } : null;
}

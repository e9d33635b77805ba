import { invalidRequest } from '../../common/errors/domain-error';
import { FieldErrorCode } from '../../common/errors/field-error';

/** A position in a list ordered by (created_at, id): the row's exact stored timestamp and its id. */
export interface CursorPosition {
  createdAt: string;
  id: string;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/;
const ID = /^[0-9a-f-]{1,36}$/i;

/**
 * Opaque to clients: base64url of the JSON pair. Written as a template, not with JSON.stringify (a
 * cursor per row of every page): timestamps and ids hold no character JSON would escape.
 */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`["${position.createdAt}","${position.id}"]`, 'latin1').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && TIMESTAMP.test(String(value[0])) && ID.test(String(value[1]))) {
      return { createdAt: value[0] as string, id: value[1] as string };
    }
  } catch {
    // reported below
  }
  throw invalidRequest([{ Field: 'after', Code: FieldErrorCode.Invalid, Message: 'after must be an endCursor or cursor returned by this API' }]);
}

import fc from 'fast-check';
import { decodeCursor, encodeCursor } from './cursor';

const timestamp = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true })
  .chain((date) =>
    fc.constantFrom('', '.1', '.123', '.123456').map((fraction) => `${date.toISOString().slice(0, 19).replace('T', ' ')}${fraction}`),
  );

describe('cursors', () => {
  it('encode as base64url of the JSON pair [createdAt, id], and decode back', () => {
    fc.assert(
      fc.property(timestamp, fc.uuid(), (createdAt, id) => {
        const cursor = encodeCursor({ createdAt, id });
        expect(cursor).toBe(Buffer.from(JSON.stringify([createdAt, id])).toString('base64url'));
        expect(decodeCursor(cursor)).toEqual({ createdAt, id });
      }),
    );
  });

  it('refuse what this API did not make', () => {
    for (const bad of ['', 'not-a-cursor', Buffer.from('["2025-01-01 00:00:00"]').toString('base64url'), Buffer.from('["x","y"]').toString('base64url')]) {
      expect(() => decodeCursor(bad)).toThrow();
    }
  });
});

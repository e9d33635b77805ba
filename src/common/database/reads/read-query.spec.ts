import { DataSource } from 'typeorm';
import { Merchant } from '../../../auth/merchant.entity';
import { ReadQuery } from './read-query';

describe('ReadQuery', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = new DataSource({ type: 'better-sqlite3', database: ':memory:', entities: [Merchant], synchronize: true });
    await dataSource.initialize();
    const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes));
    await dataSource.getRepository(Merchant).insert([
      { id: 'm1', name: 'One', remittanceCurrency: 'USD', createdAt: at(1) },
      { id: 'm2', name: 'Two', remittanceCurrency: 'EUR', createdAt: at(2) },
      { id: 'm3', name: 'Three', remittanceCurrency: 'EUR', createdAt: at(3) },
    ]);
  });
  afterAll(() => dataSource.destroy());

  it('binds each ? to its value in order, Dates as the driver stores them, and ANDs the conditions', async () => {
    const rows = await new ReadQuery(dataSource, Merchant, 'm')
      .select('m.id AS id')
      .where('m.remittance_currency = ?', 'EUR')
      .where(dataSourceDialectCompare(dataSource), new Date(Date.UTC(2026, 0, 1, 0, 3)))
      .orderBy('m.created_at DESC')
      .limit(5)
      .rows<{ id: string }>();
    expect(rows).toEqual([{ id: 'm2' }]);
  });

  it('orders and limits', async () => {
    const rows = await new ReadQuery(dataSource, Merchant, 'm').select('m.id AS id').orderBy('m.created_at DESC').limit(2).rows<{ id: string }>();
    expect(rows.map((row) => row.id)).toEqual(['m3', 'm2']);
  });

  it("binds a join's values before the WHERE's, whatever order they were given in", async () => {
    const rows = await new ReadQuery(dataSource, Merchant, 'm')
      .select('m.id AS id', 'other.id AS other')
      .where('m.id = ?', 'm2')
      .leftJoin(Merchant, 'other', 'other.remittance_currency = m.remittance_currency AND other.id <> ?', 'm2')
      .rows<{ id: string; other: string | null }>();
    expect(rows).toEqual([{ id: 'm2', other: 'm3' }]);
  });

  it('refuses a condition whose placeholders and values differ in number', () => {
    const query = new ReadQuery(dataSource, Merchant, 'm');
    expect(() => query.where('m.id = ? OR m.id = ?', 'm1')).toThrow('2 placeholders for 1 values');
    expect(() => query.where('m.id = ?')).toThrow('1 placeholders for 0 values');
    expect(() => query.leftJoin(Merchant, 'other', 'other.id = ?')).toThrow('1 placeholders for 0 values');
  });
});

/** created_at before a Date parameter, as the dashboard's filters compare it. */
function dataSourceDialectCompare(dataSource: DataSource): string {
  return new ReadQuery(dataSource, Merchant, 'm').dialect.compareTimestamp('m.created_at', '<', '?');
}

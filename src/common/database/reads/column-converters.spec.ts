import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities';
import { columnConverter } from './column-converters';

/** Raw values as either driver may hand them over (text, numbers, dates, JSON text, flags, null). */
const SAMPLES: unknown[] = [null, undefined, '', 'abc', '42', '9007199254740991', 42, 0, 1, '{"a":[1,2]}', '[]', new Date('2026-11-23T02:20:03.123Z'), '2026-11-23 02:20:03.123'];

const outcome = (run: () => unknown): unknown => {
  try {
    const value = run();
    // Invalid Dates compare unequal to each other; compare what they hold.
    return { value: value instanceof Date ? `Date ${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()}` : value };
  } catch (error) {
    return { threw: (error as Error).name };
  }
};

describe('columnConverter', () => {
  const dataSources: DataSource[] = [];
  afterAll(() => Promise.all(dataSources.map((dataSource) => dataSource.isInitialized && dataSource.destroy())));

  /** The entities' metadata for a driver, without connecting to MySQL (metadata only) or a database file (SQLite in memory). */
  const metadataFor = async (type: 'mysql' | 'better-sqlite3') => {
    const dataSource = new DataSource(type === 'mysql' ? { type, database: 'metadata_only', entities: ENTITIES } : { type, database: ':memory:', entities: ENTITIES });
    dataSources.push(dataSource);
    if (type === 'mysql') await (dataSource as unknown as { buildMetadatas(): Promise<void> }).buildMetadatas();
    else await dataSource.initialize();
    return dataSource;
  };

  it.each(['mysql', 'better-sqlite3'] as const)('hydrates every column of every entity as %s prepareHydratedValue does', async (type) => {
    const dataSource = await metadataFor(type);
    let cells = 0;
    for (const metadata of dataSource.entityMetadatas) {
      for (const column of metadata.columns) {
        const convert = columnConverter(dataSource.driver, column);
        for (const sample of SAMPLES) {
          expect([metadata.name, column.propertyName, outcome(() => convert(sample))]).toEqual([
            metadata.name,
            column.propertyName,
            outcome(() => dataSource.driver.prepareHydratedValue(sample, column)),
          ]);
          cells++;
        }
      }
    }
    expect(cells).toBeGreaterThan(1000);
  });
});

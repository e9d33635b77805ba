import { DataSource } from 'typeorm';

export interface RowCounts {
  payment_session: number;
  billing_profile: number;
}

/** How many sessions and billing profiles the database holds; a refused request must leave both unchanged. */
export async function rowCounts(dataSource: DataSource): Promise<RowCounts> {
  const count = async (table: keyof RowCounts) => {
    const rows: { n: number | string | bigint }[] = await dataSource.query(`SELECT COUNT(*) AS n FROM ${table}`);
    return Number(rows[0].n);
  };
  return { payment_session: await count('payment_session'), billing_profile: await count('billing_profile') };
}

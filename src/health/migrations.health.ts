import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

/**
 * Ready only when every configured migration has run: the names in TypeORM's migrations table are
 * compared with the configured list. Read-only (showMigrations() would create the table when missing).
 */
@Injectable()
export class MigrationsHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly healthIndicatorService: HealthIndicatorService,
  ) {}

  async isApplied(key: string) {
    const check = this.healthIndicatorService.check(key);
    const expected = this.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
    let executed: Set<string>;
    try {
      const table = this.dataSource.driver.escape(this.dataSource.options.migrationsTableName ?? 'migrations');
      const rows: { name: string }[] = await this.dataSource.query(`SELECT name FROM ${table}`);
      executed = new Set(rows.map((row) => row.name));
    } catch {
      return check.down({ message: 'migrations table cannot be read' });
    }
    const pending = expected.filter((name) => !executed.has(name));
    if (pending.length > 0) return check.down({ pending });
    return check.up({ applied: expected.length });
  }
}

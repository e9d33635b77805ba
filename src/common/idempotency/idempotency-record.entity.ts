import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** The first response to a request carrying an Idempotency-Key, replayed to retries of that request. */
@Entity('idempotency_record')
export class IdempotencyRecord {
  @PrimaryColumn({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @PrimaryColumn({ name: 'idempotency_key', type: 'varchar', length: 255 })
  key: string;

  /** SHA-256 of method, path and body: a retry must send the same request. */
  @Column({ name: 'request_hash', type: 'varchar', length: 64 })
  requestHash: string;

  /** null while the first request is still running. */
  @Column({ name: 'response_status', type: 'int', nullable: true })
  responseStatus: number | null;

  @Column({ name: 'response_body', type: 'text', nullable: true })
  responseBody: string | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}

import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/** Billing data of a shopper, created by one session and reusable by reference or id within the merchant. */
@Entity('billing_profile')
@Index('UQ_billing_profile_reference', ['merchantId', 'reference'], { unique: true })
export class BillingProfile {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36 })
  merchantId: string;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reference: string | null;

  @Column({ type: 'varchar', length: 255 })
  name: string;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 50, nullable: true })
  phone: string | null;

  @Column({ name: 'birth_date', type: 'varchar', length: 10, nullable: true })
  birthDate: string | null;

  @Column({ name: 'national_identifier', type: 'varchar', length: 50, nullable: true })
  nationalIdentifier: string | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  company: string | null;

  @Column({ type: 'varchar', length: 255 })
  street: string;

  @Column({ type: 'varchar', length: 255 })
  city: string;

  @Column({ type: 'varchar', length: 10, nullable: true })
  region: string | null;

  @Column({ type: 'varchar', length: 2 })
  country: string;

  @Column({ type: 'varchar', length: 20, nullable: true })
  postcode: string | null;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}

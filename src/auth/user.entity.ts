import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

export enum Role {
  Merchant = 'merchant',
  Readonly = 'readonly',
  Admin = 'admin',
}

/** A Basic-auth user: belongs to one merchant, or is an admin with none. */
@Entity('app_user')
@Index('UQ_app_user_username', ['username'], { unique: true })
export class User {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 100 })
  username: string;

  /** scrypt$N$r$p$salt$hash, never the password itself. */
  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash: string;

  @Column({ name: 'merchant_id', type: 'varchar', length: 36, nullable: true })
  merchantId: string | null;

  @Column({ type: 'varchar', length: 20 })
  role: Role;

  @CreateDateColumn({ name: 'created_at', precision: 6 })
  createdAt: Date;
}

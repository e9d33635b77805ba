import { Field, ID, InputType } from '@nestjs/graphql';
import { IsDate, IsOptional, IsUUID, Matches } from 'class-validator';
import { ReadQuery } from '../../common/database/reads/read-query';

/** What every list can be filtered by: creation time, currency, and (admins) merchant. */
@InputType({ isAbstract: true })
export abstract class CommonFilter {
  @Field({ nullable: true, description: 'Created at or after this instant.' })
  @IsOptional()
  @IsDate()
  createdFrom?: Date;

  @Field({ nullable: true, description: 'Created before this instant (exclusive).' })
  @IsOptional()
  @IsDate()
  createdTo?: Date;

  @Field({ nullable: true, description: 'ISO 4217 code.' })
  @IsOptional()
  @Matches(/^[A-Z]{3}$/, { message: 'currency must be three upper-case letters' })
  currency?: string;

  @Field(() => ID, { nullable: true, description: 'Admins: only this merchant. Merchant users see only their own merchant anyway.' })
  @IsOptional()
  @IsUUID()
  merchantId?: string;
}

/** Applies the CommonFilter's time and currency conditions to `query` (merchant scope is applied by the caller). */
export function applyCommonFilter(query: ReadQuery, filter: CommonFilter | undefined): void {
  const alias = query.alias;
  if (filter?.createdFrom) query.where(query.dialect.compareTimestamp(`${alias}.created_at`, '>=', '?'), filter.createdFrom);
  if (filter?.createdTo) query.where(query.dialect.compareTimestamp(`${alias}.created_at`, '<', '?'), filter.createdTo);
  if (filter?.currency) query.where(`${alias}.currency = ?`, filter.currency);
}

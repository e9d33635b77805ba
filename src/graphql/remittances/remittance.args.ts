import { ArgsType, Field, InputType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsOptional, ValidateNested } from 'class-validator';
import { CommonFilter } from '../common/filters.input';
import { PageArgs } from '../common/page.args';

/** Creation time (the run), remittance currency and (admins) merchant. */
@InputType()
export class RemittanceFilter extends CommonFilter {}

@ArgsType()
export class RemittancesArgs extends PageArgs {
  @Field(() => RemittanceFilter, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => RemittanceFilter)
  filter?: RemittanceFilter;
}

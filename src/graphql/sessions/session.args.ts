import { ArgsType, Field, InputType } from '@nestjs/graphql';
import { Type } from 'class-transformer';
import { IsIn, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { SessionState } from '../../session/session-state';
import { CommonFilter } from '../common/filters.input';
import { SessionStateValues } from '../common/enums';
import { PageArgs } from '../common/page.args';

@InputType()
export class SessionFilter extends CommonFilter {
  @Field(() => SessionStateValues, { nullable: true })
  @IsOptional()
  @IsIn(Object.values(SessionStateValues))
  state?: SessionState;

  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(255)
  merchantReference?: string;
}

@ArgsType()
export class SessionsArgs extends PageArgs {
  @Field(() => SessionFilter, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => SessionFilter)
  filter?: SessionFilter;
}

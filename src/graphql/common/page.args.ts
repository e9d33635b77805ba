import { ArgsType, Field, Int, registerEnumType } from '@nestjs/graphql';
import { IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export enum SortOrder {
  NEWEST_FIRST = 'NEWEST_FIRST',
  OLDEST_FIRST = 'OLDEST_FIRST',
}

registerEnumType(SortOrder, {
  name: 'SortOrder',
  description: 'Lists are ordered by creation time, then id: a stable order in which new rows never shift a page.',
});

/** Largest page; with the complexity limit this bounds what one query can read. */
export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 20;

/** Forward cursor pagination (Relay): first + after, plus the direction of the (created_at, id) order. */
@ArgsType()
export class PageArgs {
  @Field(() => Int, { defaultValue: DEFAULT_PAGE_SIZE, description: `Page size, 1 to ${MAX_PAGE_SIZE}.` })
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  first: number = DEFAULT_PAGE_SIZE;

  @Field(() => String, { nullable: true, description: 'Continue after this cursor (pageInfo.endCursor of the previous page).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  after?: string | null;

  @Field(() => SortOrder, { defaultValue: SortOrder.NEWEST_FIRST })
  @IsEnum(SortOrder)
  order: SortOrder = SortOrder.NEWEST_FIRST;
}

/** Cost of a connection field for the complexity limit: its page size times what each edge asks for. */
export const connectionComplexity = ({ args, childComplexity }: { args: { first?: number }; childComplexity: number }) =>
  1 + Math.min(Math.max(args.first ?? DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE) * childComplexity;

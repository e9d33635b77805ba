import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsString, MaxLength } from 'class-validator';

/**
 * `(id: ID!)`. An args class rather than @Args('id') id: string: Nest hands GraphQL arguments to pipes
 * as the "body", and the global validation pipe accepts only objects there.
 */
@ArgsType()
export class IdArgs {
  @Field(() => ID)
  @IsString()
  @MaxLength(100)
  id: string;
}

import { Catch } from '@nestjs/common';
import { GqlExceptionFilter } from '@nestjs/graphql';
import { GraphQLError } from 'graphql';
import { toGraphqlError } from './graphql-errors';

/**
 * The GraphQL counterpart of GlobalExceptionFilter for root fields (guards, pipes, resolvers): returns
 * the error as a GraphQLError carrying the REST/Checkout code. Registered on the resolvers, so that it
 * is chosen before the HTTP-only global filter.
 */
@Catch()
export class GraphqlExceptionFilter implements GqlExceptionFilter {
  catch(exception: unknown): GraphQLError {
    return toGraphqlError(exception);
  }
}

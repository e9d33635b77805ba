import { applyDecorators, UseFilters, UseGuards } from '@nestjs/common';
import { GraphqlExceptionFilter } from '../errors/graphql-exception.filter';
import { GqlBasicAuthGuard } from './gql-basic-auth.guard';

/** For resolvers with root fields: Basic auth on every query and mutation, errors as GraphQL errors. */
export const GraphqlEndpoint = () => applyDecorators(UseGuards(GqlBasicAuthGuard), UseFilters(GraphqlExceptionFilter));

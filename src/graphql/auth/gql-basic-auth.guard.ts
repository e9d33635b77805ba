import { ExecutionContext, Injectable } from '@nestjs/common';
import { GqlExecutionContext } from '@nestjs/graphql';
import type { Request } from 'express';
import { BasicAuthGuard } from '../../auth/basic-auth.guard';
import { GraphqlContext } from '../graphql-context';

/**
 * BasicAuthGuard for GraphQL: the same Basic header check (and so the same credential cache), with
 * the request taken from the GraphQL context. Guards root fields; nested fields only ever see
 * data their root field was allowed to read. @RequireAccess('write') admits merchant users only.
 */
@Injectable()
export class GqlBasicAuthGuard extends BasicAuthGuard {
  getRequest(context: ExecutionContext): Request {
    return GqlExecutionContext.create(context).getContext<GraphqlContext>().req;
  }
}

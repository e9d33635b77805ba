import { Args, Context, Info, Mutation, Query, Resolver } from '@nestjs/graphql';
import type { GraphQLResolveInfo } from 'graphql';
import { RequireAccess } from '../../auth/access.decorator';
import { Principal } from '../../auth/principal';
import { SessionService } from '../../session/session.service';
import { GqlPrincipal } from '../auth/gql-principal.decorator';
import { GraphqlEndpoint } from '../auth/graphql-endpoint.decorator';
import { IdArgs } from '../common/id.args';
import { connectionComplexity } from '../common/page.args';
import type { GraphqlContext } from '../graphql-context';
import { selectionAt, selectionOf } from '../read/selection';
import { SessionReads } from './session-reads.service';
import { SessionsArgs } from './session.args';
import { toSessionModel } from './session.mapper';
import { SessionConnection, SessionModel } from './session.model';

@Resolver(() => SessionModel)
@GraphqlEndpoint()
export class SessionResolver {
  constructor(
    private readonly sessionService: SessionService,
    private readonly reads: SessionReads,
  ) {}

  @Query(() => SessionModel, { description: 'A session by id; another merchant\'s is SESSION_NOT_FOUND.' })
  async session(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SessionModel> {
    // The Session interface's read: the same visibility rule and expiry, the same SESSION_NOT_FOUND.
    await this.sessionService.get(principal, id);
    return this.stored(id, context, info);
  }

  @Query(() => SessionConnection, { description: 'Sessions, newest first unless asked otherwise.', complexity: connectionComplexity })
  async sessions(
    @GqlPrincipal() principal: Principal,
    @Args() args: SessionsArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SessionConnection> {
    const selection = selectionAt(selectionOf(info), 'edges', 'node');
    const page = await this.reads.page(principal, args, selection);
    await context.relations.ofSessions(page.edges.map((edge) => edge.node), selection);
    return page;
  }

  @Mutation(() => SessionModel, { description: 'CREATED → CANCELLED, as DELETE /session/{id}; other states: INVALID_SESSION_STATE.' })
  @RequireAccess('write')
  async cancelSession(
    @GqlPrincipal() principal: Principal,
    @Args() { id }: IdArgs,
    @Context() context: GraphqlContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<SessionModel> {
    await this.sessionService.cancel(principal, id);
    return this.stored(id, context, info);
  }

  /** The session as stored now, with what the query asks for of its related objects. */
  private async stored(id: string, context: GraphqlContext, info: GraphQLResolveInfo): Promise<SessionModel> {
    const [session] = await this.reads.byIds([id]);
    if (!session) throw new Error(`Session ${id} vanished after it was read`);
    const model = toSessionModel(session, new Date());
    await context.relations.ofSessions([model], selectionOf(info));
    return model;
  }
}

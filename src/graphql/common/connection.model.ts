import { Type } from '@nestjs/common';
import { Field, ObjectType } from '@nestjs/graphql';

@ObjectType({ description: 'Relay page information (forward pagination).' })
export class PageInfo {
  @Field({ description: 'Whether another page follows: pass endCursor as `after` to get it.' })
  hasNextPage: boolean;

  @Field(() => String, { nullable: true, description: 'Cursor of the last edge of this page; null when the page is empty.' })
  endCursor: string | null;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/** A Relay connection type (`XConnection` with `XEdge`s) for one node type. */
export function ConnectionOf<T>(node: Type<T>, name: string): Type<Connection<T>> {
  @ObjectType(`${name}Edge`)
  class EdgeType implements Edge<T> {
    @Field({ description: 'Opaque position of this node; pass it as `after` to continue after it.' })
    cursor: string;

    @Field(() => node)
    node: T;
  }

  @ObjectType(`${name}Connection`)
  class ConnectionType implements Connection<T> {
    @Field(() => [EdgeType])
    edges: EdgeType[];

    @Field(() => PageInfo)
    pageInfo: PageInfo;
  }
  return ConnectionType;
}

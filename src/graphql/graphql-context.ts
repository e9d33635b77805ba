import type { Request, Response } from 'express';
import type { Relations } from './read/relations';

/** What every resolver sees as the GraphQL context: the HTTP exchange and this request's related-object loader. */
export interface GraphqlContext {
  req: Request;
  res: Response;
  relations: Relations;
}

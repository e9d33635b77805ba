import type { Principal } from './principal';

// The caller BasicAuthGuard puts on the request (@types/passport used to declare `user`, loosely typed).
declare global {
  namespace Express {
    interface Request {
      user?: Principal;
    }
  }
}

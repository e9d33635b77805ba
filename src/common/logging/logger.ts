import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import { maskCardNumbers, redactLogObject } from './redaction';
import { assignRequestId } from './request-id';

/**
 * The process's one pino logger: a JSON object per line on stdout (level as a name, ISO time), with
 * credentials and card data taken out of every object and message (redaction.ts). LOG_LEVEL is its
 * level ("silent" writes nothing).
 */
export function createRootLogger(level: string, destination: DestinationStream = process.stdout): Logger {
  return pino(
    {
      level,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: redactLogObject },
      serializers: { err: serializeError },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((arg: unknown) => (typeof arg === 'string' ? maskCardNumbers(arg) : arg));
          return method.apply(this, masked as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

/** Type, message and stack only (an error's other fields can hold SQL parameters or request data). */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: maskCardNumbers(error.message),
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack ? { stack: maskCardNumbers(error.stack) } : {}),
  };
}

/** What express and the auth layers leave on a request; read structurally, without importing them. */
export interface LoggedRequest extends IncomingMessage {
  originalUrl?: string;
  ip?: string;
  baseUrl?: string;
  route?: { path?: unknown };
  user?: { userId?: unknown; merchantId?: unknown };
  signedCall?: { merchantId?: unknown };
}

export type HttpLoggerMiddleware = (request: LoggedRequest, response: ServerResponse, next: () => void) => void;

/** Paths probed every few seconds: their lines are at debug level, so they do not drown the rest. */
const QUIET_PATH = /^\/(health\/|metrics(\/|\?|$))/;

/**
 * One log line per request, when its response is finished (or the client went away):
 * {"level":"info","time":"…","requestId":"…","req":{"method":"POST","path":"/v2.22/session","ip":"…"},
 *  "res":{"statusCode":201},"durationMs":12,"route":"/v2.22/session","merchantId":"…","userId":"…",
 *  "msg":"POST /v2.22/session 201"}
 * Never headers, query strings or bodies: the path alone (signed GET calls carry request and signature
 * in the query; payment pages carry tokens there). Logs written while the request runs (Nest's Logger,
 * through nestjs-pino) carry its requestId too.
 */
export function createHttpLogger(root: Logger): HttpLoggerMiddleware {
  return (request, response, next) => {
    const requestId = assignRequestId(request, response);
    request.id = requestId;
    const startedAt = Date.now();
    // The request's own logger (its requestId on every line), made when something first logs during the
    // request: making a pino child serializes its bindings, which cost every request ~10 % of a small
    // request's CPU when pino-http made two of them up front.
    let requestLogger: Logger | undefined;
    Object.defineProperty(request, 'log', { configurable: true, get: () => (requestLogger ??= root.child({ requestId })) });

    const finished = (error?: unknown) => {
      response.removeListener('close', finished);
      response.removeListener('finish', finished);
      response.removeListener('error', finished);
      const path = pathOf(request);
      // 5xx causes are logged with their stack by the exception filters, under the same requestId.
      const level = error !== undefined || response.statusCode >= 500 ? 'error' : QUIET_PATH.test(path) ? 'debug' : 'info';
      if (!root.isLevelEnabled(level)) return;
      root[level](
        {
          requestId,
          req: { method: request.method, path, ip: request.ip ?? request.socket?.remoteAddress },
          res: { statusCode: response.statusCode },
          durationMs: Date.now() - startedAt,
          ...who(request),
        },
        summary(request, response),
      );
    };
    response.on('close', finished);
    response.on('finish', finished);
    response.on('error', finished);
    next();
  };
}

function summary(request: LoggedRequest, response: ServerResponse): string {
  const outcome = response.writableEnded ? String(response.statusCode) : `aborted (${response.statusCode})`;
  return `${request.method} ${pathOf(request)} ${outcome}`;
}

/** The path without its query string. */
function pathOf(request: LoggedRequest): string {
  const url = request.originalUrl ?? request.url ?? '';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The matched route pattern (as the metrics label it) and who called, once known. */
function who(request: LoggedRequest): Record<string, string> {
  const fields: Record<string, string> = {};
  const path = request.route?.path;
  if (typeof path === 'string') fields.route = `${request.baseUrl ?? ''}${path}`;
  const merchantId = request.user?.merchantId ?? request.signedCall?.merchantId;
  if (typeof merchantId === 'string') fields.merchantId = merchantId;
  if (typeof request.user?.userId === 'string') fields.userId = request.user.userId;
  return fields;
}

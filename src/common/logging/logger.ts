import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type DestinationStream, type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
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
interface LoggedRequest extends IncomingMessage {
  originalUrl?: string;
  ip?: string;
  baseUrl?: string;
  route?: { path?: unknown };
  user?: { userId?: unknown; merchantId?: unknown };
  signedCall?: { merchantId?: unknown };
}

/** Paths probed every few seconds: their lines are at debug level, so they do not drown the rest. */
const QUIET_PATH = /^\/(health\/|metrics(\/|\?|$))/;

/**
 * One log line per request, when its response is finished (or the client went away):
 * {"level":"info","time":"…","requestId":"…","req":{"method":"POST","path":"/v2.22/session","ip":"…"},
 *  "res":{"statusCode":201},"route":"/v2.22/session","merchantId":"…","userId":"…","durationMs":12,
 *  "msg":"POST /v2.22/session 201"}
 * Never headers, query strings or bodies: the path alone (signed GET calls carry request and signature
 * in the query; payment pages carry tokens there). Logs written while the request runs (Nest's Logger,
 * through nestjs-pino) carry its requestId too.
 */
export function createHttpLogger(root: Logger) {
  return pinoHttp<LoggedRequest, ServerResponse>({
    logger: root,
    genReqId: assignRequestId,
    quietReqLogger: true,
    wrapSerializers: false,
    serializers: {
      req: (request: LoggedRequest) => ({ method: request.method, path: pathOf(request), ip: request.ip ?? request.socket?.remoteAddress }),
      res: (response: ServerResponse) => ({ statusCode: response.statusCode }),
      err: serializeError,
    },
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    customLogLevel: (request, response, error) => {
      if (error || response.statusCode >= 500) return 'error';
      return QUIET_PATH.test(pathOf(request)) ? 'debug' : 'info';
    },
    customSuccessObject: (request, _response, base: Record<string, unknown>) => ({ ...base, ...who(request) }),
    // The exception filters log a 5xx's cause with its stack, under the same requestId.
    customErrorObject: (request, _response, _error, base: Record<string, unknown>) => {
      const { err: _ignored, ...rest } = base;
      return { ...rest, ...who(request) };
    },
    customSuccessMessage: (request, response) => summary(request, response),
    customErrorMessage: (request, response) => summary(request, response),
  });
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

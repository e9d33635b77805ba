import { HeaderMap } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import { Logger } from '@nestjs/common';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { CheckoutError } from '../../checkout/checkout-errors';
import { INTERNAL_ERROR, toHttpError } from '../../common/errors/error-body';
import { fromFrameworkError } from '../../common/errors/framework-errors';

const logger = new Logger('GraphqlErrors');

/** The challenge the REST interface sends with its 401s. */
const BASIC_CHALLENGE = 'Basic realm="payments", charset="UTF-8"';

/**
 * The error a REST or Checkout call would have got, as a GraphQL error: the same code in
 * extensions.code (SESSION_NOT_FOUND, INVALID_SESSION_STATE, AlreadyCaptured, RefundLimitExceeded …),
 * the same message, FieldErrors as extensions.fieldErrors. A 401 also sets the HTTP status and the
 * Basic challenge. Anything unknown becomes a plain INTERNAL_SERVER_ERROR, logged with its stack.
 */
export function toGraphqlError(exception: unknown): GraphQLError {
  if (exception instanceof GraphQLError) return exception;
  if (exception instanceof CheckoutError) {
    log(exception.status, exception.code, exception.message, exception);
    return new GraphQLError(exception.message, { extensions: { code: exception.code } });
  }
  const known = fromFrameworkError(exception);
  const { status, body } = known ? toHttpError(known) : INTERNAL_ERROR;
  log(status, body.Code, body.Message, exception);
  return new GraphQLError(body.Message, {
    extensions: {
      code: body.Code,
      ...(body.FieldErrors && { fieldErrors: body.FieldErrors }),
      ...(status === 401 && { http: { status, headers: new HeaderMap([['www-authenticate', BASIC_CHALLENGE]]) } }),
    },
  });
}

/**
 * Apollo's last look at every error. Errors that already have a code (ours, Apollo's parse, validation
 * and input errors, the limits) pass unchanged. Errors without one get the code of what was thrown: a
 * domain error from a nested field resolver (where no exception filter runs) its REST/Checkout code,
 * anything else a plain INTERNAL_SERVER_ERROR, so that no message or stack of an internal error leaks.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  if (formatted.extensions?.code !== ApolloServerErrorCode.INTERNAL_SERVER_ERROR) return formatted;
  let cause = error;
  while (cause instanceof GraphQLError && cause.originalError) cause = cause.originalError;
  const mapped = toGraphqlError(cause);
  const { http: _http, ...extensions } = mapped.extensions;
  return { message: mapped.message, locations: formatted.locations, path: formatted.path, extensions };
}

function log(status: number, code: string, message: string, exception: unknown): void {
  if (status >= 500) logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
  else logger.warn(`${status} ${code}: ${message}`);
}

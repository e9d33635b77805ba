import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { invalidRequest } from '../errors/domain-error';
import { FieldErrorCode } from '../errors/field-error';
import { toFieldErrors } from './field-errors';

/** The one validation pipe: whitelist, reject unknown fields, report in the spec's FieldErrors format. */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      // Checkout payloads arrive through @SignedPayload(), a custom decorator: validate them like bodies.
      validateCustomDecorators: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => invalidRequest(toFieldErrors(errors)),
    });
  }

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const isDtoBody = metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object;
    if (isDtoBody && (typeof value !== 'object' || value === null || Array.isArray(value))) {
      throw invalidRequest([{ Field: '$', Code: FieldErrorCode.Invalid, Message: 'Request body must be a JSON object' }]);
    }
    return super.transform(value, metadata);
  }
}

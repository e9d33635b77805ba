import { Injectable, PipeTransform } from '@nestjs/common';
import { DomainError } from '../errors/domain-error';
import { ErrorCode } from '../errors/error-codes';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID path parameter; anything else is 400 VALIDATION_ERROR ("Not a valid UUID"). Returned lower-case. */
@Injectable()
export class UuidParamPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw new DomainError(ErrorCode.ValidationError);
    return value.toLowerCase();
  }
}

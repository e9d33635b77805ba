import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

class FieldErrorView {
  @ApiProperty({ example: 'Items[0].Amount' }) Field: string;
  @ApiProperty({ example: 'FIELD_INVALID' }) Code: string;
  @ApiProperty() Message: string;
}

/** OpenAPI description of the spec's error object. */
export class ErrorBodyView {
  @ApiProperty({ example: 'INVALID_REQUEST' }) Code: string;
  @ApiProperty({ example: 'Invalid request syntax' }) Message: string;
  @ApiPropertyOptional({ type: [FieldErrorView] }) FieldErrors?: FieldErrorView[];
  @ApiProperty({ example: '5f0c6a3e-2b1d-4f8e-9c7a-1d2e3f4a5b6c', description: 'The X-Request-Id of the request (quote it to support)' })
  RequestId: string;
}

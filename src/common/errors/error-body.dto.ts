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
}

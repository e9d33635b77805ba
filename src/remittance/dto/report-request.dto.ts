import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsOptional, IsUUID } from 'class-validator';
import { NullAsAbsent } from '../../common/validation/validators';

/** The JSON inside `request` for GET /reports. */
export class ReportsRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;
}

/** The JSON inside `request` for GET /reports/{ReportId}. */
export class ReportRequestDto {
  @ApiProperty({ format: 'uuid' })
  @IsUUID('all', { message: 'must be a UUID' })
  MerchantId: string;

  @ApiProperty({ enum: ['csv', 'json'], required: false, default: 'json', description: 'csv: text/csv with a Signature header; json: the signed envelope' })
  @IsOptional()
  @NullAsAbsent()
  @IsIn(['csv', 'json'], { message: 'must be "csv" or "json"' })
  Format?: 'csv' | 'json';
}

import { ApiProperty } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { Amount, Text } from '../../common/validation/validators';

export class ItemDto {
  @Text(255, { example: 'T-shirt' })
  Name: string;

  @Amount({ description: 'Unit amount in the session currency', example: 12 })
  Amount: number;

  @ApiProperty({ type: Number, minimum: 1, maximum: 1_000_000, example: 2 })
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  Quantity: number;
}

export class DiscountDto {
  @Text(255, { example: 'Welcome discount' })
  Name: string;

  @Amount({ description: 'Flat amount subtracted from TotalAmount (greater than zero)', example: 2 })
  Amount: number;
}

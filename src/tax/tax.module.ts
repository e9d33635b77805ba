import { Module } from '@nestjs/common';

/** Tax quotes at /v1/tax/quote. */
@Module({})
export class TaxModule {}

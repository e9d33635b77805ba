import { Body, Controller, Get, Param, Post, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBasicAuth, ApiBody, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RequireAccess } from '../auth/access.decorator';
import { BasicAuthGuard } from '../auth/basic-auth.guard';
import { CurrentPrincipal } from '../auth/current-principal.decorator';
import { Principal } from '../auth/principal';
import { ErrorBodyView } from '../common/errors/error-body.dto';
import { RequireJsonInterceptor } from '../common/http/require-json.interceptor';
import { UuidParamPipe } from '../common/validation/uuid-param.pipe';
import { TaxQuoteRequestDto } from './dto/tax-quote-request.dto';
import { TaxQuoteView } from './dto/tax-quote-response.dto';
import { TaxQuoteService } from './tax-quote.service';

@ApiTags('Tax')
@ApiBasicAuth()
@ApiResponse({ status: 401, type: ErrorBodyView, description: 'AUTHENTICATION_REQUIRED' })
@ApiResponse({ status: 403, type: ErrorBodyView, description: 'NOT_AUTHORIZED' })
@Controller({ path: 'tax/quote', version: '1' })
@UseGuards(BasicAuthGuard)
export class TaxQuoteController {
  constructor(private readonly quotes: TaxQuoteService) {}

  @Post()
  @RequireAccess('write')
  @UseInterceptors(RequireJsonInterceptor)
  @ApiBody({ type: TaxQuoteRequestDto })
  @ApiResponse({ status: 201, type: TaxQuoteView })
  @ApiResponse({ status: 400, type: ErrorBodyView, description: 'INVALID_REQUEST, INVALID_CURRENCY' })
  create(@CurrentPrincipal() principal: Principal, @Body() body: TaxQuoteRequestDto): Promise<TaxQuoteView> {
    return this.quotes.quote(principal, body);
  }

  @Get(':Id')
  @RequireAccess('read')
  @ApiResponse({ status: 200, type: TaxQuoteView })
  @ApiResponse({ status: 404, type: ErrorBodyView, description: 'TAX_QUOTE_NOT_FOUND' })
  get(@CurrentPrincipal() principal: Principal, @Param('Id', UuidParamPipe) id: string): Promise<TaxQuoteView> {
    return this.quotes.get(principal, id);
  }
}

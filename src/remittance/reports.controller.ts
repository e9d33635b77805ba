import { Controller, Get, HttpCode, Param, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiParam, ApiProduces, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { hmac, SigningSecretService } from '../auth/signing-secret.service';
import { CheckoutExceptionFilter } from '../checkout/signed/checkout-exception.filter';
import { RequestWithSignedCall } from '../checkout/signed/signed-call';
import { SignedEndpoint } from '../checkout/signed/signed-endpoint.decorator';
import { SignedPayload } from '../checkout/signed/signed-payload.decorator';
import { SignedRequestGuard } from '../checkout/signed/signed-request.guard';
import { sendSignedBody, signedBody } from '../checkout/signed/signed-response';
import { ReportRequestDto, ReportsRequestDto } from './dto/report-request.dto';
import { ReportService } from './report.service';
import { ReportSummaryView } from './report.views';

/**
 * Settlement reports in the signed Checkout interface (DESIGN.md section 7): GET with `request` and
 * `signature` as query parameters, or POST with them as form fields or a JSON envelope.
 */
@ApiTags('Checkout')
@Controller('reports')
export class ReportsController {
  constructor(
    private readonly reports: ReportService,
    private readonly signingSecrets: SigningSecretService,
  ) {}

  @Get()
  @SignedEndpoint()
  @ApiQuery({ name: 'request', description: 'JSON text of {"MerchantId": "…"}' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  @ApiOkResponse({ description: 'Signed envelope of {"Reports":[{ReportId, RemittanceId, Currency, From, To, CreatedAt, RemittedAmount}]}, newest first' })
  list(@SignedPayload() payload: ReportsRequestDto): Promise<{ Reports: ReportSummaryView[] }> {
    return this.reports.list(payload.MerchantId.toLowerCase());
  }

  @Post()
  @HttpCode(200)
  @SignedEndpoint()
  listByPost(@SignedPayload() payload: ReportsRequestDto): Promise<{ Reports: ReportSummaryView[] }> {
    return this.list(payload);
  }

  /**
   * One report. JSON: the signed envelope of {…summary, Totals, Lines}. CSV: the file itself
   * (text/csv), signed in the `Signature` header = Base64(HMAC-SHA256(secret, exact bytes of the body)).
   */
  @Get(':ReportId')
  @UseGuards(SignedRequestGuard)
  @UseFilters(CheckoutExceptionFilter)
  @ApiParam({ name: 'ReportId', format: 'uuid' })
  @ApiQuery({ name: 'request', description: 'JSON text of {"MerchantId": "…", "Format": "csv" | "json"}' })
  @ApiQuery({ name: 'signature', description: 'Base64(HMAC-SHA256(signing secret, request))' })
  @ApiProduces('application/json', 'text/csv')
  @ApiOkResponse({ description: 'JSON: signed envelope of the report with Totals and Lines. CSV: header row + one row per line, Signature header' })
  async download(
    @Param('ReportId') reportId: string,
    @SignedPayload() payload: ReportRequestDto,
    @Req() request: RequestWithSignedCall,
    @Res() response: Response,
  ): Promise<void> {
    const merchantId = payload.MerchantId.toLowerCase();
    const call = request.signedCall!;
    if (payload.Format === 'csv') {
      const csv = await this.reports.csv(merchantId, reportId);
      const signature = call.signingSecret ? hmac(call.signingSecret, csv) : await this.signingSecrets.sign(merchantId, csv);
      response
        .status(200)
        .type('text/csv; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="report-${reportId.toLowerCase()}.csv"`)
        .setHeader('Cache-Control', 'no-store')
        .setHeader('Signature', signature)
        .send(csv);
      return;
    }
    sendSignedBody(response, 200, await signedBody(await this.reports.document(merchantId, reportId), call, this.signingSecrets));
  }

  @Post(':ReportId')
  @HttpCode(200)
  @UseGuards(SignedRequestGuard)
  @UseFilters(CheckoutExceptionFilter)
  @ApiParam({ name: 'ReportId', format: 'uuid' })
  downloadByPost(
    @Param('ReportId') reportId: string,
    @SignedPayload() payload: ReportRequestDto,
    @Req() request: RequestWithSignedCall,
    @Res() response: Response,
  ): Promise<void> {
    return this.download(reportId, payload, request, response);
  }
}

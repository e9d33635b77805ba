import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { decimalToMinorUnits } from '../../common/money/money';
import { OrderService } from '../../orders/order.service';
import { RefundService } from '../../orders/refund.service';
import { CheckoutError, CheckoutErrorCode } from '../checkout-errors';
import { SignedEndpoint } from '../signed/signed-endpoint.decorator';
import { SignedPayload } from '../signed/signed-payload.decorator';
import { OrderRequestDto, QueryRequestDto, RefundRequestDto } from './checkout-request.dto';
import { orderView } from './order.views';

/** capture, cancel, refund and query: the merchant's operations on an existing order. */
@ApiTags('Checkout')
@Controller()
export class OrderOperationsController {
  constructor(
    private readonly orders: OrderService,
    private readonly refunds: RefundService,
  ) {}

  /** Captures a PaymentAuthorized order within 7 days; a repeated capture answers the same without capturing again. */
  @Post('capture')
  @HttpCode(200)
  @SignedEndpoint()
  async capture(@SignedPayload() payload: OrderRequestDto) {
    const order = await this.orders.capture(payload.MerchantId, payload.OrderId);
    return { OrderId: order.id, OrderState: order.state };
  }

  /** Voids an authorization before capture. */
  @Post('cancel')
  @HttpCode(200)
  @SignedEndpoint()
  async cancel(@SignedPayload() payload: OrderRequestDto) {
    const order = await this.orders.cancel(payload.MerchantId, payload.OrderId);
    return { OrderId: order.id, OrderState: order.state };
  }

  /** Refunds part or all of a Processed order; ReferenceId makes a retry safe. */
  @Post('refund')
  @HttpCode(200)
  @SignedEndpoint()
  async refund(@SignedPayload() payload: RefundRequestDto) {
    const order = await this.orders.require(payload.MerchantId, { orderId: payload.OrderId });
    const amountMinor = decimalToMinorUnits(payload.Amount, order.currency);
    if (amountMinor === null || amountMinor <= 0) {
      throw new CheckoutError(CheckoutErrorCode.AmountInvalid, `Amount must be greater than zero with at most the decimals of ${order.currency}`);
    }
    const refund = await this.refunds.refund(payload.MerchantId, order.id, payload.ReferenceId, amountMinor);
    return { RefundId: refund.id };
  }

  /** The order by OrderId or by the checkout's ReferenceId, with its refunds. */
  @Post('query')
  @HttpCode(200)
  @SignedEndpoint()
  async query(@SignedPayload() payload: QueryRequestDto) {
    if (!payload.OrderId === !payload.ReferenceId) {
      throw new CheckoutError(CheckoutErrorCode.RequestInvalid, 'Send exactly one of OrderId and ReferenceId');
    }
    const order = await this.orders.require(payload.MerchantId, payload.OrderId ? { orderId: payload.OrderId } : { referenceId: payload.ReferenceId! });
    return orderView(order, await this.orders.refundsOf(order.id));
  }
}

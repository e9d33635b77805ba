import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../common/config/app-config';
import { MerchantService } from './merchant.service';
import { UserService } from './user.service';

/** The sandbox demo account the README tour uses; created only on an empty sandbox database. */
export const DEMO = {
  merchantId: '9a5c3f0e-1d2b-4c6a-8e7f-0b1c2d3e4f50',
  merchantName: 'Demo Shop',
  username: 'demo',
  password: 'demo-password',
};

@Injectable()
export class DemoSeeder implements OnApplicationBootstrap {
  private readonly logger = new Logger('Sandbox');

  constructor(
    private readonly config: AppConfig,
    private readonly merchants: MerchantService,
    private readonly users: UserService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.config.isSandbox || (await this.merchants.count()) > 0) return;
    try {
      const { merchant, signingSecret } = await this.merchants.create({ id: DEMO.merchantId, name: DEMO.merchantName });
      await this.users.create({ username: DEMO.username, password: DEMO.password, merchantId: merchant.id });
      this.logger.log(
        `Empty sandbox database: created merchant "${merchant.name}" (MerchantId ${merchant.id}, ` +
          `SigningSecret ${signingSecret}) and user ${DEMO.username} / ${DEMO.password}. ` +
          `Try: curl -u ${DEMO.username}:${DEMO.password} ${this.config.publicUrl}/${this.config.currentApiVersion}/session/<SessionId>`,
      );
    } catch (error) {
      // Another instance seeded the same empty database at the same moment: nothing to do.
      if (await this.users.findByUsername(DEMO.username)) return;
      throw error;
    }
  }
}

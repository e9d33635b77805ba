import { Global, Module } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { SecretBox } from './secret-box';
import { loadSecretsKeys } from './secrets-key';

/** The one SecretBox, with its keys from configuration. */
@Global()
@Module({
  providers: [{ provide: SecretBox, inject: [AppConfig], useFactory: (config: AppConfig) => new SecretBox(() => loadSecretsKeys(config)) }],
  exports: [SecretBox],
})
export class SecretsModule {}

import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../config/app-config';

/** OpenAPI 3 generated from the controllers and DTOs: JSON at /openapi.json, Swagger UI (from swagger-ui-dist, no CDN) at /docs. */
export function setupOpenApi(app: INestApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Payment Session and Checkout Service')
      .setDescription(
        'Session interface (Basic auth, JSON). Errors use {Code, Message, FieldErrors?}. ' +
          'Amounts are JSON numbers in major units with at most the currency\'s ISO 4217 decimals.',
      )
      .setVersion(config.currentApiVersion)
      .addServer(config.publicUrl)
      .addBasicAuth()
      .build(),
  );
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'openapi.json', yamlDocumentUrl: 'openapi.yaml' });
}

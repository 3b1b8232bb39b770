import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

export const ACCESS_COOKIE = 'inkwell_access';

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Inkwell API')
    .setDescription(
      'Multi-author blog platform. Every answer uses the envelope `{ success, data, message, status, errors }`; ' +
        'errors keep the real HTTP status. Authenticate with `Authorization: Bearer <accessToken>` or the session cookie ' +
        '(cookie-authenticated writes must send `X-Request-Timestamp`).',
    )
    .setVersion('1.0')
    .addBearerAuth()
    .addCookieAuth(ACCESS_COOKIE)
    .build();
  return SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
  });
}

/** Stable JSON (keys sorted) so the committed openapi.json only changes when the API does. */
export function stableStringify(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === 'object') {
      return Object.fromEntries(
        Object.keys(v as Record<string, unknown>)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    }
    return v;
  };
  return `${JSON.stringify(sort(value), null, 2)}\n`;
}

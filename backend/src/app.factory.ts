import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { json } from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { apiCacheControl } from './common/api-cache-control';
import { onTheFlyCompression } from './common/http-compression';
import { buildOpenApiDocument } from './common/openapi';
import type { AppConfig } from './config/env';
import { answerClientErrorsWithEnvelope, refuseDeepJson } from './common/request-limits';
import { FrontendModule, type FrontendModuleOptions } from './frontend/frontend.module';

export interface CreateAppOptions extends AppModuleOptions {
  /** Mount the built Astro pages behind the API (off in API tests and OpenAPI generation). */
  withFrontend?: boolean;
  /** Mount the frontend with these options (tests: a page handler and a folder of client files of their own). */
  frontend?: FrontendModuleOptions;
  /** Further modules (tests mount probe controllers this way). */
  extraModules?: NonNullable<DynamicModule['imports']>;
}

/** Builds the whole app, configured the same way for `npm start`, the tests and the OpenAPI script. */
export async function createApp(options: CreateAppOptions): Promise<NestExpressApplication> {
  const root = AppModule.forRoot(options);
  root.imports = [...(root.imports ?? []), ...(options.extraModules ?? [])];
  if (options.withFrontend || options.frontend) root.imports.push(FrontendModule.forRoot(options.frontend));
  const app = await NestFactory.create<NestExpressApplication>(root, new ExpressAdapter(), { bufferLogs: true, bodyParser: false });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', options.config.trustProxy);
  app.set('x-powered-by', false);
  // Requests Node refuses before Express (headers over 16 KB, a broken request line) get the envelope too.
  answerClientErrorsWithEnvelope(app.getHttpServer());
  app.use(
    helmet({
      contentSecurityPolicy: {
        directives: {
          // Astro's island loader and the no-flash theme script are inline.
          'script-src': ["'self'", "'unsafe-inline'"],
          // Images linked at S3_PUBLIC_URL: https is allowed anyway; a plain-http bucket (a local MinIO) is added by origin.
          'img-src': ["'self'", 'data:', 'blob:', 'https:', ...plainHttpImageOrigin(options.config)],
          'style-src': ["'self'", "'unsafe-inline'"],
          'upgrade-insecure-requests': null,
        },
      },
      crossOriginEmbedderPolicy: false,
      // Same-origin pages keep their referrer (Go Back buttons rely on it); other sites get the origin only.
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    }),
  );
  // br/gzip for API JSON (and signed-in pages) from 1 KB; cached pages and the build's files come
  // precompressed and are left alone (common/http-compression.ts). Then Cache-Control/Vary for /api.
  app.use(onTheFlyCompression());
  app.use(apiCacheControl);
  app.use(cookieParser());
  // Post bodies may reach 200,000 characters of Markdown plus rendered HTML.
  // Bodies deeper than MAX_JSON_DEPTH are refused before parsing (400), so nothing recursive sees
  // them; express.json directly, since Nest's useBodyParser() keeps `verify` for its rawBody option.
  app.use(json({ limit: '2mb', verify: refuseDeepJson }));
  app.useBodyParser('urlencoded', { extended: false, limit: '256kb' });

  const document = buildOpenApiDocument(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json', customSiteTitle: 'Inkwell API' });
  return app;
}

/** The origin of S3_PUBLIC_URL when it is plain http (for img-src), else nothing. */
function plainHttpImageOrigin(config: AppConfig): string[] {
  const publicUrl = config.storage.driver === 's3' ? config.storage.publicUrl : undefined;
  return publicUrl?.startsWith('http:') ? [new URL(publicUrl).origin] : [];
}

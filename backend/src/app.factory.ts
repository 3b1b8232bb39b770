import type { DynamicModule, INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import { OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { json, urlencoded } from 'express';
import { Logger } from 'nestjs-pino';
import { AppModule, AppModuleOptions } from './app.module';
import { apiCacheControl } from './auth/api-cache-control';
import { SESSION_SECURITY_SCHEMES } from './auth/auth.decorator';
import { onTheFlyCompression } from './common/http-compression';
import { buildOpenApiDocument } from './common/openapi';
import { RequestActivity } from './common/request-activity';
import { keepRawBodyOf, parseBodies, RAW_BODY_PATHS } from './common/request-bodies';
import { cspReportLog } from './common/csp-report';
import { CSP_REPORT_PATH, securityHeaderOptions, securityHeaders } from './common/security-headers';
import { refuseCrossOriginWrites } from './auth/same-origin';
import { refuseApiTokensOnSessionPaths } from './api-tokens/session-only-paths';
import { API_TOKEN_SECURITY_SCHEMES, documentApiTokenAccess } from './api-tokens/api-tokens.openapi';
import { answerClientErrorsWithEnvelope, refuseDeepJson } from './common/request-limits';
import { readInlineHashes } from './frontend/csp-script-hashes';
import { FrontendModule, type FrontendModuleOptions } from './frontend/frontend.module';
import { FederationGlue } from './federation/federation-glue';

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
  // Background work in this process (an import) slows down while requests arrive.
  app.get(RequestActivity).watch(app.getHttpServer());
  // Helmet's headers with these options, recorded once and set by one loop (common/security-headers.ts);
  // script-src and style-src allow the built pages' inline scripts and styles by hash (frontend/csp-script-hashes.ts).
  app.use(securityHeaders(securityHeaderOptions(options.config, options.withFrontend ? readInlineHashes() : {})));
  if (options.config.cspReportLog) app.use(CSP_REPORT_PATH, cspReportLog(options.config.cspReportLog));
  // br/gzip for API JSON (and signed-in pages) from 1 KB; cached pages and the build's files come
  // precompressed and are left alone (common/http-compression.ts). Then Cache-Control/Vary for /api.
  app.use(onTheFlyCompression());
  app.use(apiCacheControl);
  // The social web (docs/federation.md): Fedify's routes and the ActivityPub form of post and author pages, raw bodies (signatures).
  app.use(app.get(FederationGlue).middleware());
  app.use(cookieParser());
  // Writes from another origin's pages are 403 before their body is read (auth/same-origin.ts).
  app.use(refuseCrossOriginWrites(options.config.publicUrl));
  // API tokens never reach sign-in, password, two-factor, token or other account routes.
  app.use(refuseApiTokensOnSessionPaths());
  // Post bodies may reach 200,000 characters of Markdown plus rendered HTML.
  // Bodies deeper than MAX_JSON_DEPTH are refused before parsing (400), so nothing recursive sees
  // them; express.json directly, since Nest's useBodyParser() keeps `verify` for its rawBody option.
  // Both parsers in one layer that requests without a body skip (common/request-bodies.ts).
  // Signed bodies (the newsletter's bounce reports) keep their bytes for the signature check.
  app.use(
    parseBodies(
      json({ limit: '2mb', verify: keepRawBodyOf(RAW_BODY_PATHS, refuseDeepJson) }),
      urlencoded({ extended: false, limit: '256kb' }),
    ),
  );

  const document = openApiDocumentOf(app);
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json', customSiteTitle: 'Inkwell API' });
  return app;
}

/** The app's OpenAPI document: served at /api/docs, written to openapi.json, read by the API fuzz test. */
export function openApiDocumentOf(app: INestApplication): OpenAPIObject {
  return documentApiTokenAccess(app, buildOpenApiDocument(app, { ...SESSION_SECURITY_SCHEMES, ...API_TOKEN_SECURITY_SCHEMES }));
}

import { DynamicModule, Inject, Injectable, MiddlewareConsumer, Module, NestMiddleware, NestModule, RequestMethod } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_CONFIG, AppConfig } from '../config/env';
import { PROJECT_ROOT } from '../config/paths';

/** What the Astro pages get as `Astro.locals` from the server. */
export interface ServerLocals {
  /** Loopback origin of this very process, for the pages' API calls. */
  apiOrigin: string;
  publicUrl: string;
  pageCache: boolean;
}

type AstroHandler = (req: Request, res: Response, next: NextFunction, locals: ServerLocals) => Promise<void>;

export const FRONTEND_DIST = join(PROJECT_ROOT, 'frontend', 'dist');
const ASTRO_HANDLER = Symbol('ASTRO_HANDLER');
/** Paths Nest answers itself; everything else is a page. */
const API_PATH = /^\/(api|images)(\/|$)/;

/** Serves the built Astro site: hashed assets with a year's cache, then the SSR handler. */
@Injectable()
class FrontendMiddleware implements NestMiddleware {
  private readonly assets = express.static(join(FRONTEND_DIST, 'client'), {
    index: false,
    setHeaders: (res, path) => {
      if (path.includes(`${join('client', '_astro')}`)) res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });

  constructor(
    @Inject(ASTRO_HANDLER) private readonly handler: AstroHandler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  use(req: Request, res: Response, next: NextFunction): void {
    if (API_PATH.test(req.path)) return next();
    this.assets(req, res, () => {
      const locals: ServerLocals = {
        apiOrigin: `http://127.0.0.1:${req.socket.localPort}`,
        publicUrl: this.config.publicUrl,
        pageCache: this.config.pageCache,
      };
      this.handler(req, res, next, locals).catch(next);
    });
  }
}

@Module({})
export class FrontendModule implements NestModule {
  static forRoot(): DynamicModule {
    return {
      module: FrontendModule,
      providers: [
        {
          provide: ASTRO_HANDLER,
          useFactory: async (): Promise<AstroHandler> => {
            const entry = join(FRONTEND_DIST, 'server', 'entry.mjs');
            if (!existsSync(entry)) throw new Error(`The frontend is not built (${entry} is missing): run npm run build`);
            const module = (await import(pathToFileURL(entry).href)) as { handler: AstroHandler };
            return module.handler;
          },
        },
        FrontendMiddleware,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(FrontendMiddleware).forRoutes({ path: '{*path}', method: RequestMethod.ALL });
  }
}

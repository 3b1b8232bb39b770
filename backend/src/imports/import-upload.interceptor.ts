import {
  BadRequestException,
  CallHandler,
  ExecutionContext,
  Inject,
  Injectable,
  NestInterceptor,
  PayloadTooLargeException,
} from '@nestjs/common';
import type { Request } from 'express';
import multer, { MulterError } from 'multer';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Observable, finalize } from 'rxjs';
import { APP_CONFIG, AppConfig } from '../config/env';
import { ImportsMessages } from './imports.messages';

/** The largest export file or media zip an import takes. */
export const MAX_IMPORT_BYTES = 1024 * 1024 * 1024;

export interface ImportUploads {
  file?: Express.Multer.File;
  media?: Express.Multer.File;
}

/** The folder uploads wait in while their import runs. */
export const importsFolder = (dataDir: string): string => join(dataDir, 'imports');

/**
 * Streams an import's upload (`file`, optional `media`) to DATA_DIR/imports (never held in memory).
 * A broken body or an extra field is 400, a file over 1 GB 413, and the files written so far go.
 * The service takes the files over when the import starts; if it refuses them, they are removed
 * when the request ends (`req.importUploadsKept` not set).
 */
@Injectable()
export class ImportUploadInterceptor implements NestInterceptor {
  private readonly upload: ReturnType<ReturnType<typeof multer>['fields']>;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    const folder = importsFolder(config.dataDir);
    mkdirSync(folder, { recursive: true });
    this.upload = multer({
      storage: multer.diskStorage({
        destination: folder,
        filename: (_req, _file, done) => done(null, `${Date.now()}-${randomBytes(8).toString('hex')}`),
      }),
      limits: { fileSize: MAX_IMPORT_BYTES, files: 2, fields: 0, parts: 4 },
    }).fields([
      { name: 'file', maxCount: 1 },
      { name: 'media', maxCount: 1 },
    ]);
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const req = context
      .switchToHttp()
      .getRequest<
        Request & { files?: Record<string, Express.Multer.File[]>; importUploads?: ImportUploads; importUploadsKept?: boolean }
      >();
    const res = context.switchToHttp().getResponse();
    const contentType = req.headers['content-type'] ?? '';
    if (!contentType.startsWith('multipart/form-data')) throw new BadRequestException(ImportsMessages.FILE_REQUIRED);
    try {
      await new Promise<void>((resolve, reject) => this.upload(req, res, (error: unknown) => (error ? reject(error) : resolve())));
    } catch (error) {
      await removeAll(req.files);
      if (error instanceof MulterError && error.code === 'LIMIT_FILE_SIZE')
        throw new PayloadTooLargeException(ImportsMessages.FILE_TOO_LARGE);
      throw new BadRequestException(ImportsMessages.UPLOAD_INVALID);
    }
    req.importUploads = { file: req.files?.file?.[0], media: req.files?.media?.[0] };
    return next.handle().pipe(
      finalize(() => {
        if (!req.importUploadsKept) void removeAll(req.files);
      }),
    );
  }
}

async function removeAll(files: Record<string, Express.Multer.File[]> | undefined): Promise<void> {
  for (const list of Object.values(files ?? {})) for (const file of list) await rm(file.path, { force: true });
}

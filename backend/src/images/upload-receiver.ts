import { HttpException, HttpStatus, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { Request, RequestHandler, Response } from 'express';
import multer, { MulterError, type StorageEngine } from 'multer';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { AuthUser } from '../auth/auth-user';
import { APP_CONFIG, AppConfig } from '../config/env';
import { decodeQueueFull, DecodeQueue } from './decode-queue';
import { MAX_IMAGE_BYTES } from './image-rules';
import { ImagesMessages } from './images.messages';

/** An upload as the services see it: a temporary file (removed when the response ends) and its size. */
export interface UploadedImage {
  path: string;
  size: number;
}

/**
 * Room for the multipart framing (boundaries, part headers, a few small fields) around a file of
 * the largest size: a request whose Content-Length is beyond MAX_IMAGE_BYTES + this is refused
 * before a byte of it is read.
 */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
export const MAX_UPLOAD_BODY_BYTES = MAX_IMAGE_BYTES + MULTIPART_OVERHEAD_BYTES;
/** Temporary files older than this (left by a crash) are removed at start-up. */
const STALE_TEMP_MS = 3_600_000;

/** What an endpoint answers for a refused upload, in its spec's words. */
export interface UploadRefusals {
  /** 413; `bytes` is the request's Content-Length when it has one. */
  tooLarge(bytes: number | undefined): HttpException;
  /** No file under the field, several files, or a broken multipart body. */
  invalid(): HttpException;
}

interface TempFile {
  path: string;
  /** Settles when the file is written (or failed): only then can it be removed for good. */
  written: Promise<unknown>;
  /** Stops a write still waiting for data (multer stops feeding a file cut off at the limit). */
  stop(): void;
}

const TEMP_FILES = Symbol('uploadTempFiles');
type RequestWithTemp = Request & { [TEMP_FILES]?: TempFile[]; user?: AuthUser };

const tooLargeNow = (req: Request, refusals: UploadRefusals): HttpException => {
  const length = Number(req.headers['content-length']);
  return refusals.tooLarge(Number.isFinite(length) && length > MAX_IMAGE_BYTES ? length : undefined);
};

/** Reads the request body to its end without keeping it (at most MAX_UPLOAD_BODY_BYTES; a longer one is left unread). */
function discardBody(req: Request): Promise<void> {
  return new Promise((done) => {
    if (req.readableEnded || req.destroyed) return done();
    let bytes = 0;
    const finish = () => {
      req.off('data', count);
      done();
    };
    const count = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_UPLOAD_BODY_BYTES) finish();
    };
    req.on('data', count);
    req.once('end', finish);
    req.once('close', finish);
    req.once('error', finish);
  });
}

/**
 * Receives the one file of an upload request (avatar, thumbnail, image validation) on disk, never
 * in memory: streamed into DATA_DIR/upload-tmp and removed when the response ends (sent, failed or
 * aborted by the client). Before storing anything it refuses, in this order: a Content-Length over
 * the limit (413, before a byte is read), an uploader past UPLOAD_LIMIT (429, counted in the
 * throttler's storage, so in Redis across instances) and a full decode queue (503). A body without a length is cut off at
 * the limit: the answer 413 goes out at once, the rest is discarded as it arrives, never stored.
 */
@Injectable()
export class UploadReceiver implements OnModuleInit {
  private readonly logger = new Logger('Uploads');
  readonly tempDir: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectThrottlerStorage()
    private readonly throttlerStorage: ThrottlerStorage,
    private readonly decodes: DecodeQueue,
  ) {
    this.tempDir = resolve(config.dataDir, 'upload-tmp');
  }

  onModuleInit(): void {
    mkdirSync(this.tempDir, { recursive: true });
    void this.removeStale();
  }

  /** Receives the file of `field` into req.file (path and size). Throws the endpoint's refusals. */
  async receive(req: Request, res: Response, field: string, refusals: UploadRefusals): Promise<void> {
    const length = Number(req.headers['content-length']);
    if (Number.isFinite(length) && length > MAX_UPLOAD_BODY_BYTES) throw tooLargeNow(req, refusals);
    try {
      await this.countUpload(req as RequestWithTemp, res);
      if (this.decodes.full) throw decodeQueueFull();
    } catch (error) {
      // Answering while the client still sends makes some clients fail with EPIPE instead of
      // reading the answer: the body (at most the limit, checked above) is discarded first.
      await discardBody(req);
      throw error;
    }

    res.once('close', () => void this.removeTempFiles(req as RequestWithTemp));
    let cutOff: (error: HttpException) => void = () => undefined;
    const limitReached = new Promise<never>((_, reject) => (cutOff = reject));
    const middleware = this.middleware(field, () => cutOff(tooLargeNow(req, refusals)));
    const received = new Promise<void>((done, fail) => middleware(req, res, (error?: unknown) => (error ? fail(error) : done())));
    try {
      await Promise.race([received, limitReached]);
    } catch (error) {
      if (error instanceof HttpException) throw error;
      if (error instanceof MulterError && error.code === 'LIMIT_FILE_SIZE') throw tooLargeNow(req, refusals);
      throw refusals.invalid();
    }
  }

  /** Each upload counts, per user (per client address for the public validation), before its body is read. */
  private async countUpload(req: RequestWithTemp, res: Response): Promise<void> {
    if (this.config.throttleDisabled) return;
    const { uploads, windowMinutes } = this.config.uploadLimit;
    const windowMs = windowMinutes * 60_000;
    const who = req.user ? `user:${req.user.id}` : `ip:${req.ip}`;
    const record = await this.throttlerStorage.increment(`uploads:${who}`, windowMs, uploads, windowMs, 'uploads');
    if (record.totalHits > uploads || record.isBlocked) {
      res.setHeader('Retry-After', String(Math.max(1, record.isBlocked ? record.timeToBlockExpire : record.timeToExpire)));
      throw new HttpException(ImagesMessages.TOO_MANY_UPLOADS, HttpStatus.TOO_MANY_REQUESTS);
    }
  }

  private middleware(field: string, onLimit: () => void): RequestHandler {
    const storage: StorageEngine = {
      _handleFile: (req, file, callback) => {
        const path = join(this.tempDir, `${randomBytes(16).toString('hex')}.part`);
        let size = 0;
        file.stream.on('data', (chunk: Buffer) => (size += chunk.length));
        file.stream.once('limit', onLimit);
        const out = createWriteStream(path, { flags: 'wx' });
        // 'close' comes after the descriptor is closed, whether the write finished or was stopped.
        const written = new Promise<void>((closed) => out.once('close', () => closed()));
        const stop = () => {
          file.stream.unpipe(out);
          out.destroy();
        };
        ((req as RequestWithTemp)[TEMP_FILES] ??= []).push({
          path,
          written,
          stop,
        });
        let answered = false;
        const answer = (error: Error | null) => {
          if (answered) return;
          answered = true;
          if (error) {
            stop();
            callback(error);
          } else {
            callback(null, { path, size });
          }
        };
        out.once('finish', () => answer(null));
        out.once('error', answer);
        file.stream.once('error', answer);
        file.stream.pipe(out);
      },
      _removeFile: (_req, file, callback) => {
        unlink(file.path).then(
          () => callback(null),
          () => callback(null),
        );
      },
    };
    return multer({
      storage,
      limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10, parts: 11 },
    }).single(field);
  }

  /** Removes the request's temporary files when the response has ended: stops any write still open, then unlinks. */
  private async removeTempFiles(req: RequestWithTemp): Promise<void> {
    for (const file of req[TEMP_FILES] ?? []) {
      file.stop();
      await file.written;
      await unlink(file.path).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') this.logger.warn(`Could not remove ${file.path}: ${error.message}`);
      });
    }
  }

  /** Leftovers of a crash (another instance sharing DATA_DIR may be writing newer ones). */
  private async removeStale(): Promise<void> {
    try {
      const now = Date.now();
      for (const name of await readdir(this.tempDir)) {
        const path = join(this.tempDir, name);
        if (now - (await stat(path)).mtimeMs > STALE_TEMP_MS) await unlink(path).catch(() => undefined);
      }
    } catch (error) {
      this.logger.warn(`Could not sweep ${this.tempDir}: ${String(error)}`);
    }
  }
}

import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  type GetObjectCommandOutput,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { Readable } from 'node:stream';
import type { StorageConfig } from '../../config/env';
import { IMMUTABLE_CACHE, type ImageKind, type ImageStore, type StoredEntry } from './image-store';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/** Object keys mirror the app's paths, so S3_PUBLIC_URL + the app's /images/... path is the object. */
export function keyOf(kind: ImageKind, name: string): string {
  return `images/${kind}/${name}`;
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } } | undefined)?.$metadata?.httpStatusCode;
}

/**
 * Images as objects of an S3-compatible bucket (AWS SDK v3), keys `images/<kind>/<name>`, stored
 * with Content-Type image/webp and the immutable Cache-Control. One PUT is atomic; several (a
 * thumbnail and its variants) are all-or-nothing by deleting them all again on a failure. A process
 * killed between two PUTs leaves objects without a row: the hourly sweep removes them a day later.
 * Served by the app (streamed, with ETag and 304) at the same /images/... paths, or linked at
 * S3_PUBLIC_URL when that is set.
 */
export class S3ImageStore implements ImageStore {
  readonly driver = 's3' as const;
  private readonly logger = new Logger('ImageStorage');
  readonly client: S3Client;
  readonly bucket: string;

  constructor(config: S3Config) {
    this.bucket = config.bucket;
    this.client = new S3Client({
      endpoint: config.endpoint,
      region: config.region,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Checksums only where the API requires them: S3-compatible servers differ on the newer ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  async writeAll(kind: ImageKind, files: readonly { name: string; data: Buffer }[]): Promise<void> {
    const results = await Promise.allSettled(
      files.map(({ name, data }) =>
        this.client.send(
          new PutObjectCommand({
            Bucket: this.bucket,
            Key: keyOf(kind, name),
            Body: data,
            ContentType: 'image/webp',
            CacheControl: IMMUTABLE_CACHE,
            ContentLength: data.length,
          }),
        ),
      ),
    );
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!failure) return;
    // Every name is deleted again: a PUT that failed for the client may still have been stored.
    const names = files.map((f) => f.name);
    const left = await this.removeMany(kind, names).catch((error: unknown) => names.map((name) => ({ name, error: String(error) })));
    for (const { name, error } of left) this.logger.warn(`Could not delete ${kind}/${name} after a failed write: ${error}`);
    throw failure.reason;
  }

  async read(kind: ImageKind, name: string): Promise<Readable | null> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: keyOf(kind, name) }));
      return (object.Body as Readable | undefined) ?? null;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async remove(kind: ImageKind, name: string): Promise<boolean> {
    const key = keyOf(kind, name);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    return true;
  }

  async removeMany(kind: ImageKind, names: readonly string[]): Promise<{ name: string; error: string }[]> {
    const failed: { name: string; error: string }[] = [];
    const prefix = keyOf(kind, '');
    for (let i = 0; i < names.length; i += 1000) {
      const chunk = names.slice(i, i + 1000);
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.bucket,
          Delete: { Objects: chunk.map((name) => ({ Key: keyOf(kind, name) })), Quiet: true },
        }),
      );
      for (const e of out.Errors ?? []) {
        if (e.Code === 'NoSuchKey') continue;
        failed.push({ name: (e.Key ?? '').slice(prefix.length), error: `${e.Code ?? 'Error'}: ${e.Message ?? ''}` });
      }
    }
    return failed;
  }

  async list(kind: ImageKind): Promise<StoredEntry[]> {
    const prefix = keyOf(kind, '');
    const entries: StoredEntry[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ContinuationToken: token }));
      for (const object of page.Contents ?? []) {
        if (object.Key) entries.push({ name: object.Key.slice(prefix.length), modifiedMs: object.LastModified?.getTime() ?? Date.now() });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return entries;
  }

  /** An object store has no half-written objects: nothing listed is a leftover. */
  isLeftover(): boolean {
    return false;
  }

  serve(kind: ImageKind, name: string, req: Request, res: Response, next: NextFunction): void {
    void this.stream(kind, name, req, res, next);
  }

  private async stream(kind: ImageKind, name: string, req: Request, res: Response, next: NextFunction): Promise<void> {
    const key = keyOf(kind, name);
    const ifNoneMatch = req.headers['if-none-match'];
    const since = req.headers['if-modified-since'] ? new Date(req.headers['if-modified-since']) : undefined;
    const conditions = {
      IfNoneMatch: ifNoneMatch || undefined,
      IfModifiedSince: !ifNoneMatch && since && !Number.isNaN(since.getTime()) ? since : undefined,
    };
    let object: Pick<GetObjectCommandOutput, 'Body' | 'ContentLength' | 'ContentType' | 'ETag' | 'LastModified'>;
    try {
      object =
        req.method === 'HEAD'
          ? await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key, ...conditions }))
          : await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key, ...conditions }));
    } catch (error) {
      const status = statusOf(error);
      if (status === 304) {
        res.status(304).setHeader('Cache-Control', IMMUTABLE_CACHE);
        if (ifNoneMatch) res.setHeader('ETag', ifNoneMatch);
        res.end();
        return;
      }
      if (status === 404 || (error as Error | undefined)?.name === 'NoSuchKey') return next();
      this.logger.error(`Reading ${key} failed: ${String(error)}`);
      return next(error);
    }
    res.status(200);
    res.setHeader('Content-Type', object.ContentType ?? 'image/webp');
    res.setHeader('Cache-Control', IMMUTABLE_CACHE);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (object.ContentLength !== undefined) res.setHeader('Content-Length', String(object.ContentLength));
    if (object.ETag) res.setHeader('ETag', object.ETag);
    if (object.LastModified) res.setHeader('Last-Modified', object.LastModified.toUTCString());
    const body = object.Body as Readable | undefined;
    if (req.method === 'HEAD' || !body) {
      body?.destroy();
      res.end();
      return;
    }
    body.on('error', (error) => {
      this.logger.warn(`Streaming ${key} failed: ${String(error)}`);
      res.destroy(error);
    });
    res.on('close', () => body.destroy());
    body.pipe(res);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

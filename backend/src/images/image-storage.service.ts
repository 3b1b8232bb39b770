import type { Readable } from 'node:stream';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { APP_CONFIG, AppConfig, type StorageConfig } from '../config/env';
import { DecodeQueue } from './decode-queue';
import { WEBP_QUALITY } from './image-pipeline';
import { THUMBNAIL_NAME, VARIANT_NAME } from './image-rules';
import type { ImageKind, ImageStore } from './storage/image-store';
import { LocalImageStore } from './storage/local-image-store';

export { WEBP_QUALITY } from './image-pipeline';

export type { ImageKind } from './storage/image-store';
export const IMAGE_KINDS: readonly ImageKind[] = ['avatars', 'thumbnails'];

/** Avatar file names: 32 random hex digits + .webp. */
export const STORED_NAME = /^[0-9a-f]{32}\.webp$/;

/** The names each folder may hold; nothing else is ever served, read or deleted. */
const NAMES: Record<ImageKind, (name: string) => boolean> = {
  avatars: (name) => STORED_NAME.test(name),
  thumbnails: (name) => THUMBNAIL_NAME.test(name) || VARIANT_NAME.test(name),
};

/** Formats accepted as avatar input (decided by the bytes, through sharp, never by the client's MIME). */
const INPUT_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'avif', 'heif', 'tiff']);
/** Decoding bombs stop here (about 40 megapixels). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const AVATAR_SIZE = 512;

export class NotAnImageError extends Error {}

/**
 * Stored images, through a storage adapter (storage/): files under DATA_DIR/uploads/<kind>/<name>
 * (STORAGE=local, the default) or objects `images/<kind>/<name>` in an S3-compatible bucket
 * (STORAGE=s3); served at /images/<kind>/<name> either way, linked at S3_PUBLIC_URL when set.
 * Inputs are decoded and re-encoded with sharp (pixel limit, EXIF orientation applied, metadata
 * stripped), so what is stored is always a clean WebP. Writes of several files (a thumbnail and
 * its variants) are all-or-nothing. Only stored names ever reach the adapter.
 */
/** The S3 adapter, loaded only for STORAGE=s3: the AWS SDK costs ~20 MB and ~300 ms at start, which local storage never pays. */
function createS3Store(config: Extract<StorageConfig, { driver: 's3' }>): ImageStore {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { S3ImageStore } = require('./storage/s3-image-store') as typeof import('./storage/s3-image-store');
  return new S3ImageStore(config);
}

@Injectable()
export class ImageStorageService implements OnModuleDestroy {
  private readonly logger = new Logger('ImageStorage');
  /** DATA_DIR/uploads (the local adapter's folder). */
  readonly root: string;
  readonly store: ImageStore;
  /** Where image URLs point: '' (the app, same origin) or S3_PUBLIC_URL. */
  private readonly urlBase: string;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly decodes: DecodeQueue,
  ) {
    this.root = resolve(config.dataDir, 'uploads');
    const storage = config.storage;
    this.store = storage.driver === 's3' ? createS3Store(storage) : new LocalImageStore(this.root);
    this.urlBase = storage.driver === 's3' ? (storage.publicUrl ?? '') : '';
  }

  async onModuleDestroy(): Promise<void> {
    await this.store.close();
  }

  /** The decoded format of an image (its bytes or a file), or NotAnImageError when it is not an accepted image. */
  async inspect(input: Buffer | string): Promise<{ format: string; width: number; height: number }> {
    try {
      const meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
      if (!meta.format || !INPUT_FORMATS.has(meta.format) || !meta.width || !meta.height) throw new NotAnImageError();
      return { format: meta.format, width: meta.width, height: meta.height };
    } catch {
      throw new NotAnImageError();
    }
  }

  /** Stores a 512x512 WebP (cover crop) of the image file, decoded in the decode queue; answers its public URL. */
  async saveAvatar(path: string): Promise<string> {
    const output = await this.decodes.run(async () => {
      await this.inspect(path);
      try {
        return await sharp(path, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
          .rotate()
          .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
          .webp({ quality: WEBP_QUALITY })
          .toBuffer();
      } catch {
        throw new NotAnImageError();
      }
    });
    return this.write('avatars', output);
  }

  /** Writes already-encoded WebP bytes under a new random name; answers the public URL. */
  async write(kind: ImageKind, webp: Buffer): Promise<string> {
    const name = `${randomBytes(16).toString('hex')}.webp`;
    await this.writeAll(kind, [{ name, data: webp }]);
    return this.urlOf(kind, name);
  }

  /**
   * Writes every file or none (local: temporary names first, then renamed; S3: the objects are
   * deleted again on a failure), then throws the error. Names must be stored names.
   */
  async writeAll(kind: ImageKind, files: { name: string; data: Buffer }[]): Promise<void> {
    for (const { name } of files) if (!this.isStoredName(kind, name)) throw new Error(`not a stored ${kind} name: ${name}`);
    await this.store.writeAll(kind, files);
  }

  /** Deletes stored files by name (missing ones are fine); names that are not ours are skipped. */
  async removeAll(kind: ImageKind, names: readonly string[]): Promise<void> {
    const ours = names.filter((name) => this.isStoredName(kind, name));
    if (!ours.length) return;
    let failed: { name: string; error: string }[];
    try {
      failed = await this.store.removeMany(kind, ours);
    } catch (error) {
      failed = ours.map((name) => ({ name, error: String(error) }));
    }
    for (const { name, error } of failed) this.logger.warn(`Could not delete ${kind}/${name}: ${error}`);
  }

  /** A stored image's bytes by its URL or name (null when it is not one of ours or missing). */
  async read(kind: ImageKind, urlOrName: string | null | undefined): Promise<Readable | null> {
    const name = this.nameOf(kind, urlOrName);
    return name ? this.store.read(kind, name) : null;
  }

  /** Deletes a stored image by its URL or name. Anything that is not one of ours is refused (false). */
  async delete(kind: ImageKind, urlOrName: string | null | undefined): Promise<boolean> {
    const name = this.nameOf(kind, urlOrName);
    if (!name) return false;
    try {
      return await this.store.remove(kind, name);
    } catch (error) {
      this.logger.warn(`Could not delete ${kind}/${name}: ${String(error)}`);
      return false;
    }
  }

  /**
   * The stored names older than the given age (for the caller to match against its records);
   * leftovers of writes cut short by a crash (local temporary files) older than the second age are
   * deleted. Lists through the adapter (a folder or a bucket prefix).
   */
  async listOld(kind: ImageKind, storedOlderThanMs: number, tempOlderThanMs: number): Promise<string[]> {
    const now = Date.now();
    const old: string[] = [];
    for (const { name, modifiedMs } of await this.store.list(kind)) {
      if (this.isStoredName(kind, name)) {
        if (now - modifiedMs > storedOlderThanMs) old.push(name);
      } else if (this.store.isLeftover(name) && now - modifiedMs > tempOlderThanMs) {
        await this.store.remove(kind, name).catch(() => undefined);
      }
    }
    return old;
  }

  /** Answers GET/HEAD /images/<kind>/<name> for a stored name (next() for anything else or a missing one). */
  serve(kind: ImageKind, name: string, req: Request, res: Response, next: NextFunction): void {
    if (!this.isStoredName(kind, name)) return next();
    this.store.serve(kind, name, req, res, next);
  }

  isStoredName(kind: ImageKind, name: string): boolean {
    return IMAGE_KINDS.includes(kind) && NAMES[kind](name);
  }

  /** The file path of a stored image (local adapter), or undefined when the name is not one of ours. */
  pathOf(kind: ImageKind, name: string): string | undefined {
    return this.isStoredName(kind, name) ? join(this.root, kind, name) : undefined;
  }

  /** `/images/<kind>/<name>`, or that path under S3_PUBLIC_URL when images are linked at the bucket. */
  urlOf(kind: ImageKind, name: string): string {
    return `${this.urlBase}/images/${kind}/${name}`;
  }

  /** Accepts `/images/<kind>/<name>` (also under S3_PUBLIC_URL) or a bare `<name>`; undefined for anything else. */
  nameOf(kind: ImageKind, urlOrName: string | null | undefined): string | undefined {
    if (!urlOrName) return undefined;
    const path = this.urlBase && urlOrName.startsWith(`${this.urlBase}/`) ? urlOrName.slice(this.urlBase.length) : urlOrName;
    const prefix = `/images/${kind}/`;
    const name = path.startsWith(prefix) ? path.slice(prefix.length) : path;
    return this.isStoredName(kind, name) ? name : undefined;
  }
}

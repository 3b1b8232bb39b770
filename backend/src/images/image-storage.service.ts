import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { APP_CONFIG, AppConfig } from '../config/env';

/** The kinds of stored images: each has its folder under DATA_DIR/uploads and its URL prefix. */
export type ImageKind = 'avatars' | 'thumbnails';
export const IMAGE_KINDS: readonly ImageKind[] = ['avatars', 'thumbnails'];

/** Our file names: 32 random hex digits + .webp. Nothing else is ever read or deleted. */
export const STORED_NAME = /^[0-9a-f]{32}\.webp$/;

/** Formats accepted as input (decided by the bytes, through sharp, never by the client's MIME). */
const INPUT_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'avif', 'heif', 'tiff']);
/** Decoding bombs stop here (about 40 megapixels). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const AVATAR_SIZE = 512;
export const WEBP_QUALITY = 80;

export class NotAnImageError extends Error {}

/**
 * Image files on disk: DATA_DIR/uploads/<kind>/<random>.webp, served at /images/<kind>/<name>.
 * Inputs are decoded and re-encoded with sharp (pixel limit, EXIF orientation applied, metadata
 * stripped), so what is stored is always a clean WebP.
 */
@Injectable()
export class ImageStorageService {
  private readonly logger = new Logger('ImageStorage');
  readonly root: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.root = resolve(config.dataDir, 'uploads');
  }

  /** The decoded format of `buffer`, or NotAnImageError when it is not an accepted image. */
  async inspect(buffer: Buffer): Promise<{ format: string; width: number; height: number }> {
    try {
      const meta = await sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).metadata();
      if (!meta.format || !INPUT_FORMATS.has(meta.format) || !meta.width || !meta.height) throw new NotAnImageError();
      return { format: meta.format, width: meta.width, height: meta.height };
    } catch {
      throw new NotAnImageError();
    }
  }

  /** Stores a 512x512 WebP (cover crop) of the image; answers its public URL. */
  async saveAvatar(buffer: Buffer): Promise<string> {
    await this.inspect(buffer);
    let output: Buffer;
    try {
      output = await sharp(buffer, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
        .rotate()
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
        .webp({ quality: WEBP_QUALITY })
        .toBuffer();
    } catch {
      throw new NotAnImageError();
    }
    return this.write('avatars', output);
  }

  /** Writes already-encoded WebP bytes under a new random name; answers the public URL. */
  async write(kind: ImageKind, webp: Buffer): Promise<string> {
    const dir = this.dirOf(kind);
    await mkdir(dir, { recursive: true });
    const name = `${randomBytes(16).toString('hex')}.webp`;
    await writeFile(join(dir, name), webp, { flag: 'wx', mode: 0o644 });
    return this.urlOf(kind, name);
  }

  /** Deletes a stored image by its URL or name. Anything that is not one of ours is refused (false). */
  async delete(kind: ImageKind, urlOrName: string | null | undefined): Promise<boolean> {
    const name = this.nameOf(kind, urlOrName);
    if (!name) return false;
    try {
      await unlink(join(this.dirOf(kind), name));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Could not delete ${kind}/${name}: ${String(error)}`);
      return false;
    }
  }

  /** The file path of a stored image, or undefined when the name is not one of ours. */
  pathOf(kind: ImageKind, name: string): string | undefined {
    return IMAGE_KINDS.includes(kind) && STORED_NAME.test(name) ? join(this.dirOf(kind), name) : undefined;
  }

  urlOf(kind: ImageKind, name: string): string {
    return `/images/${kind}/${name}`;
  }

  /** Accepts `/images/<kind>/<name>` or a bare `<name>`; undefined for anything else. */
  nameOf(kind: ImageKind, urlOrName: string | null | undefined): string | undefined {
    if (!urlOrName) return undefined;
    const prefix = `/images/${kind}/`;
    const name = urlOrName.startsWith(prefix) ? urlOrName.slice(prefix.length) : urlOrName;
    return STORED_NAME.test(name) ? name : undefined;
  }

  private dirOf(kind: ImageKind): string {
    return join(this.root, kind);
  }
}

import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { APP_CONFIG, AppConfig } from '../config/env';
import { WEBP_QUALITY } from './image-pipeline';
import { THUMBNAIL_NAME, VARIANT_NAME } from './image-rules';

export { WEBP_QUALITY } from './image-pipeline';

/** The kinds of stored images: each has its folder under DATA_DIR/uploads and its URL prefix. */
export type ImageKind = 'avatars' | 'thumbnails';
export const IMAGE_KINDS: readonly ImageKind[] = ['avatars', 'thumbnails'];

/** Avatar file names: 32 random hex digits + .webp. */
export const STORED_NAME = /^[0-9a-f]{32}\.webp$/;

/** The names each folder may hold; nothing else is ever served, read or deleted. */
const NAMES: Record<ImageKind, (name: string) => boolean> = {
  avatars: (name) => STORED_NAME.test(name),
  thumbnails: (name) => THUMBNAIL_NAME.test(name) || VARIANT_NAME.test(name),
};

/** Files being written carry this prefix until they are complete (never served: not a stored name). */
const TEMP_PREFIX = '.tmp-';

/** Formats accepted as avatar input (decided by the bytes, through sharp, never by the client's MIME). */
const INPUT_FORMATS = new Set(['jpeg', 'png', 'gif', 'webp', 'avif', 'heif', 'tiff']);
/** Decoding bombs stop here (about 40 megapixels). */
export const MAX_INPUT_PIXELS = 40_000_000;
export const AVATAR_SIZE = 512;

export class NotAnImageError extends Error {}

/**
 * Image files on disk: DATA_DIR/uploads/<kind>/<name>, served at /images/<kind>/<name>.
 * Inputs are decoded and re-encoded with sharp (pixel limit, EXIF orientation applied, metadata
 * stripped), so what is stored is always a clean WebP. Writes of several files (a thumbnail and
 * its variants) are all-or-nothing: temporary names first, then renamed.
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
    const name = `${randomBytes(16).toString('hex')}.webp`;
    await this.writeAll(kind, [{ name, data: webp }]);
    return this.urlOf(kind, name);
  }

  /**
   * Writes every file or none: each goes to a temporary name first, then all are renamed. On any
   * failure whatever was written is removed and the error is thrown. Names must be stored names.
   */
  async writeAll(kind: ImageKind, files: { name: string; data: Buffer }[]): Promise<void> {
    const dir = this.dirOf(kind);
    for (const { name } of files) if (!this.isStoredName(kind, name)) throw new Error(`not a stored ${kind} name: ${name}`);
    await mkdir(dir, { recursive: true });
    const nonce = randomBytes(8).toString('hex');
    const temps = files.map(({ name }) => join(dir, `${TEMP_PREFIX}${nonce}-${name}`));
    const finals = files.map(({ name }) => join(dir, name));
    const renamed: string[] = [];
    try {
      await Promise.all(files.map(({ data }, i) => writeFile(temps[i], data, { flag: 'wx', mode: 0o644 })));
      for (const [i, temp] of temps.entries()) {
        await rename(temp, finals[i]);
        renamed.push(finals[i]);
      }
    } catch (error) {
      await Promise.all([...temps, ...renamed].map((path) => unlink(path).catch(() => undefined)));
      throw error;
    }
  }

  /** Deletes stored files by name (missing ones are fine); names that are not ours are skipped. */
  async removeAll(kind: ImageKind, names: readonly string[]): Promise<void> {
    await Promise.all(
      names.map(async (name) => {
        const path = this.pathOf(kind, name);
        if (!path) return;
        try {
          await unlink(path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Could not delete ${kind}/${name}: ${String(error)}`);
        }
      }),
    );
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

  /**
   * The folder's entries older than the given ages: stored names (for the caller to match against
   * its records) and leftover temporary files (a write cut short by a crash), which are deleted.
   */
  async listOld(kind: ImageKind, storedOlderThanMs: number, tempOlderThanMs: number): Promise<string[]> {
    const dir = this.dirOf(kind);
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const now = Date.now();
    const old: string[] = [];
    for (const name of entries) {
      const stored = this.isStoredName(kind, name);
      if (!stored && !name.startsWith(TEMP_PREFIX)) continue;
      let modified: number;
      try {
        modified = (await stat(join(dir, name))).mtimeMs;
      } catch {
        continue;
      }
      if (stored && now - modified > storedOlderThanMs) old.push(name);
      if (!stored && now - modified > tempOlderThanMs) await unlink(join(dir, name)).catch(() => undefined);
    }
    return old;
  }

  isStoredName(kind: ImageKind, name: string): boolean {
    return IMAGE_KINDS.includes(kind) && NAMES[kind](name);
  }

  /** The file path of a stored image, or undefined when the name is not one of ours. */
  pathOf(kind: ImageKind, name: string): string | undefined {
    return this.isStoredName(kind, name) ? join(this.dirOf(kind), name) : undefined;
  }

  urlOf(kind: ImageKind, name: string): string {
    return `/images/${kind}/${name}`;
  }

  /** Accepts `/images/<kind>/<name>` or a bare `<name>`; undefined for anything else. */
  nameOf(kind: ImageKind, urlOrName: string | null | undefined): string | undefined {
    if (!urlOrName) return undefined;
    const prefix = `/images/${kind}/`;
    const name = urlOrName.startsWith(prefix) ? urlOrName.slice(prefix.length) : urlOrName;
    return this.isStoredName(kind, name) ? name : undefined;
  }

  private dirOf(kind: ImageKind): string {
    return join(this.root, kind);
  }
}

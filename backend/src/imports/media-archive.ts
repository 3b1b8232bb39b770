import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { BadSourceFile } from './sources/source-records';

/** The folders a site keeps its uploads under: a file is found by its path below one of them. */
const UPLOAD_ROOTS = ['wp-content/uploads/', 'uploads/', 'content/images/', 'images/'];

/** The keys a path is found by: below an uploads folder, or whole (no leading slash), lower-cased. */
export function mediaKeys(path: string): string[] {
  const clean = path.replace(/\\/g, '/').replace(/^\/+/, '').toLowerCase();
  const keys = [clean];
  for (const root of UPLOAD_ROOTS) {
    const at = clean.indexOf(root);
    if (at >= 0) keys.push(clean.slice(at + root.length));
  }
  return keys;
}

/**
 * A zip of a site's media (WordPress's wp-content/uploads, Ghost's content/images, an Inkwell
 * export's images/), opened once: entries are indexed by path and read one at a time on demand,
 * so a large archive is never loaded whole.
 */
export class MediaArchive {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
    private readonly scratch: string,
  ) {}

  static async open(path: string): Promise<MediaArchive> {
    const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.open(path, { lazyEntries: true, autoClose: false, strictFileNames: false }, (error, file) =>
        error ? reject(new BadSourceFile(`The media file is not a zip archive (${error.message}).`)) : resolve(file),
      ),
    );
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) for (const key of mediaKeys(entry.fileName)) if (!entries.has(key)) entries.set(key, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (error: Error) => reject(new BadSourceFile(`The media archive cannot be read (${error.message}).`)));
      zip.readEntry();
    });
    return new MediaArchive(zip, entries, await mkdtemp(join(tmpdir(), 'inkwell-media-')));
  }

  /** The entry for a URL or path of the former site (its path is matched below the uploads folder). */
  find(urlOrPath: string): yauzl.Entry | undefined {
    let path = urlOrPath;
    try {
      path = decodeURIComponent(new URL(urlOrPath, 'http://local.invalid/').pathname);
    } catch {
      // Not a URL: matched as a path.
    }
    for (const key of mediaKeys(path).reverse()) {
      const entry = this.entries.get(key);
      if (entry) return entry;
    }
    return this.entries.get(posix.basename(path).toLowerCase());
  }

  /** Copies the entry to a temporary file (removed by the caller through `release`). */
  async extract(entry: yauzl.Entry, maxBytes: number): Promise<{ path: string; size: number }> {
    if (entry.uncompressedSize > maxBytes) throw new Error(`larger than ${Math.round(maxBytes / 1024 / 1024)} MB`);
    const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, readable) => (error ? reject(error) : resolve(readable))),
    );
    const target = join(this.scratch, `${Date.now()}-${Math.random().toString(36).slice(2)}`);
    await pipeline(stream, createWriteStream(target));
    return { path: target, size: (await stat(target)).size };
  }

  release(path: string): Promise<void> {
    return rm(path, { force: true });
  }

  async close(): Promise<void> {
    this.zip.close();
    await rm(this.scratch, { recursive: true, force: true });
  }
}

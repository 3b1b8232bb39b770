import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import yauzl from 'yauzl';
import {
  BACKUP_FORMAT,
  BACKUP_FORMAT_VERSION,
  BackupManifest,
  BackupRefused,
  MANIFEST_FILE,
  openSecrets,
  SealedSecrets,
  SECRETS_FILE,
  sha256,
} from './backup-format';

/**
 * An archive opened for restore: its entries indexed by name, read one at a time (never whole in
 * memory but for the manifest and the sealed secrets). `verify()` opens the secrets with the
 * passphrase and checks every file's sha256 against the manifest before anything is written.
 */
export class BackupArchive {
  private constructor(
    readonly path: string,
    private readonly zip: yauzl.ZipFile,
    private readonly entries: Map<string, yauzl.Entry>,
  ) {}

  static async open(path: string): Promise<BackupArchive> {
    let zip: yauzl.ZipFile;
    try {
      zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
        yauzl.open(path, { lazyEntries: true, autoClose: false, validateEntrySizes: true }, (error, file) =>
          error ? reject(error) : resolve(file),
        ),
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupRefused(`${path}: no such file`);
      throw new BackupRefused(
        `${path} is not a complete Inkwell backup (truncated or damaged: ${(error as Error).message}); nothing was restored`,
      );
    }
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on('end', () => resolve());
      zip.on('error', (error: Error) => reject(new BackupRefused(`${path} cannot be read (${error.message}); nothing was restored`)));
      zip.readEntry();
    });
    return new BackupArchive(path, zip, entries);
  }

  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new BackupRefused(`${this.path} has no ${name}: it is not a complete Inkwell backup; nothing was restored`);
    return new Promise<Readable>((resolve, reject) =>
      this.zip.openReadStream(entry, (error, readable) => (error ? reject(error) : resolve(readable as Readable))),
    );
  }

  async read(name: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /**
   * The manifest and the secrets, after checking the passphrase and every file's checksum. Any
   * mismatch is a BackupRefused naming the file; nothing has been written when it is thrown.
   */
  async verify(
    passphrase: string,
    progress: (line: string) => void = () => undefined,
  ): Promise<{ manifest: BackupManifest; secrets: SealedSecrets }> {
    const manifestBytes = await this.read(MANIFEST_FILE).catch((error: unknown) => {
      throw error instanceof BackupRefused ? error : new BackupRefused(`${MANIFEST_FILE} cannot be read (${(error as Error).message})`);
    });
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(manifestBytes.toString('utf8')) as BackupManifest;
    } catch {
      throw new BackupRefused(`${MANIFEST_FILE} is damaged; nothing was restored`);
    }
    if (manifest.format !== BACKUP_FORMAT) throw new BackupRefused(`${this.path} is not an Inkwell backup`);
    if (manifest.formatVersion > BACKUP_FORMAT_VERSION)
      throw new BackupRefused(
        `${this.path} was written by Inkwell ${manifest.inkwellVersion} in a newer archive format: restore it with that version`,
      );
    const secrets = openSecrets(await this.read(SECRETS_FILE), passphrase, sha256(manifestBytes));
    progress('passphrase: correct; manifest: authentic');

    const listed = new Set(Object.keys(manifest.files));
    for (const name of this.entries.keys()) {
      if (name !== MANIFEST_FILE && name !== SECRETS_FILE && !listed.has(name))
        throw new BackupRefused(
          `${this.path} holds ${name}, which its manifest does not list: the archive was altered; nothing was restored`,
        );
    }
    let checked = 0;
    for (const [name, expected] of Object.entries(manifest.files)) {
      const hash = createHash('sha256');
      let bytes = 0;
      try {
        await pipeline(
          await this.stream(name),
          new Writable({
            write(chunk: Buffer, _encoding, done) {
              hash.update(chunk);
              bytes += chunk.length;
              done();
            },
          }),
        );
      } catch (error) {
        if (error instanceof BackupRefused) throw error;
        throw new BackupRefused(`${name} in ${this.path} is damaged (${(error as Error).message}); nothing was restored`);
      }
      const actual = hash.digest('hex');
      if (actual !== expected.sha256 || bytes !== expected.bytes)
        throw new BackupRefused(
          `${name} in ${this.path} does not match its checksum: the archive was altered or damaged; nothing was restored`,
        );
      if (++checked % 500 === 0) progress(`checksums: ${checked}/${listed.size} files`);
    }
    progress(`checksums: all ${listed.size} files match`);
    return { manifest, secrets };
  }

  close(): void {
    this.zip.close();
  }
}

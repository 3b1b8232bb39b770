import { createCipheriv, createDecipheriv, createHash, randomBytes, scryptSync } from 'node:crypto';
export { inkwellVersion } from '../config/version';

/**
 * The backup archive (docs/operations.md#backup): one zip file holding
 *
 *   database/<schema>.<table>.copy   every table's rows, PostgreSQL COPY text format
 *   uploads/<kind>/<name>            the uploaded images (local storage)
 *   s3-objects.json                  the bucket's keys and sizes (S3 storage)
 *   manifest.json                    versions, migration level, tables, row counts, sequences, sha256 of every file above
 *   secrets.enc                      the secrets the data needs, sealed with the operator's passphrase;
 *                                    the seal also covers manifest.json's sha256, so an altered manifest is refused too
 */
export const BACKUP_FORMAT = 'inkwell-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_FILE = 'manifest.json';
export const SECRETS_FILE = 'secrets.enc';
export const S3_OBJECTS_FILE = 's3-objects.json';
export const ARCHIVE_PREFIX = 'inkwell-backup-';

export interface TableEntry {
  schema: string;
  name: string;
  /** Column order of the COPY (generated columns are left out: PostgreSQL computes them again). */
  columns: string[];
  rows: number;
  file: string;
}

export interface SequenceEntry {
  schema: string;
  name: string;
  lastValue: string;
  isCalled: boolean;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  inkwellVersion: string;
  createdAt: string;
  postgresVersion: string | null;
  /** 'embedded': the rows are in the archive; 'external' (DATABASE_URL): the operator backs the database up. */
  database: 'embedded' | 'external';
  /** Every applied migration, oldest first; the last one is the archive's migration level. */
  migrations: string[];
  tables: TableEntry[];
  sequences: SequenceEntry[];
  materializedViews: string[];
  images: { driver: 'local' | 's3'; files: number; bytes: number };
  /** sha256 (hex) and size of every file of the archive but manifest.json and secrets.enc. */
  files: Record<string, { sha256: string; bytes: number }>;
}

/** What secrets.enc holds once opened. */
export interface SealedSecrets {
  /** DATA_DIR/secrets.json as it was (the generated secrets: JWT, pepper, the embedded database's password). */
  persisted: Record<string, string>;
  /** The secrets in effect (from the environment when set there). */
  jwtSecret: string;
  passwordPepper: string;
  /** Which of them came from the environment (the operator must set them again there). */
  fromEnvironment: string[];
  manifestSha256: string;
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** scrypt's cost: about 100 ms and 32 MB, once per backup or restore. */
const SCRYPT = { N: 2 ** 15, r: 8, p: 1 };

function keyOf(passphrase: string, salt: Buffer, params = SCRYPT): Buffer {
  return scryptSync(passphrase.normalize('NFC'), salt, 32, { ...params, maxmem: 128 * params.N * params.r * 2 });
}

/** AES-256-GCM under a scrypt key of the passphrase; the manifest's digest is authenticated as well. */
export function sealSecrets(secrets: SealedSecrets, passphrase: string): Buffer {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(passphrase, salt), iv);
  cipher.setAAD(Buffer.from(`${BACKUP_FORMAT}:${secrets.manifestSha256}`));
  const body = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
  return Buffer.from(
    JSON.stringify({
      kdf: 'scrypt',
      ...SCRYPT,
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      ciphertext: body.toString('base64'),
    }),
  );
}

export class BackupRefused extends Error {}

/** The secrets, or BackupRefused when the passphrase (or the manifest the seal covers) is not the one sealed. */
export function openSecrets(sealed: Buffer, passphrase: string, manifestSha256: string): SealedSecrets {
  let box: { kdf: string; N: number; r: number; p: number; salt: string; iv: string; tag: string; ciphertext: string };
  try {
    box = JSON.parse(sealed.toString('utf8')) as typeof box;
  } catch {
    throw new BackupRefused(`${SECRETS_FILE} is damaged: the archive is not a complete Inkwell backup`);
  }
  if (box.kdf !== 'scrypt' || !(box.N <= 2 ** 20) || !(box.r <= 32) || !(box.p <= 16))
    throw new BackupRefused(`${SECRETS_FILE} is damaged: unknown key derivation`);
  try {
    const decipher = createDecipheriv(
      'aes-256-gcm',
      keyOf(passphrase, Buffer.from(box.salt, 'base64'), box),
      Buffer.from(box.iv, 'base64'),
    );
    decipher.setAAD(Buffer.from(`${BACKUP_FORMAT}:${manifestSha256}`));
    decipher.setAuthTag(Buffer.from(box.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(box.ciphertext, 'base64')), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as SealedSecrets;
  } catch {
    throw new BackupRefused(
      'the passphrase does not open this backup (or its manifest was altered): nothing was restored; give the passphrase the backup was made with (BACKUP_PASSPHRASE)',
    );
  }
}

/** `"schema"."table"` for SQL. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const qualified = (schema: string, name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;

import type { Readable } from 'node:stream';
import type { NextFunction, Request, Response } from 'express';

/** The kinds of stored images: each has its folder (local) or key prefix (S3) and its URL prefix. */
export type ImageKind = 'avatars' | 'thumbnails';

export interface StoredEntry {
  name: string;
  modifiedMs: number;
}

/** The year-long immutable cache of every stored image: names are random and never reused. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * Where image bytes live. Names reaching an adapter have been checked by ImageStorageService
 * (stored names, or the adapter's own leftovers from list()); adapters never see user paths.
 */
export interface ImageStore {
  readonly driver: 'local' | 's3';
  /** Writes every file or none: on any failure whatever was written is removed, then the error is thrown. */
  writeAll(kind: ImageKind, files: readonly { name: string; data: Buffer }[]): Promise<void>;
  /** Deletes one entry: true when it was there, false when it was missing. Other failures throw. */
  remove(kind: ImageKind, name: string): Promise<boolean>;
  /** Deletes entries (missing ones are fine); answers the names that could not be deleted, with why. */
  removeMany(kind: ImageKind, names: readonly string[]): Promise<{ name: string; error: string }[]>;
  /** The stored bytes as a stream (the data export copies them into its archive); null when missing. */
  read(kind: ImageKind, name: string): Promise<Readable | null>;
  /** Every entry of a kind with its modification time (stored names and any leftovers of cut-short writes). */
  list(kind: ImageKind): Promise<StoredEntry[]>;
  /** Whether a listed name is a leftover of a write cut short (deleted by the sweep after an hour). */
  isLeftover(name: string): boolean;
  /** Answers GET/HEAD for a stored name with the immutable cache headers; next() when it is missing. */
  serve(kind: ImageKind, name: string, req: Request, res: Response, next: NextFunction): void;
  close(): Promise<void>;
}

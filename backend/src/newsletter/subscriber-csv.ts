import { parse } from 'csv-parse/sync';
import { isEmail } from 'class-validator';
import { canonicalEmail, charCount, hasInvisible } from '../../../isomorphic/text';
import type { FollowKind } from './entities/newsletter-follow.entity';

/**
 * The subscribers' CSV (docs/newsletter.md#csv-formats). Import reads three formats, told apart by
 * the header (case and spaces ignored):
 * - Inkwell's own (also what the export writes): `email`, `name`, `follows`, with follows like
 *   `publication; author:jane-doe; tag:travel` (slugs or ids; empty: the publication);
 * - Ghost's members export: `email`, `name`, `subscribed_to_emails`, `deleted_at` (… `labels`, `tiers`
 *   and the rest ignored): a row with `subscribed_to_emails` false or a `deleted_at` is skipped;
 * - Substack's subscribers export: `email`, `active_subscription`, `expiry`, `plan`,
 *   `email_disabled`, `created_at`, `first_payment_at`: a row with `email_disabled` true is skipped.
 * Ghost and Substack rows follow the publication.
 */
export type CsvFormat = 'inkwell' | 'ghost' | 'substack';

/** A follow as the file names it, before its author or tag is looked up. */
export interface CsvFollowRef {
  kind: FollowKind;
  /** 'publication' for the publication; a slug or an id otherwise. */
  ref: string;
}

export interface CsvRow {
  line: number;
  email: string;
  name: string | null;
  follows: CsvFollowRef[];
}

export interface CsvIssue {
  line: number;
  email: string;
  reason: string;
}

export interface ParsedCsv {
  format: CsvFormat;
  rows: CsvRow[];
  skipped: CsvIssue[];
  errors: CsvIssue[];
}

export class CsvUnreadable extends Error {}

const TRUE = new Set(['true', 'yes', '1', 't', 'y']);

function headerKey(value: string): string {
  return value
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

export function detectFormat(header: string[]): CsvFormat {
  if (header.includes('subscribed_to_emails') || (header.includes('labels') && header.includes('note'))) return 'ghost';
  if (header.includes('email_disabled') || header.includes('active_subscription')) return 'substack';
  return 'inkwell';
}

/** `publication; author:jane-doe; tag:travel` → refs; an unreadable part is an error text. */
export function parseFollows(text: string): CsvFollowRef[] | string {
  const parts = text
    .split(/[;|]/)
    .map((part) => part.trim())
    .filter(Boolean);
  if (!parts.length) return [{ kind: 'publication', ref: 'publication' }];
  const refs: CsvFollowRef[] = [];
  for (const part of parts) {
    if (part.toLowerCase() === 'publication') {
      refs.push({ kind: 'publication', ref: 'publication' });
      continue;
    }
    const match = /^(author|tag)\s*:\s*(\S{1,200})$/i.exec(part);
    if (!match) return `follows: '${part.slice(0, 60)}' is not 'publication', 'author:<slug>' or 'tag:<slug>'`;
    refs.push({ kind: match[1].toLowerCase() as FollowKind, ref: match[2] });
  }
  return refs;
}

function checkEmail(raw: string): string | undefined {
  const email = canonicalEmail(raw);
  if (!email) return undefined;
  if (hasInvisible(email) || charCount(email) > 254 || !isEmail(email)) return undefined;
  return email;
}

/** Reads and checks every row (nothing is looked up in the database here: authors and tags are resolved by the caller). */
export function parseSubscriberCsv(text: string): ParsedCsv {
  let records: string[][];
  try {
    records = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as string[][];
  } catch (error) {
    throw new CsvUnreadable(error instanceof Error ? error.message.slice(0, 200) : 'unreadable');
  }
  if (!records.length) throw new CsvUnreadable('empty');
  const header = records[0].map(headerKey);
  const column = (name: string) => header.indexOf(name);
  const emailAt = column('email') >= 0 ? column('email') : column('email_address');
  if (emailAt < 0) throw new CsvUnreadable('no email column');
  const format = detectFormat(header);
  const nameAt = column('name');
  const followsAt = column('follows');
  const subscribedAt = column('subscribed_to_emails');
  const deletedAt = column('deleted_at');
  const disabledAt = column('email_disabled');

  const rows: CsvRow[] = [];
  const skipped: CsvIssue[] = [];
  const errors: CsvIssue[] = [];
  const seen = new Map<string, number>();
  for (let index = 1; index < records.length; index += 1) {
    const record = records[index];
    const line = index + 1;
    const cell = (at: number) => (at >= 0 ? (record[at] ?? '').trim() : '');
    const rawEmail = cell(emailAt);
    const email = checkEmail(rawEmail);
    if (!rawEmail) {
      errors.push({ line, email: '', reason: 'email is missing' });
      continue;
    }
    if (!email) {
      errors.push({ line, email: rawEmail.slice(0, 254), reason: 'not a valid e-mail address' });
      continue;
    }
    if (format === 'ghost' && ((subscribedAt >= 0 && !TRUE.has(cell(subscribedAt).toLowerCase())) || cell(deletedAt))) {
      skipped.push({ line, email, reason: 'not subscribed to e-mails in the export' });
      continue;
    }
    if (format === 'substack' && TRUE.has(cell(disabledAt).toLowerCase())) {
      skipped.push({ line, email, reason: 'e-mail disabled in the export' });
      continue;
    }
    const earlier = seen.get(email);
    if (earlier !== undefined) {
      errors.push({ line, email, reason: `the same address as line ${earlier}` });
      continue;
    }
    seen.set(email, line);
    const name = cell(nameAt) || null;
    if (name && charCount(name) > 100) {
      errors.push({ line, email, reason: 'name is longer than 100 characters' });
      continue;
    }
    const follows = format === 'inkwell' ? parseFollows(cell(followsAt)) : [{ kind: 'publication' as const, ref: 'publication' }];
    if (typeof follows === 'string') {
      errors.push({ line, email, reason: follows });
      continue;
    }
    rows.push({ line, email, name, follows });
  }
  return { format, rows, skipped, errors };
}

/** One CSV field (RFC 4180), with a leading =, +, - or @ defused so a spreadsheet does not run it as a formula. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const EXPORT_HEADER = [
  'email',
  'name',
  'follows',
  'status',
  'cadence',
  'digest_weekday',
  'source',
  'created_at',
  'confirmed_at',
  'suppressed',
];

import { Inject, Injectable, Module } from '@nestjs/common';
import * as bcrypt from 'bcrypt';
import { createHmac } from 'node:crypto';
import { APP_CONFIG, AppConfig } from '../config/env';

export const BCRYPT_COST = 12;

/**
 * Marks hashes of the peppered scheme: bcrypt over base64(HMAC-SHA-256(pepper, password)). bcrypt
 * reads only the first 72 bytes of its input, so a long password was cut; the 44-character digest
 * keeps every byte of it. Hashes without the prefix are plain bcrypt (before this scheme).
 */
export const PEPPERED_PREFIX = 'p1$';

export interface PasswordCheck {
  matches: boolean;
  /** The stored hash is of an older scheme: store `hash()` of the password the user just proved. */
  needsUpgrade: boolean;
}

/**
 * The one place passwords are hashed and compared (sign-up, sign-in, reset, change, admin create
 * and generate, the first admin, the demo seed). The pepper is PASSWORD_PEPPER, else a secret kept
 * in DATA_DIR/secrets.json: every instance on one database must share it.
 */
@Injectable()
export class PasswordHasher {
  private readonly pepper: string;
  /** Compared against when the e-mail is unknown, so a sign-in takes the same time either way. */
  private dummyHash: Promise<string> | undefined;

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'passwordPepper'>) {
    this.pepper = config.passwordPepper;
  }

  private prehash(password: string): string {
    return createHmac('sha256', this.pepper).update(password, 'utf8').digest('base64');
  }

  async hash(password: string): Promise<string> {
    return PEPPERED_PREFIX + (await bcrypt.hash(this.prehash(password), BCRYPT_COST));
  }

  /** Checks `password` against a stored hash of either scheme; null (no account) costs the same and never matches. */
  async verify(password: string, stored: string | null | undefined): Promise<PasswordCheck> {
    if (!stored) {
      this.dummyHash ??= this.hash('inkwell-dummy-password');
      await bcrypt.compare(this.prehash(password), (await this.dummyHash).slice(PEPPERED_PREFIX.length));
      return { matches: false, needsUpgrade: false };
    }
    if (stored.startsWith(PEPPERED_PREFIX)) {
      return { matches: await bcrypt.compare(this.prehash(password), stored.slice(PEPPERED_PREFIX.length)), needsUpgrade: false };
    }
    // A plain bcrypt hash from before the pepper (or '!' and other non-hashes, which never match).
    const matches = await bcrypt.compare(password, stored).catch(() => false);
    return { matches, needsUpgrade: matches };
  }
}

/**
 * The hasher alone, for the modules built beneath auth that check a password (two-factor's
 * turning off); AuthModule imports and exports it too, so there is one hasher.
 */
@Module({ providers: [PasswordHasher], exports: [PasswordHasher] })
export class PasswordHasherModule {}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { SiteSetting } from './entities/site-setting.entity';
import { SITE_SETTING_DEFAULTS, SITE_SETTING_KEYS, SiteSettingKey, SiteSettings } from './site-settings';

/**
 * The owner of the site-wide settings: reads fall back to the defaults, writes upsert one row per
 * changed key. Settings are read where a rule needs them (an admin's sign-in, an erasure), a few
 * times a minute at most, so they are read from the table every time: no cache to go stale.
 */
@Injectable()
export class SettingsService {
  constructor(@InjectRepository(SiteSetting) private readonly rows: Repository<SiteSetting>) {}

  async get<K extends SiteSettingKey>(key: K): Promise<SiteSettings[K]> {
    const row = await this.rows.findOneBy({ key });
    return row ? (row.value as SiteSettings[K]) : SITE_SETTING_DEFAULTS[key];
  }

  async all(): Promise<SiteSettings> {
    const rows = await this.rows.findBy({ key: In(SITE_SETTING_KEYS) });
    const settings: SiteSettings = { ...SITE_SETTING_DEFAULTS };
    for (const row of rows) (settings as unknown as Record<string, unknown>)[row.key] = row.value;
    return settings;
  }

  /** Saves the given keys (already validated by the caller's DTO) and answers the whole set. */
  async update(changes: Partial<SiteSettings>, actorId: number): Promise<SiteSettings> {
    const entries = SITE_SETTING_KEYS.filter((key) => changes[key] !== undefined).map((key) => ({
      key,
      value: changes[key],
      updatedBy: actorId,
    }));
    if (entries.length) await this.rows.upsert(entries, ['key']);
    return this.all();
  }
}

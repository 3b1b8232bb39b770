import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { formatInZone } from '../../../isomorphic/date-formats';
import { APP_CONFIG, AppConfig } from '../config/env';
import { JobRun, JobsService } from '../jobs/jobs.service';
import { newSignInMail } from '../mail/mail.templates';
import { MailService } from '../mail/mail.service';
import { approximatePlace, describeDevice, type ClientInfo } from './client-device';

/** A device the user signed in from within this many days is known: no alert. */
export const KNOWN_DEVICE_DAYS = 90;

export const NEW_SIGN_IN_QUEUE = 'new-sign-in-email';

/** First key of the per-user advisory lock that serialises the device check of concurrent sign-ins ('inkd'). */
const DEVICE_LOCK_NAMESPACE = 0x696e6b64;

export interface NewSignInJob {
  userId: number;
  /** The session family the sign-in started (names the e-mail: a retried send is the same message). */
  sessionId: string;
  device: string;
  place: string;
  /** ISO time of the sign-in. */
  at: string;
}

/**
 * The new-device alert. A device is the browser family + OS of the user agent
 * (client-device.ts). A sign-in is from a new device when that device is neither among the ones
 * the user signed in from in the last KNOWN_DEVICE_DAYS days (known_devices) nor the device of
 * one of their live sessions. The account's very first sign-in (no known device and no other
 * session row) teaches the device without an alert. The e-mail job is enqueued in the session's
 * transaction, so there is an alert exactly when the session exists. Users turn it off with
 * sign_in_alert_settings; the worker reads the switch again at send time.
 */
@Injectable()
export class NewDeviceAlerts implements OnModuleInit {
  private readonly logger = new Logger('NewDeviceAlerts');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly jobs: JobsService,
    private readonly mail: MailService,
  ) {}

  onModuleInit(): void {
    this.jobs.register<NewSignInJob>(NEW_SIGN_IN_QUEUE, (job) => this.send(job));
  }

  /**
   * Called by SessionsService.start() inside the new session's transaction (whatever signed the
   * user in: password, or a second factor after it): remembers the device and enqueues the alert
   * when it is new to the user.
   */
  async sessionStarted(manager: EntityManager, userId: number, sessionId: string, client: ClientInfo, at: Date): Promise<void> {
    // As stored on the session row (255 characters), so the list and the check see the same device.
    const device = describeDevice(client.userAgent?.slice(0, 255));
    // Two sign-ins of one user at once from one new device alert once: the second waits here and then finds the device known.
    await manager.query('SELECT pg_advisory_xact_lock($1::int, $2::int)', [DEVICE_LOCK_NAMESPACE, userId]);
    const [state]: { known: boolean; first: boolean; wanted: boolean }[] = await manager.query(
      `SELECT EXISTS (SELECT 1 FROM known_devices WHERE user_id = $1 AND device_key = $2 AND last_seen_at > now() - make_interval(days => $3)) AS known,
              NOT EXISTS (SELECT 1 FROM known_devices WHERE user_id = $1)
                AND NOT EXISTS (SELECT 1 FROM refresh_sessions WHERE user_id = $1 AND family_id <> $4) AS first,
              COALESCE((SELECT new_device_email FROM sign_in_alert_settings WHERE user_id = $1), true) AS wanted`,
      [userId, device.key, KNOWN_DEVICE_DAYS, sessionId],
    );
    await manager.query(
      `INSERT INTO known_devices (user_id, device_key, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $3)
       ON CONFLICT (user_id, device_key) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [userId, device.key, at],
    );
    if (state.known || state.first || !state.wanted) return;
    // Devices of live sessions count as known too (sessions started before devices were recorded).
    const live: { user_agent: string | null }[] = await manager.query(
      `SELECT DISTINCT user_agent FROM refresh_sessions WHERE user_id = $1 AND family_id <> $2 AND revoked_at IS NULL AND expires_at > now()`,
      [userId, sessionId],
    );
    if (live.some((row) => describeDevice(row.user_agent).key === device.key)) return;
    const job: NewSignInJob = { userId, sessionId, device: device.label, place: approximatePlace(client.ip), at: at.toISOString() };
    await this.jobs.enqueue(manager, NEW_SIGN_IN_QUEUE, job);
  }

  /**
   * Forgets devices whose sessions the user signed out from the list, unless a live session of the
   * user still runs on them: a later sign-in from such a device alerts again.
   */
  async forget(manager: EntityManager, userId: number, userAgents: (string | null)[]): Promise<void> {
    const keys = new Set(userAgents.map((ua) => describeDevice(ua).key));
    if (!keys.size) return;
    const live: { user_agent: string | null }[] = await manager.query(
      `SELECT DISTINCT user_agent FROM refresh_sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [userId],
    );
    for (const row of live) keys.delete(describeDevice(row.user_agent).key);
    if (keys.size)
      await manager.query(`DELETE FROM known_devices WHERE user_id = $1 AND device_key = ANY($2::varchar[])`, [userId, [...keys]]);
  }

  /** The queue's worker: the account must still be active and want the alert; an SMTP failure is retried. */
  async send({ data }: JobRun<NewSignInJob>): Promise<void> {
    const [user]: { email: string; full_name: string; status: string; is_verified: boolean; wanted: boolean }[] =
      await this.dataSource.query(
        `SELECT u.email, u.full_name, u.status, u.is_verified, COALESCE(s.new_device_email, true) AS wanted
         FROM users u LEFT JOIN sign_in_alert_settings s ON s.user_id = u.id WHERE u.id = $1`,
        [data.userId],
      );
    if (!user || user.status !== 'ACTIVE' || !user.is_verified || !user.wanted) return;
    const content = newSignInMail(user.full_name, {
      device: data.device,
      place: data.place,
      when: formatInZone('shortDateTime', new Date(data.at), this.config.siteTimeZone),
      accountUrl: `${this.config.publicUrl}/account#sessions`,
    });
    const host = new URL(this.config.publicUrl).hostname;
    try {
      await this.mail.sendSecurityAlert(user.email, content, `<new-sign-in-${data.sessionId}@${host}>`);
    } catch (error) {
      this.logger.warn(
        { userId: data.userId, err: error },
        `New sign-in e-mail not sent: ${error instanceof Error ? error.message : String(error)}`,
      );
      throw error;
    }
  }
}

import { Injectable } from '@nestjs/common';
import { ContentEvents } from '../common/content-events';
import type {
  AuthorFederationDto,
  FederationBlockDto,
  FederationDeliveryDto,
  FederationOverviewDto,
  FederationReactionsDto,
  FederationStatusDto,
  FollowingDto,
  RemoteFollowerDto,
} from './dto/federation.dto';
import { FederationRepository, FollowingRow, SITE_ACTOR } from './federation.repository';
import { FederationService } from './federation.service';

const iso = (value: Date | string | null): string | null => (value === null ? null : new Date(value).toISOString());

/** What the admin page and the author dashboard read and change (docs/federation.md#administration). */
@Injectable()
export class FederationAdminService {
  constructor(
    private readonly federation: FederationService,
    private readonly repo: FederationRepository,
    private readonly content: ContentEvents,
  ) {}

  /** Whether the social web is on here (the pages show the handles and alternate links only then). */
  async status(): Promise<FederationStatusDto> {
    return {
      active: this.federation.available && (await this.federation.enabled()),
      host: this.federation.host,
      siteHandle: this.federation.handleOf(SITE_ACTOR),
    };
  }

  async overview(): Promise<FederationOverviewDto> {
    const counts = await this.repo.followerCounts();
    const actors = await Promise.all(
      counts.map(async ({ actor, followers }) => {
        const author = actor === SITE_ACTOR ? undefined : await this.repo.author(Number(actor));
        return { actor, handle: this.federation.handleOf(actor, author), followers };
      }),
    );
    return {
      available: this.federation.available,
      unavailableReason: this.federation.unavailableReason,
      enabled: await this.repo.enabled(),
      siteHandle: this.federation.handleOf(SITE_ACTOR),
      actors,
      deliveries: await this.repo.deliveryCounts(),
    };
  }

  async setEnabled(enabled: boolean): Promise<FederationOverviewDto> {
    await this.federation.setEnabled(enabled);
    // The public pages show the handles and alternate links only while it is on.
    await this.content.changed({ kind: 'resync' });
    return this.overview();
  }

  async followers(actor: string, limit: number): Promise<RemoteFollowerDto[]> {
    const rows = await this.repo.followers(actor, limit, 0);
    return rows.map(remoteAccountDto);
  }

  async deliveries(failedOnly: boolean): Promise<FederationDeliveryDto[]> {
    const rows = (await this.repo.recentDeliveries(100, failedOnly)) as (Omit<FederationDeliveryDto, 'createdAt' | 'deliveredAt'> & {
      createdAt: Date;
      deliveredAt: Date | null;
    })[];
    return rows.map((row) => ({ ...row, createdAt: iso(row.createdAt)!, deliveredAt: iso(row.deliveredAt) }));
  }

  async blocks(): Promise<FederationBlockDto[]> {
    return (await this.repo.blocks()).map((row) => ({ ...row, createdAt: iso(row.createdAt)! }));
  }

  async block(kind: 'instance' | 'actor', value: string): Promise<FederationBlockDto> {
    const row = await this.federation.block(kind, value);
    return { id: row.id, kind, value: row.value, createdAt: iso(row.createdAt)! };
  }

  unblock(id: number): Promise<boolean> {
    return this.repo.removeBlock(id);
  }

  async author(userId: number): Promise<AuthorFederationDto> {
    const author = await this.repo.author(userId);
    const actor = String(userId);
    return {
      available: this.federation.available,
      enabled: await this.repo.enabled(),
      handle: this.federation.handleOf(actor, author),
      followerCount: await this.repo.followerCount(actor),
      followers: await this.followers(actor, 100),
    };
  }

  async following(userId: number): Promise<FollowingDto[]> {
    return (await this.repo.following(String(userId))).map(followingDto);
  }

  /** Follows an account of the fediverse as this author (docs/federation.md#following). */
  async follow(userId: number, account: string): Promise<FollowingDto> {
    return followingDto(await this.federation.follow(String(userId), account));
  }

  unfollow(userId: number, remoteActorId: number): Promise<boolean> {
    return this.federation.unfollow(String(userId), remoteActorId);
  }

  async reactions(postId: number): Promise<FederationReactionsDto | null> {
    const post = await this.repo.post(postId);
    if (!post || post.status !== 'PUBLISHED') return null;
    return this.repo.reactionCounts(postId);
  }
}

/** A remote account as the API shows it: who they are and since when. */
function remoteAccountDto(row: Pick<FollowingRow, 'uri' | 'handle' | 'name' | 'avatar' | 'url' | 'host' | 'since'>): RemoteFollowerDto {
  return { uri: row.uri, handle: row.handle, name: row.name, avatar: row.avatar, url: row.url, host: row.host, since: iso(row.since)! };
}

function followingDto(row: FollowingRow): FollowingDto {
  return { id: row.id, ...remoteAccountDto(row), state: row.state };
}

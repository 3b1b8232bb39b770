import { Global, Injectable, Module } from '@nestjs/common';
import { AsyncLocalStorage } from 'node:async_hooks';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DomainEvent, DomainEventName, subjectOf } from './domain-events';
import { DomainEventRow } from './entities/domain-event.entity';

/** Runs inside the change's transaction (the audit entry, the notification rows): a failure rolls the change back. */
export type RecordedHandler<N extends DomainEventName> = (event: DomainEvent<N>, manager: EntityManager) => Promise<void>;
/** Runs after the commit and before the caller answers (caches dropping what the change made stale). */
export type CommittedHandler<N extends DomainEventName> = (event: DomainEvent<N>) => Promise<void>;

/** A transaction that records events: `manager` for the change's own writes, `record` for what happened. */
export interface EventTransaction {
  manager: EntityManager;
  record<N extends DomainEventName>(event: DomainEvent<N>): Promise<void>;
}

/** How a subscriber hears the stream. */
export interface SubscriptionOptions {
  /**
   * Not told of historic events (recorded inside `asHistoric`, e.g. an import of years-old posts):
   * for subscribers that tell people or systems (notifications, webhooks), never for those that
   * keep state right (caches, counters, the audit log, search).
   */
  liveOnly?: boolean;
}

/** For subscribers that tell someone: an import of historic content tells no one. */
export const LIVE_ONLY: SubscriptionOptions = Object.freeze({ liveOnly: true });

interface Subscription {
  names: ReadonlySet<string>;
  liveOnly: boolean;
  handler: (event: DomainEvent, manager?: EntityManager) => Promise<void>;
}

/**
 * The one event stream (docs/architecture.md#side-effects-follow-events, docs/events.md). A lifecycle owner opens
 * `transaction(work)` and records what happened; each event is stored (table `domain_events`) and
 * handed to the in-transaction subscribers at once, with the change's manager; once the
 * transaction commits, the after-commit subscribers run, awaited, before the owner answers (a
 * caller reads their own write). Subscribers register in their module's constructor or
 * onModuleInit. The owner never calls the audit log, notifications or caches itself.
 */
@Injectable()
export class DomainEvents {
  private readonly recorded: Subscription[] = [];
  private readonly committed: Subscription[] = [];
  private readonly historicScope = new AsyncLocalStorage<true>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** In-transaction subscriber for these events. */
  onRecorded<N extends DomainEventName>(names: N | readonly N[], handler: RecordedHandler<N>, options: SubscriptionOptions = {}): void {
    this.recorded.push({
      names: new Set(typeof names === 'string' ? [names] : names),
      liveOnly: options.liveOnly === true,
      handler: handler as Subscription['handler'],
    });
  }

  /** After-commit subscriber for these events. */
  onCommitted<N extends DomainEventName>(names: N | readonly N[], handler: CommittedHandler<N>, options: SubscriptionOptions = {}): void {
    this.committed.push({
      names: new Set(typeof names === 'string' ? [names] : names),
      liveOnly: options.liveOnly === true,
      handler: handler as Subscription['handler'],
    });
  }

  /**
   * Runs `work` (which calls lifecycle owners as usual) so that every event recorded inside it is
   * historic: stored and heard by every subscriber except the `liveOnly` ones.
   */
  asHistoric<T>(work: () => Promise<T>): Promise<T> {
    return this.historicScope.run(true, work);
  }

  /**
   * Runs `work` in one transaction; what it records is stored and handed to subscribers with it.
   * After the commit the after-commit subscribers run in the order the events were recorded.
   */
  async transaction<T>(work: (tx: EventTransaction) => Promise<T>): Promise<T> {
    const events: DomainEvent[] = [];
    const historic = this.historicScope.getStore() === true;
    const hears = (subscription: Subscription, event: DomainEvent) =>
      subscription.names.has(event.name) && !(historic && subscription.liveOnly);
    const result = await this.dataSource.transaction(async (manager) => {
      const tx: EventTransaction = {
        manager,
        record: async (event) => {
          await this.store(manager, event as DomainEvent);
          for (const subscription of this.recorded)
            if (hears(subscription, event as DomainEvent)) await subscription.handler(event as DomainEvent, manager);
          events.push(event as DomainEvent);
        },
      };
      return work(tx);
    });
    for (const event of events)
      for (const subscription of this.committed) if (hears(subscription, event)) await subscription.handler(event);
    return result;
  }

  /**
   * An erased account: its stored user events keep what happened but no longer say
   * who it was (the e-mail address and name leave their payloads, and so do its API tokens' own
   * labels), in the erasure's transaction.
   */
  async forgetUser(manager: EntityManager, userId: number): Promise<void> {
    await manager.query(
      `UPDATE domain_events SET data = data - 'email' - 'fullName' - 'changes' #- '{apiToken,name}' WHERE subject_type = 'user' AND subject_id = $1`,
      [userId],
    );
  }

  private async store(manager: EntityManager, event: DomainEvent): Promise<void> {
    const subject = subjectOf(event);
    const row: Partial<DomainEventRow> = {
      name: event.name,
      subjectType: subject.type,
      subjectId: subject.id,
      actorId: event.actor?.id ?? null,
      data: event.data as unknown as Record<string, unknown>,
    };
    // QueryDeepPartialEntity cannot describe a jsonb object of unknown shape.
    await manager.insert(DomainEventRow, row as Parameters<EntityManager['insert']>[1]);
  }
}

@Global()
@Module({ providers: [DomainEvents], exports: [DomainEvents] })
export class EventsModule {}

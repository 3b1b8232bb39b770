import { Inject, Injectable, ServiceUnavailableException } from '@nestjs/common';
import sharp from 'sharp';
import { APP_CONFIG, AppConfig } from '../config/env';
import { ImagesMessages } from './images.messages';

/** A full queue: 503 (the exception filter adds Retry-After). */
export const decodeQueueFull = () => new ServiceUnavailableException(ImagesMessages.BUSY);

/**
 * At most IMAGE_DECODE_CONCURRENCY images are decoded at once and IMAGE_DECODE_QUEUE more may
 * wait; beyond that an upload is refused with 503 + Retry-After rather than held in memory. A
 * decoded image costs width x height x channels bytes (up to 160 MB for a 40-megapixel avatar), so
 * this bounds the server's memory under a burst of uploads, whatever their number.
 */
@Injectable()
export class DecodeQueue {
  private readonly concurrency: number;
  private readonly capacity: number;
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.concurrency = config.imageDecodes.concurrency;
    this.capacity = config.imageDecodes.queue;
    // One libvips thread per image (the queue is the parallelism) and no operation cache: every
    // input is new, and libvips' cache would keep up to 50 MB of decoded pixels after the burst.
    sharp.concurrency(1);
    sharp.cache(false);
  }

  /** No room to run or wait: an upload asking now would be refused (checked before its body is read). */
  get full(): boolean {
    return this.running >= this.concurrency && this.waiting.length >= this.capacity;
  }

  /** Runs the decode when a slot is free (waiting in line); 503 when the line is full. */
  async run<T>(decode: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      if (this.waiting.length >= this.capacity) throw decodeQueueFull();
      // The slot is handed over by the finishing decode (running stays the same).
      await new Promise<void>((start) => this.waiting.push(start));
    }
    try {
      return await decode();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

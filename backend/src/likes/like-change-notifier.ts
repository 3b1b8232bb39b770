import { Injectable } from '@nestjs/common';
import { BatchedContentNotifier } from '../common/batched-content-notifier';
import { ContentEvents } from '../common/content-events';

/** Like counts changed: the public caches hear it at once, then at most once per 5 s. */
@Injectable()
export class LikeChangeNotifier extends BatchedContentNotifier {
  constructor(events: ContentEvents) {
    super(events, 'likes');
  }
}

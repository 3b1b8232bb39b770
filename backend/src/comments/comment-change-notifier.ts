import { Injectable } from '@nestjs/common';
import { BatchedContentNotifier } from '../common/batched-content-notifier';
import { ContentEvents } from '../common/content-events';

/** A post's comments changed: the public caches hear it at once, then at most once per 5 s. */
@Injectable()
export class CommentChangeNotifier extends BatchedContentNotifier {
  constructor(events: ContentEvents) {
    super(events, 'comments');
  }
}

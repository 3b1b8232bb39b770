/** What an unsubscribe link stops, in a sentence for /unsubscribe, from the API's own words. */
import type { UnsubscribeInfo } from './notifications';

export function describeUnsubscribe(info: UnsubscribeInfo): string {
  return `This link stops ${info.description}.`;
}

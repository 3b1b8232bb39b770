/** What an unsubscribe link stops, in a sentence for /unsubscribe (issue 19 §1). */
import type { UnsubscribeInfo } from './notifications';
import { EVENT_LABELS } from './texts';

export function describeUnsubscribe(info: UnsubscribeInfo): string {
  const what = info.type ? `e-mails about “${EVENT_LABELS[info.type] ?? info.type}”` : 'all notification e-mails';
  return `This stops ${what} to ${info.email}.`;
}

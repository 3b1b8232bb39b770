/**
 * The newsletter send of one post, from the admin's edit page (docs/newsletter.md#sending):
 * its status and counts, 'Publish without e-mail', 'Send a test to me', 'Retry failed' and the
 * failed or bounced rows. Through the session's client, like every back-office call.
 */
import { browserApi } from '../../lib/api/client';
import { unwrap } from '../../lib/api/errors';

export interface NewsletterSend {
  postId: number;
  sendEmail: boolean;
  state: string;
  recipients: number;
  counts: { queued: number; sent: number; failed: number; bounced: number; suppressed: number; skipped: number };
  finishedAt: string | null;
}

export interface NewsletterDelivery {
  id: number;
  email: string;
  state: string;
  attempts: number;
  lastError: string | null;
}

export function sendStatus(postId: number): Promise<NewsletterSend> {
  return unwrap(browserApi().GET('/api/v1/newsletter/posts/{postId}/send', { params: { path: { postId } } }));
}

export function setSendEmail(postId: number, sendEmail: boolean): Promise<NewsletterSend> {
  return unwrap(browserApi().PUT('/api/v1/newsletter/posts/{postId}/send', { params: { path: { postId } }, body: { sendEmail } }));
}

export async function sendTest(postId: number): Promise<string> {
  return (await unwrap(browserApi().POST('/api/v1/newsletter/posts/{postId}/test', { params: { path: { postId } } }))).to;
}

export async function retryFailed(postId: number): Promise<number> {
  return (await unwrap(browserApi().POST('/api/v1/newsletter/posts/{postId}/send/retry-failed', { params: { path: { postId } } })))
    .requeued;
}

/** The failed and bounced rows first (the first page). */
export async function problemDeliveries(postId: number): Promise<NewsletterDelivery[]> {
  const page = await unwrap(
    browserApi().GET('/api/v1/newsletter/posts/{postId}/deliveries', { params: { path: { postId }, query: { size: 20 } } }),
  );
  return page.items.filter((item) => item.state === 'failed' || item.state === 'bounced');
}

/** The e-mail's HTML page for the sandboxed preview frame (served with its own Content-Security-Policy). */
export const previewUrl = (postId: number) => `/api/v1/newsletter/posts/${postId}/preview.html`;

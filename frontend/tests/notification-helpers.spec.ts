import { expect, test } from './fixtures';
import { notificationSentence } from '../src/features/notifications/notifications';

/** The notification list's wording (no browser page needed). */
test.describe('notification sentences', () => {
  const actor = { id: 1, fullName: 'Lan Admin', avatar: null };
  const post = { id: 7, slug: 'harbour', title: 'Harbour lights' };

  test('an approval says the post was published; one with a publish time says when', () => {
    expect(notificationSentence({ type: 'POST_APPROVED', actor, post })).toBe(
      'Lan Admin approved and published your post “Harbour lights”',
    );
    expect(notificationSentence({ type: 'POST_APPROVED', actor, post, publishAt: null })).toBe(
      'Lan Admin approved and published your post “Harbour lights”',
    );
    expect(notificationSentence({ type: 'POST_APPROVED', actor, post, publishAt: '2026-12-01T02:00:00Z' })).toBe(
      'Lan Admin approved your post “Harbour lights”, scheduled for December 1, 2026 at 9:00 AM GMT+7',
    );
  });
});

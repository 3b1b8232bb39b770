import { notificationSegments, notificationSentence } from './notification-wording';

const ZONE = 'Asia/Ho_Chi_Minh';
const facts = { actorName: 'Lan Admin', postTitle: 'Harbour lights' };

describe('notification wording (one for the page and the e-mails)', () => {
  it('says who did what on which post, for every type', () => {
    const sentence = (type: string) => notificationSentence({ type, ...facts }, ZONE);
    expect(sentence('COMMENT_REPLY')).toBe('Lan Admin replied to your comment on “Harbour lights”');
    expect(sentence('POST_COMMENT')).toBe('Lan Admin commented on your post “Harbour lights”');
    expect(sentence('POST_APPROVED')).toBe('Lan Admin approved and published your post “Harbour lights”');
    expect(sentence('POST_REJECTED')).toBe('Lan Admin rejected your post “Harbour lights”');
    expect(sentence('COMMENT_HIDDEN')).toBe('Lan Admin hid your comment on “Harbour lights”');
    expect(sentence('POST_SUBMITTED')).toBe('Lan Admin submitted “Harbour lights” for review');
    expect(sentence('COMMENT_REPORTED')).toBe('Lan Admin reported a comment on “Harbour lights”');
    expect(sentence('SOMETHING_NEW')).toBe('Something happened on Inkwell');
  });

  it('a scheduled approval names the time in the site zone, from a Date or an ISO string', () => {
    expect(notificationSentence({ type: 'POST_APPROVED', ...facts, publishAt: '2026-12-01T02:00:00Z' }, ZONE)).toMatch(
      /^Lan Admin approved your post “Harbour lights”, scheduled for December 1, 2026(,| at) 9:00 AM GMT\+7$/,
    );
    expect(notificationSentence({ type: 'POST_APPROVED', ...facts, publishAt: new Date('2026-12-01T02:00:00Z') }, ZONE)).toBe(
      notificationSentence({ type: 'POST_APPROVED', ...facts, publishAt: '2026-12-01T02:00:00Z' }, ZONE),
    );
    expect(notificationSentence({ type: 'POST_APPROVED', ...facts, publishAt: null }, ZONE)).toBe(
      'Lan Admin approved and published your post “Harbour lights”',
    );
  });

  it('emphasises the names; without an actor or a post it says someone, a moderator, a post', () => {
    expect(
      notificationSegments({ type: 'POST_COMMENT', ...facts }, ZONE)
        .filter((segment) => segment.strong)
        .map((segment) => segment.text),
    ).toEqual(['Lan Admin', '“Harbour lights”']);
    expect(notificationSentence({ type: 'POST_COMMENT', actorName: null, postTitle: null }, ZONE)).toBe(
      'Someone commented on your post a post',
    );
    expect(notificationSentence({ type: 'COMMENT_HIDDEN', actorName: null, postTitle: 'T' }, ZONE)).toBe(
      'A moderator hid your comment on “T”',
    );
    expect(notificationSegments({ type: 'COMMENT_REPLY', actorName: null, postTitle: 'T' }, ZONE)[0]).toEqual({
      text: 'Someone',
      strong: false,
    });
  });
});

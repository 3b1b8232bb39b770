import { digestMail, passwordResetMail, verificationCodeMail } from './mail.templates';

// The e-mails count with the plural rules (isomorphic/plural.ts), never '1 minutes'.
describe('counts in the e-mails', () => {
  const item = { summary: 'Lan replied to your comment on “Hello”', quote: null, link: 'http://localhost:3000/blog/hello#comment-1' };

  it('the digest says 1 new notification, 2 new notifications', () => {
    expect(digestMail('Thu', [item], 'http://localhost:3000/u').subject).toBe('Inkwell: 1 new notification');
    expect(digestMail('Thu', [item, item], 'http://localhost:3000/u').subject).toBe('Inkwell: 2 new notifications');
    expect(digestMail('Thu', [item], 'http://localhost:3000/u').gist).toContain('1 notification');
  });

  it('a code or link that lasts 1 minute says so in the singular', () => {
    expect(verificationCodeMail('Thu', '123456', 1).text).toContain('The code expires in 1 minute.');
    expect(verificationCodeMail('Thu', '123456', 15).html).toContain('The code expires in 15 minutes.');
    expect(passwordResetMail('Thu', 'http://x/r', 1).text).toContain('expires in 1 minute)');
  });
});

import { mailLine } from '../common/console-output';
import { notificationGist } from './mail.service';
import { digestMail, notificationMail, passwordResetMail, verificationCodeMail } from './mail.templates';

// Beside the templates (common/ knows no feature): a mail printed to the terminal is one line.
describe('A mail as the terminal shows it', () => {
  it('writes a verification mail as one line with its code', () => {
    const mail = verificationCodeMail('Thu Trang', '035792', 15);
    const line = mailLine('trang@example.test', mail.subject, mail.gist);
    expect(line).toBe('E-mail to trang@example.test: "Your Inkwell verification code": code 035792');
    expect(line).not.toContain('\n');
  });

  it('writes a password-reset mail as one line with its link', () => {
    const link = 'http://localhost:3000/reset-password?token=abc123';
    const mail = passwordResetMail('Thu Trang', link, 60);
    expect(mailLine('trang@example.test', mail.subject, mail.gist)).toBe(
      `E-mail to trang@example.test: "Reset your Inkwell password": link ${link}`,
    );
  });

  it('writes a notification mail as one line with its link, then its unsubscribe link', () => {
    const unsubscribe = 'http://localhost:3000/unsubscribe?token=7.COMMENT_REPLY.sig';
    const item = { summary: 'Lan replied to your comment on “Hello”.', quote: 'Hi', link: 'http://localhost:3000/blog/hello#comment-3' };
    const mail = notificationMail('Thu Trang', 'New reply to your comment', item, unsubscribe, 'replies');
    const line = mailLine('trang@example.test', mail.subject, notificationGist(mail, unsubscribe));
    expect(line).toBe(`E-mail to trang@example.test: "New reply to your comment": link ${item.link}; unsubscribe ${unsubscribe}`);
    const digest = digestMail('Thu Trang', [item, item], unsubscribe);
    expect(mailLine('trang@example.test', digest.subject, notificationGist(digest, unsubscribe))).toBe(
      `E-mail to trang@example.test: "Inkwell: 2 new notifications": 2 notifications; unsubscribe ${unsubscribe}`,
    );
  });
});

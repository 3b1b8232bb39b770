import { mailLine } from '../common/console-output';
import { passwordResetMail, verificationCodeMail } from './mail.templates';

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
    expect(mailLine('trang@example.test', mail.subject, mail.gist)).toBe(`E-mail to trang@example.test: "Reset your Inkwell password": link ${link}`);
  });
});

import { isTerminal, smtpServerOf, startupSummary } from './console-output';

describe('What a terminal shows', () => {
  it('tells a terminal from a pipe or a file', () => {
    expect(isTerminal({ isTTY: true })).toBe(true);
    expect(isTerminal({})).toBe(false);
    expect(isTerminal({ isTTY: false })).toBe(false);
  });

  it('shows an SMTP server without its user and password', () => {
    expect(smtpServerOf('smtps://mailer:s3cret@smtp.example.test:465')).toBe('smtps://smtp.example.test:465');
  });

  it('sums up a first start: URL, docs, the new administrator with the password, mail printed here, the data folder', () => {
    const summary = startupSummary({
      url: 'http://localhost:3000',
      createdAdmin: { email: 'admin@example.com', password: 'ny47nhDH2uK2ugQa' },
      embeddedDataDir: '/srv/inkwell/data',
    });
    const lines = summary.split('\n').map((line) => line.trimEnd());
    expect(lines).toContain('Inkwell is running at http://localhost:3000');
    expect(lines).toContain('  API docs:       http://localhost:3000/api/docs');
    expect(lines).toContain('  Administrator:  admin@example.com / ny47nhDH2uK2ugQa');
    expect(lines).toContain('  Sign in:        http://localhost:3000/login');
    expect(lines).toContain('  E-mails:        printed here, one line each (no SMTP_URL)');
    expect(lines).toContain('  Data:           /srv/inkwell/data (embedded PostgreSQL)');
    // Short enough to read at a glance.
    expect(lines.length).toBeLessThanOrEqual(14);
  });

  it('on later starts and with ADMIN_PASSWORD never shows a password', () => {
    const later = startupSummary({ url: 'https://blog.example.test', smtpUrl: 'smtp://u:p@mail.example.test:587' });
    expect(later).not.toContain('Administrator');
    expect(later).toContain('sent through smtp://mail.example.test:587');
    expect(later).not.toContain('u:p');
    expect(later).toContain('Data:           DATABASE_URL');
    const configured = startupSummary({ url: 'https://blog.example.test', createdAdmin: { email: 'boss@example.test' } });
    expect(configured).toContain('boss@example.test (password from ADMIN_PASSWORD)');
  });
});

/**
 * What a person at a terminal reads (stdout is a TTY, e.g. `npm start` by hand): a short start-up
 * summary printed last, and each e-mail written out without SMTP as one readable line. When stdout
 * is not a terminal (production, containers, tests) the output stays JSON log lines only.
 */

/** Whether stdout is a person's terminal. */
export function isTerminal(stream: { isTTY?: boolean } = process.stdout): boolean {
  return stream.isTTY === true;
}

/** The administrator the first start created; `password` is unset when it came from ADMIN_PASSWORD. */
export interface CreatedAdmin {
  email: string;
  password?: string;
}

export interface StartupFacts {
  /** PUBLIC_URL. */
  url: string;
  /** Set only on the start that created the first administrator. */
  createdAdmin?: CreatedAdmin;
  /** SMTP_URL, when e-mails go out through SMTP. */
  smtpUrl?: string;
  /** The embedded PostgreSQL's DATA_DIR; unset with DATABASE_URL. */
  embeddedDataDir?: string;
}

/** An SMTP URL as it may be shown: scheme, host and port, never the user or password. */
export function smtpServerOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}

/** The start-up summary: URL, API docs, the new administrator (first start), where mail goes, where data lives. */
export function startupSummary(facts: StartupFacts): string {
  const rows: [string, string][] = [['API docs', `${facts.url}/api/docs`]];
  if (facts.createdAdmin) {
    const { email, password } = facts.createdAdmin;
    rows.push(['Administrator', password === undefined ? `${email} (password from ADMIN_PASSWORD)` : `${email} / ${password}`]);
    if (password !== undefined) rows.push(['', 'shown on this first start only: keep it (or set ADMIN_PASSWORD)']);
    rows.push(['Sign in', `${facts.url}/login`]);
  }
  rows.push(['E-mails', facts.smtpUrl ? `sent through ${smtpServerOf(facts.smtpUrl)}` : 'printed here, one line each (no SMTP_URL)']);
  rows.push(['Data', facts.embeddedDataDir ? `${facts.embeddedDataDir} (embedded PostgreSQL)` : 'DATABASE_URL']);
  const width = 'Administrator'.length; // the longest label: values line up on every start
  const rule = '─'.repeat(64);
  return [
    '',
    rule,
    `Inkwell is running at ${facts.url}`,
    ...rows.map(([label, value]) => `  ${(label ? `${label}:` : '').padEnd(width + 1)}  ${value}`),
    'Ctrl-C stops it.',
    rule,
    '',
  ].join('\n');
}

/** One e-mail that was not sent over SMTP, as one line: to, subject and what the reader needs from it (a code, a link). */
export function mailLine(to: string, subject: string, gist: string): string {
  return `E-mail to ${to}: "${subject}": ${gist}`;
}

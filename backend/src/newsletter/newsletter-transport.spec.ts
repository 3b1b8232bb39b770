import { quotedPrintableInline, smtpOutcome } from './newsletter-transport';

/** Decodes quoted-printable as a mail client does: soft breaks joined, =XX bytes read as UTF-8. */
function decode(qp: string): string {
  const bytes = qp.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

describe('newsletter transport', () => {
  it('writes a value as quoted-printable on lines of at most 76 characters, soft breaks around it', () => {
    const url = `https://blog.example.com/newsletter/unsubscribe?token=u.123.${'x'.repeat(43)}&a=b`;
    for (const value of [url, 'Nguyễn Thị Minh Khai & co', '', 'a'.repeat(300)]) {
      const encoded = quotedPrintableInline(value);
      expect(decode(`before${encoded}after`)).toBe(`before${value}after`);
      for (const line of encoded.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
      // No =XX cut by a soft break.
      expect(encoded).not.toMatch(/=[0-9A-F]?=\r\n/);
    }
  });

  it('reads SMTP answers: 5xx permanent, 4xx temporary, no code the network', () => {
    expect(smtpOutcome({ responseCode: 550 })).toBe('hard');
    expect(smtpOutcome({ responseCode: 452 })).toBe('soft');
    expect(smtpOutcome(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNECTION' }))).toBe('network');
  });
});

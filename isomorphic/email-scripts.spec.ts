import { asciiDomain, emailForAdmins, isHighlyRestrictive, mixesScripts } from './email-scripts';

describe("look-alike e-mails: UTS #39 'highly restrictive' per label", () => {
  it('accepts a label of one script, with Common and Inherited characters', () => {
    expect(isHighlyRestrictive('dupx')).toBe(true);
    expect(isHighlyRestrictive('ann.lee+news_2024')).toBe(true);
    expect(isHighlyRestrictive('дурх')).toBe(true);
    expect(isHighlyRestrictive('иван.петров-2')).toBe(true);
    expect(isHighlyRestrictive('αλφα')).toBe(true);
    expect(isHighlyRestrictive('δοκιμή')).toBe(true);
    expect(isHighlyRestrictive('')).toBe(true);
  });

  it('accepts Vietnamese: Latin with diacritics, precomposed or with combining marks (Inherited)', () => {
    expect(isHighlyRestrictive('nguyễn.thị.hương')).toBe(true);
    expect(isHighlyRestrictive('đặng')).toBe(true);
    expect(isHighlyRestrictive('nguye\u0302\u0303n')).toBe(true);
  });

  it('refuses Latin mixed with Cyrillic or Greek, whichever comes first', () => {
    expect(isHighlyRestrictive('du\u0440x')).toBe(false);
    expect(isHighlyRestrictive('\u0440aypal')).toBe(false);
    expect(isHighlyRestrictive('p\u0430ypal')).toBe(false);
    expect(isHighlyRestrictive('g\u03bfogle')).toBe(false);
    expect(isHighlyRestrictive('\u0430\u03b1')).toBe(false);
  });

  it('accepts the three mixes with Han: Latin + Han + kana, Latin + Han + Bopomofo, Latin + Han + Hangul', () => {
    expect(isHighlyRestrictive('tanaka東京')).toBe(true);
    expect(isHighlyRestrictive('user漢字')).toBe(true);
    expect(isHighlyRestrictive('abc日本語ひらがなカタカナ')).toBe(true);
    expect(isHighlyRestrictive('abc中文ㄅㄆ')).toBe(true);
    expect(isHighlyRestrictive('kim한국漢字')).toBe(true);
    expect(isHighlyRestrictive('ひらがな漢字')).toBe(true);
  });

  it('refuses the mixes outside those sets', () => {
    expect(isHighlyRestrictive('한국ひらがな')).toBe(false);
    expect(isHighlyRestrictive('ㄅㄆひらがな')).toBe(false);
    expect(isHighlyRestrictive('東京\u0440')).toBe(false);
    expect(isHighlyRestrictive('abc\u05d0')).toBe(false);
  });

  it('judges the local part as a whole and the domain label by label', () => {
    expect(mixesScripts('du\u0440x@example.com')).toBe(true);
    expect(mixesScripts('du\u0440x@example.com'.normalize('NFKC').toLowerCase())).toBe(true);
    expect(mixesScripts('dupx@ex\u0430mple.com')).toBe(true);
    // A dot does not make two labels of a local part.
    expect(mixesScripts('dup.\u0440x@example.com')).toBe(true);
    expect(mixesScripts('dupx@example.com')).toBe(false);
    expect(mixesScripts('иван@пример.рф')).toBe(false);
    // A Cyrillic domain under a Latin top-level domain: each label is single-script.
    expect(mixesScripts('ivan@пример.com')).toBe(false);
    expect(mixesScripts('nguyễn@ví-dụ.vn')).toBe(false);
    expect(mixesScripts('tanaka東京@例え.jp')).toBe(false);
  });
});

describe('e-mails as the back office shows them', () => {
  it('keeps a plain address as one ASCII run each side, nothing flagged', () => {
    expect(emailForAdmins('ann@example.com')).toEqual({
      local: [{ text: 'ann', ascii: true }],
      domain: [{ text: 'example.com', ascii: true }],
      flagged: false,
    });
  });

  it('marks the non-ASCII runs of the local part with their code points', () => {
    expect(emailForAdmins('du\u0440x@example.com')).toEqual({
      local: [
        { text: 'du', ascii: true },
        { text: '\u0440', ascii: false, codePoints: 'U+0440' },
        { text: 'x', ascii: true },
      ],
      domain: [{ text: 'example.com', ascii: true }],
      flagged: true,
    });
  });

  it('shows an international domain in punycode, so a look-alike domain differs from the real one', () => {
    expect(emailForAdmins('ivan@пример.рф').domain).toEqual([{ text: 'xn--e1afmkfd.xn--p1ai', ascii: true }]);
    const lookAlike = emailForAdmins('dupx@ex\u0430mple.com');
    expect(lookAlike.domain).toEqual([{ text: 'xn--exmple-4nf.com', ascii: true }]);
    expect(lookAlike.flagged).toBe(true);
  });

  it('marks a domain that has no ASCII form instead of passing it to the URL parser', () => {
    expect(asciiDomain('exa\u0301mple.com/path')).toBeUndefined();
    expect(emailForAdmins('a@b\u00e9/x').domain).toEqual([
      { text: 'b', ascii: true },
      { text: '\u00e9', ascii: false, codePoints: 'U+00E9' },
      { text: '/x', ascii: true },
    ]);
  });
});

import { jsonDepthExceeds, MAX_JSON_DEPTH } from './request-limits';

describe('jsonDepthExceeds', () => {
  const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('counts arrays and objects, up to the limit and one beyond', () => {
    expect(jsonDepthExceeds(Buffer.from(deep(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(deep(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonDepthExceeds('{"a":'.repeat(MAX_JSON_DEPTH + 1) + '1' + '}'.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds('['.repeat(5000))).toBe(true);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ bio: '['.repeat(100), quote: '\\"[[[[', nested: [[{ a: '{{{{' }]] });
    expect(jsonDepthExceeds(Buffer.from(text), 4)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from(text), 3)).toBe(true);
    expect(jsonDepthExceeds(text, 4)).toBe(false);
    expect(jsonDepthExceeds(text, 3)).toBe(true);
    expect(jsonDepthExceeds('["a\\\\"]]]', 1)).toBe(false);
    expect(jsonDepthExceeds('["a\\\\",[[', 2)).toBe(true);
  });

  it('reads UTF-8 bytes and decoded text alike', () => {
    const text = JSON.stringify({ title: 'Tiếng Việt 😀 [', tags: [['x']] });
    expect(jsonDepthExceeds(Buffer.from(text), 3)).toBe(false);
    expect(jsonDepthExceeds(text, 3)).toBe(false);
    expect(jsonDepthExceeds(text, 2)).toBe(true);
  });

  it('scans a 2 MB body in well under 100 ms (as long as parsing it)', () => {
    const body = Buffer.from(JSON.stringify({ content: 'Words [and] {braces} "quoted"\n'.repeat(70_000) }));
    expect(body.length).toBeGreaterThan(2_000_000);
    const started = process.hrtime.bigint();
    expect(jsonDepthExceeds(body)).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(100);
    // A body of many small strings and arrays (worst case for the jumps) stays well under a frame too.
    const tags = Buffer.from(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => [`t${i}`, i])));
    const again = process.hrtime.bigint();
    expect(jsonDepthExceeds(tags)).toBe(false);
    expect(Number(process.hrtime.bigint() - again) / 1e6).toBeLessThan(100);
  });
});

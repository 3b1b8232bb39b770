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

  // Correctness on bodies of the largest size only: timings belong to the benchmark, not to tests.
  it('scans 2 MB bodies: long strings with brackets inside, many small arrays, and depth at the very end', () => {
    const body = Buffer.from(JSON.stringify({ content: 'Words [and] {braces} "quoted"\n'.repeat(70_000) }));
    expect(body.length).toBeGreaterThan(2_000_000);
    expect(jsonDepthExceeds(body)).toBe(false);
    const tags = Buffer.from(JSON.stringify(Array.from({ length: 100_000 }, (_, i) => [`t${i}`, i])));
    expect(jsonDepthExceeds(tags)).toBe(false);
    const deepAtTheEnd = Buffer.concat([body.subarray(0, body.length - 1), Buffer.from(`, "x": ${'['.repeat(40)}${']'.repeat(40)}}`)]);
    expect(jsonDepthExceeds(deepAtTheEnd)).toBe(true);
  });
});

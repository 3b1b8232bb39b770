import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInlineHashes } from './csp-script-hashes';

describe('readInlineHashes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-csp-hashes-'));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };
  const script = ["'sha256-0chmwFk0zaA528yFfGV7J9ppIpdfTPPULncDF3WG7Zs='"];
  const style = ["'sha256-BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB='"];

  it("reads the build's lists of hash sources", () => {
    expect(readInlineHashes(file('good.json', { scriptHashes: script, styleHashes: style }))).toEqual({
      scriptHashes: script,
      styleHashes: style,
    });
  });

  it('has none without a build', () => {
    expect(readInlineHashes(join(dir, 'missing.json'))).toEqual({ scriptHashes: [], styleHashes: [] });
  });

  it("refuses anything but hash sources (an 'unsafe-inline' slipped into the file stops start-up)", () => {
    expect(() => readInlineHashes(file('loose.json', { scriptHashes: ["'unsafe-inline'"], styleHashes: style }))).toThrow(
      /rebuild the frontend/,
    );
    expect(() => readInlineHashes(file('loose-style.json', { scriptHashes: script, styleHashes: ["'unsafe-inline'"] }))).toThrow(
      /rebuild the frontend/,
    );
    // A file from a build before style hashes: rebuild, rather than pages without their island styles.
    expect(() => readInlineHashes(file('older.json', { scriptHashes: script }))).toThrow(/rebuild the frontend/);
    expect(() => readInlineHashes(file('shape.json', { hashes: [] }))).toThrow(/rebuild the frontend/);
  });
});

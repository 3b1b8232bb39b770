import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readInlineScriptHashes } from './csp-script-hashes';

describe('readInlineScriptHashes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'inkwell-csp-hashes-'));
  const file = (name: string, content: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  it("reads the build's list of hash sources", () => {
    const hashes = ["'sha256-0chmwFk0zaA528yFfGV7J9ppIpdfTPPULncDF3WG7Zs='"];
    expect(readInlineScriptHashes(file('good.json', { scriptHashes: hashes }))).toEqual(hashes);
  });

  it('has none without a build', () => {
    expect(readInlineScriptHashes(join(dir, 'missing.json'))).toEqual([]);
  });

  it("refuses anything but hash sources (an 'unsafe-inline' slipped into the file stops start-up)", () => {
    expect(() => readInlineScriptHashes(file('loose.json', { scriptHashes: ["'unsafe-inline'"] }))).toThrow(/rebuild the frontend/);
    expect(() => readInlineScriptHashes(file('shape.json', { hashes: [] }))).toThrow(/rebuild the frontend/);
  });
});

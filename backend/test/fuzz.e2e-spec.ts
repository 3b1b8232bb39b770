import { writeFileSync } from 'node:fs';
import { ApiFuzzer, CALLERS, createApiFuzzer, formatReport } from './helpers/api-fuzz';
import { createTestApp, TestApp } from './helpers/app';

/**
 * The API fuzz property (helpers/api-fuzz.ts) over every operation of the OpenAPI document and
 * every caller. `npm test` runs a few hundred cases with a fixed seed; `npm run fuzz -- --runs
 * 5000 [--seed N]` runs this file with FUZZ_RUNS / FUZZ_SEED and prints the report it writes to
 * FUZZ_REPORT.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 320);
const SEED = Number(process.env.FUZZ_SEED ?? 20260808);

describe('API fuzz: hostile requests to every operation', () => {
  let t: TestApp;
  let fuzzer: ApiFuzzer;

  beforeAll(async () => {
    t = await createTestApp();
    fuzzer = await createApiFuzzer(t);
  });
  afterAll(async () => {
    fuzzer?.restore();
    await t.close();
  });

  it(
    `never answers 5xx and always answers the envelope without internals (${RUNS} cases, seed ${SEED})`,
    async () => {
      const report = await fuzzer.run({
        runs: RUNS,
        seed: SEED,
        onProgress: process.env.FUZZ_PROGRESS
          ? (done, total) => done % 250 === 0 && process.stderr.write(`  ${done}/${total} requests\n`)
          : undefined,
      });
      if (process.env.FUZZ_REPORT)
        writeFileSync(process.env.FUZZ_REPORT, JSON.stringify({ ...report, text: formatReport(report) }, null, 2));
      // Every operation of the document was fuzzed, by every caller.
      expect(Object.keys(report.byOperation).sort()).toEqual(fuzzer.operations.map((op) => op.operationId).sort());
      expect(report.requests).toBeGreaterThanOrEqual(fuzzer.operations.length * CALLERS.length);
      if (report.failures.length) throw new Error(formatReport(report));
      expect(report.serverErrors).toBe(0);
    },
    Math.max(120_000, RUNS * 200),
  );
});

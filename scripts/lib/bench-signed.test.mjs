// `node --test scripts/lib/`: the rows are judged by their own-bytes ratio and their other conditions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issue26Rows, judgeIssue26Row } from './bench-signed.mjs';

const rows = issue26Rows({ small: false });
const spec = (key) => rows.find((row) => row.key === key);
const finder = (measured) => (phase, key) => measured[`${phase}/${key}`];

describe('the targets', () => {
  it('judges a share by the own-bytes ratio, not by req/s', () => {
    const pass = judgeIssue26Row(spec('quickStats'), finder({ 'signed/quickStats': { rps: 10, ownRatio: 0.25, p50: 5, p99: 9 } }));
    const fail = judgeIssue26Row(spec('quickStats'), finder({ 'signed/quickStats': { rps: 10_000, ownRatio: 0.249, p50: 5, p99: 9 } }));
    assert.equal(pass.verdict, 'PASS');
    assert.equal(fail.verdict, 'FAIL');
    assert.equal(fail.target, '>= 25 %');
  });

  it('wants the 100,000-post admin list at 5 % and its p99 within 10x its p50, and says why it was skipped', () => {
    const row = (p99) => ({ 'signed 100k/adminPosts100k': { rps: 100, ownRatio: 0.06, p50: 100, p99 } });
    assert.equal(judgeIssue26Row(spec('adminPosts100k'), finder(row(1_000))).verdict, 'PASS');
    const slowTail = judgeIssue26Row(spec('adminPosts100k'), finder(row(1_001)));
    assert.equal(slowTail.verdict, 'FAIL');
    assert.match(slowTail.detail, /p99 1001 ms = 10\.0x p50/);
    const skipped = judgeIssue26Row(spec('adminPosts100k'), finder({}), { 'signed 100k': 'no 100,000-post data set' });
    assert.deepEqual([skipped.verdict, skipped.detail], ['SKIP', 'no 100,000-post data set']);
  });

  it("judges the signed-in post page against 90 % of the anonymous cached page's req/s in the same run", () => {
    const run = (signedRps) =>
      finder({ 'signed/postAnon': { rps: 1000, ownRatio: 1.1 }, 'signed/postSigned': { rps: signedRps, ownRatio: 0.01 } });
    assert.equal(judgeIssue26Row(spec('postSigned'), run(900)).verdict, 'PASS');
    assert.equal(judgeIssue26Row(spec('postSigned'), run(899)).verdict, 'FAIL');
    assert.equal(judgeIssue26Row(spec('postSigned'), finder({ 'signed/postSigned': { rps: 900 } })).verdict, 'SKIP');
  });

  it('names the deep admin page it asked', () => {
    const judged = judgeIssue26Row(
      spec('usersDeep'),
      finder({ 'signed/usersDeep': { path: '/api/v1/admin/users?page=1025&size=10', rps: 1, ownRatio: 0.01, p50: 1, p99: 1 } }),
    );
    assert.equal(judged.name, 'admin users page 1025');
    assert.equal(judgeIssue26Row(spec('usersDeep'), finder({})).name, 'admin users page 4000');
  });
});

it('the API-token row is judged against the session row of the same route', () => {
  const tokenRow = rows.find((row) => row.key === 'profileToken');
  // By the own-bytes ratio, not req/s: a ceiling that ran slower during the token's row does not count against it.
  const same = judgeIssue26Row(
    tokenRow,
    finder({ 'signed/profile': { rps: 1000, ownRatio: 0.2 }, 'signed/profileToken': { rps: 800, ownRatio: 0.19 } }),
  );
  assert.equal(same.verdict, 'PASS');
  assert.match(same.target, /the session row's ratio/);
  const slower = judgeIssue26Row(
    tokenRow,
    finder({ 'signed/profile': { rps: 1000, ownRatio: 0.2 }, 'signed/profileToken': { rps: 1000, ownRatio: 0.16 } }),
  );
  assert.equal(slower.verdict, 'FAIL');
  assert.equal(judgeIssue26Row(tokenRow, finder({})).verdict, 'SKIP');
});

// The 'moderation' phase of `npm run bench`: the moderation queue's page 0 over the
// seeded comments (50,000 with seed:demo --comments 50000) with 5,000 open reports. The phase
// seeds the reports itself, through the API as demo readers (its server lifts the daily report
// limit), so a data dir seeded before moderation existed works; reports already there count
// (409), so a rerun adds none. BENCH_SMALL wants a tenth of them.

/** The server's environment: one reader may report every comment the phase needs. */
export const MODERATION_ENV = { REPORT_LIMIT_PER_DAY: '100000' };

const READERS = ['reader-2', 'reader-3', 'reader-4', 'reader-5', 'reader-6'];
const DEMO_DOMAIN = 'demo.inkwell.test';
const QUEUE_SIZE = 20;
const PARALLEL = 16;
const REASONS = ['SPAM', 'HARASSMENT', 'OFF_TOPIC'];

export const queuePath = (filter, sort) => `/api/v1/admin/comments?filter=${filter}&sort=${sort}&page=0&size=${QUEUE_SIZE}`;

/**
 * The phase's routes, after making sure `wanted` reports exist: each demo reader reports a run
 * of the newest comments (the runs overlap, so comments have one or two reports).
 */
export async function moderationRoutes(base, { signIn, getJson, log, small, adminEmail }) {
  const wanted = small ? 500 : 5_000;
  const adminToken = await signIn(base, adminEmail);
  const asAdmin = { authorization: `Bearer ${adminToken}` };
  const perReader = Math.ceil(wanted / READERS.length);
  // Reader i starts half a run after reader i - 1; half a run more of room for the readers' own comments (403, skipped).
  const step = Math.floor(perReader / 2);
  const needed = (READERS.length - 1) * step + Math.ceil(perReader * 1.5);
  const ids = [];
  for (let page = 0; ids.length < needed; page += 1) {
    const list = await getJson(`${base}/api/v1/comments/admin/recent?page=${page}&size=100`, asAdmin);
    ids.push(...list.content.map((comment) => comment.id));
    if (list.last) break;
  }
  let reports = 0;
  for (const [index, reader] of READERS.entries()) {
    const token = await signIn(base, `${reader}@${DEMO_DOMAIN}`);
    const mine = ids.slice(index * step);
    let done = 0;
    for (let start = 0; start < mine.length && done < perReader; start += PARALLEL) {
      const batch = mine.slice(start, start + Math.min(PARALLEL, perReader - done));
      const statuses = await Promise.all(
        batch.map(async (id, offset) => {
          const response = await fetch(`${base}/api/v1/comments/${id}/reports`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ reason: REASONS[(id + offset) % REASONS.length] }),
          });
          await response.arrayBuffer();
          return response.status;
        }),
      );
      // 201 a new report, 409 one from an earlier run; 403 is the reader's own comment (skipped).
      const counted = statuses.filter((status) => status === 201 || status === 409).length;
      const failed = statuses.filter((status) => ![201, 403, 409].includes(status));
      if (failed.length) throw new Error(`moderation: reporting answered ${failed.join(', ')}`);
      done += counted;
    }
    reports += done;
  }
  const reported = await getJson(`${base}${queuePath('reported', 'reports')}`, asAdmin);
  const all = await getJson(`${base}${queuePath('all', 'newest')}`, asAdmin);
  log(
    `moderation: ${all.totalElements} comments, ${reports} open reports on ${reported.totalElements} comments (top: ${reported.content[0]?.reportCount ?? 0})`,
  );
  if (reports < wanted)
    throw new Error(`moderation: only ${reports} reports (want ${wanted}): seed more comments (seed:demo --comments 50000)`);
  return [
    // References on the same server: the signed-in floor and the back-office list of the admin phase (its target: 2 %).
    ['API users/profile (signed-in floor)', '/api/v1/users/profile', { headers: asAdmin }, 'moderationFloor'],
    ['API admin users page=0 (reference)', '/api/v1/admin/users?page=0&size=10', { headers: asAdmin }, 'moderationUsersReference'],
    ['API moderation queue page 0 (reported, most)', queuePath('reported', 'reports'), { headers: asAdmin }, 'queueReported'],
    ['API moderation queue page 0 (reported, new)', queuePath('reported', 'newest'), { headers: asAdmin }, 'queueReportedNewest'],
    ['API moderation queue page 0 (all, newest)', queuePath('all', 'newest'), { headers: asAdmin }, 'queueAll'],
  ];
}

/** The queue's page 0 at least 3 % of the ceiling (each of its views). */
export function moderationTargets(find, ratio, percent) {
  return [
    ['API moderation queue page 0 (most reported) >= 3 % of ceiling', 'queueReported'],
    ['API moderation queue page 0 (reported, newest) >= 3 % of ceiling', 'queueReportedNewest'],
    ['API moderation queue page 0 (all, newest) >= 3 % of ceiling', 'queueAll'],
  ].map(([name, key]) => [name, [find('moderation', key)], (row) => ratio(row) >= 0.03, percent]);
}

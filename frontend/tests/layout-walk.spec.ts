import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { adminApi } from './admin-api';
import { expect, test } from './fixtures';
import { credentialsOf, loadImages, ROLES, routePath, ROUTES, seedWalkData, settle, WIDTHS, type WalkData } from './walk-routes';

/**
 * The layout walk ("How it is checked"): every route × role of walk-routes.ts at 1280,
 * 390 and 320 px. A route fails when
 * - a link, button, table header or table cell (or a definition list's term or value) breaks a line
 *   inside a word ('Hom/e', 'Lo/gi/n');
 * - an image is drawn with an aspect ratio more than 5 % off its natural one (object-fit other
 *   than `fill` keeps the ratio: cover crops, contain letterboxes);
 * - a row action (a link or button in a table row) is out of reach: clipped by an ancestor that
 *   cannot scroll, or outside the viewport without a scroll container (overflow-x auto/scroll)
 *   that can bring it into view.
 * All problems of all routes are collected and reported as one list (route, role, width, element,
 * text). Cheap by design: one test, context and page per role; each route loads once and the
 * viewport is resized on the loaded page (nothing reloads per width).
 */

/** A word longer than this is a generated token (another journey's 100-character test names, hashes): it may break anywhere by design. */
const LONGEST_REAL_WORD = 40;

interface Problem {
  kind: 'word broken' | 'image distorted' | 'row action out of reach';
  element: string;
  text: string;
  detail: string;
}

/**
 * Runs in the page. Words: every text node that is (or sits in) a link, button, th, td, dt or
 * dd, split at white space; a Range over each word returns one client rect per line box
 * the word occupies, so a word whose rects start on different lines was broken inside (by
 * overflow-wrap, word-break or hyphens alike). This measures what was actually drawn, whatever the
 * cause (a 38 px column, a squeezed flex item), where comparing an element's width with its
 * longest word misses padding, inline children and hyphenation. Visually hidden text (the sr-only
 * 1 px box) wraps at every letter by design and is skipped.
 */
function findProblems(longestRealWord: number): Problem[] {
  const problems: Problem[] = [];
  const describe = (element: Element) => {
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).filter(Boolean).slice(0, 3) : [];
    const label = element.getAttribute('aria-label');
    return `${element.tagName.toLowerCase()}${classes.length ? `.${classes.join('.')}` : ''}${label ? `[aria-label="${label.slice(0, 40)}"]` : ''}`;
  };
  const textOf = (element: Element) => (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
  const tiny = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width <= 2 || box.height <= 2;
  };

  // Words broken inside.
  // A definition list's term and value (dt, dd) are a table's header and cell in all but name:
  // 'Ema/il' and '1,/0' broke there.
  const OWNERS = 'a, button, th, td, dt, dd, [role="button"], [role="columnheader"], [role="cell"]';
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const reported = new Set<Element>();
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const parent = node.parentElement;
    const owner = parent?.closest(OWNERS);
    if (!parent || !owner || reported.has(owner) || !/\S/.test(node.data)) continue;
    if (!parent.checkVisibility({ visibilityProperty: true })) continue;
    let hidden = false;
    for (let element: Element | null = parent; element && element !== owner.parentElement; element = element.parentElement) {
      if (tiny(element)) hidden = true;
    }
    if (hidden) continue;
    // A hyphen is a line-break opportunity ('axe-' / 'visitor'): each piece up to its hyphen is a word.
    for (const match of node.data.matchAll(/[^\s-]+-?/g)) {
      if (match[0].length > longestRealWord) continue;
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      if (rects.length < 2) continue;
      // One client rect per line box the word runs over.
      const lines = new Set(rects.map((rect) => Math.round(rect.top))).size;
      // An address (e-mail, URL, a slug's path) is longer than many a column and may wrap, but in
      // long pieces: one of 36 characters over 2 lines reads; over 8 lines ('one letter per line') not.
      if (/@|:\/\/|^\//.test(match[0]) && match[0].length / lines >= 12) continue;
      if (lines > 1) {
        problems.push({
          kind: 'word broken',
          element: describe(owner),
          text: textOf(owner),
          detail: `'${match[0]}' over ${lines} lines, ${Math.round(owner.getBoundingClientRect().width)} px wide`,
        });
        reported.add(owner);
        break;
      }
    }
  }

  // Images drawn out of their natural proportions.
  for (const image of document.querySelectorAll('img')) {
    if (!image.complete || image.naturalWidth === 0 || !image.checkVisibility({ visibilityProperty: true })) continue;
    const style = getComputedStyle(image);
    if (style.objectFit !== 'fill') continue;
    const width = image.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = image.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    if (width < 4 || height < 4) continue;
    const natural = image.naturalWidth / image.naturalHeight;
    const drawn = width / height;
    if (Math.abs(drawn / natural - 1) > 0.05) {
      problems.push({
        kind: 'image distorted',
        element: describe(image),
        text: image.alt || image.id || image.currentSrc.split('/').pop()?.slice(0, 60) || '',
        detail: `drawn ${Math.round(width)}×${Math.round(height)}, natural ${image.naturalWidth}×${image.naturalHeight}`,
      });
    }
  }

  // Round pictures (avatars: an <img>, or initials with role="img", rounded to at least half their
  // side) are drawn square: object-fit: cover keeps a squeezed avatar's pixels undistorted, yet the
  // circle turns into an oval.
  for (const picture of document.querySelectorAll('img, [role="img"]')) {
    if (!picture.checkVisibility({ visibilityProperty: true })) continue;
    const { width, height } = picture.getBoundingClientRect();
    if (width < 4 || height < 4) continue;
    const radius = getComputedStyle(picture).borderTopLeftRadius;
    const round = radius.endsWith('%') ? parseFloat(radius) >= 50 : parseFloat(radius) >= Math.min(width, height) / 2;
    if (round && Math.abs(width / height - 1) > 0.05) {
      problems.push({
        kind: 'image distorted',
        element: describe(picture),
        text: picture.getAttribute('alt') || picture.getAttribute('aria-label') || picture.id,
        detail: `a round picture drawn ${Math.round(width)}×${Math.round(height)}`,
      });
    }
  }

  // Row actions out of reach. From the action outwards: an ancestor that scrolls horizontally can
  // bring it into its own view, so from there on the scroll box itself has to be reachable; an
  // ancestor that clips without scrolling must contain it; finally the viewport must contain it
  // (a page that scrolls sideways is no scroll container: the narrow-screen spec forbids it).
  const width = window.innerWidth;
  for (const action of document.querySelectorAll('tr a, tr button, [role="row"] a, [role="row"] button')) {
    if (!action.checkVisibility({ visibilityProperty: true }) || tiny(action)) continue;
    let box = action.getBoundingClientRect();
    let problem = '';
    for (let ancestor = action.parentElement; ancestor && ancestor !== document.body && !problem; ancestor = ancestor.parentElement) {
      const { overflowX } = getComputedStyle(ancestor);
      if (overflowX === 'visible') continue;
      const frame = ancestor.getBoundingClientRect();
      if (overflowX === 'auto' || overflowX === 'scroll') box = frame;
      else if (box.left < frame.left - 0.5 || box.right > frame.right + 0.5)
        problem = `clipped by ${describe(ancestor)} (overflow-x ${overflowX}): right ${Math.round(box.right)} px, frame ${Math.round(frame.left)}–${Math.round(frame.right)} px`;
    }
    if (!problem && (box.left < -0.5 || box.right > width + 0.5))
      problem = `outside the ${width} px viewport without a scroll container (${Math.round(box.left)}–${Math.round(box.right)} px)`;
    if (problem) problems.push({ kind: 'row action out of reach', element: describe(action), text: textOf(action), detail: problem });
  }
  return problems;
}

// The checks themselves, on a page made to fail each one once (and to pass its look-alikes): a
// walk whose checks could not fail would prove nothing.
test('the walk finds a broken word, a distorted image and an unreachable row action', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 600 });
  await page.setContent(`
    <table><tr><td style="width: 20px; overflow-wrap: anywhere">Nguyen</td><td>Long enough to wrap between its words but never inside one of them</td><td style="width: 1px"><a href="#">well-kept</a></td></tr></table>
    <span style="position: absolute; width: 1px; height: 1px; overflow: hidden"><button>Visually hidden label</button></span>
    <img id="squashed" width="100" height="100"><img id="covered" width="100" height="100" style="object-fit: cover">
    <div style="display: flex; width: 60px"><span style="flex: none; width: 52px">Name</span><a style="min-width: 0"><img id="oval" style="width: 32px; max-width: 100%; height: 32px; border-radius: 9999px; object-fit: cover"></a></div>
    <span role="img" aria-label="Round initials" style="display: inline-block; width: 32px; height: 32px; border-radius: 50%">LT</span>
    <div style="width: 200px; overflow: hidden"><table style="width: 400px"><tr><td>Row</td><td style="text-align: right"><button>Clipped</button></td></tr></table></div>
    <div style="width: 200px; overflow-x: auto"><table style="width: 400px"><tr><td>Row</td><td style="text-align: right"><button>Scrolls</button></td></tr></table></div>`);
  await page.evaluate(async () => {
    const canvas = Object.assign(document.createElement('canvas'), { width: 200, height: 100 });
    for (const image of document.querySelectorAll('img')) {
      image.src = canvas.toDataURL();
      await image.decode();
    }
  });
  const problems = (await page.evaluate(findProblems, LONGEST_REAL_WORD)).map((problem) => `${problem.kind}: ${problem.text}`);
  expect(problems).toEqual([
    'word broken: Nguyen',
    'image distorted: squashed',
    'image distorted: oval',
    'row action out of reach: Clipped',
  ]);
});

test.describe('layout walk', () => {
  let data: WalkData;
  test.beforeAll(async ({ playwright, baseURL }) => {
    test.setTimeout(60_000);
    data = await seedWalkData(baseURL!, playwright);
  });

  for (const role of ROLES) {
    test(`layout walk: every ${role} route at ${WIDTHS.join(', ')} px`, async ({ page, signIn, hydrated }) => {
      test.setTimeout(120_000);
      const who = credentialsOf(role, data);
      if (who) await signIn(who);
      const found: string[] = [];
      // Snake order: each route starts at the width the previous one ended at (one resize saved per route).
      let widths: number[] = [...WIDTHS];
      await page.setViewportSize({ width: widths[0], height: 900 });
      for (const template of ROUTES[role]) {
        const path = routePath(template, data);
        await page.goto(path);
        await hydrated();
        await loadImages(page);
        for (const [index, width] of widths.entries()) {
          if (index > 0) {
            await page.setViewportSize({ width, height: 900 });
            await settle(page);
          }
          // Alike elements (the cells of one column) are one line, with their count.
          const alike = new Map<string, { line: string; count: number }>();
          for (const problem of await page.evaluate(findProblems, LONGEST_REAL_WORD)) {
            const key = `${problem.element} ${problem.kind}`;
            const seen = alike.get(key);
            if (seen) seen.count += 1;
            else
              alike.set(key, {
                line: `${template} ${role} ${width} ${problem.element} '${problem.text}': ${problem.kind}, ${problem.detail}`,
                count: 1,
              });
          }
          for (const { line, count } of alike.values()) found.push(count > 1 ? `${line} (and ${count - 1} alike)` : line);
        }
        widths = widths.reverse();
      }
      expect(found.length, `layout problems for the ${role} (route role width element 'text': problem):\n${found.join('\n')}\n`).toBe(0);
    });
  }
});

/**
 * Every table the back office shows, those that appear only after an action too (the webhook
 * delivery log, the import report's Skipped and Renamed tables, the dashboard's activity as a
 * table), at 390 and 320 px: no word broken inside, no row action out of reach, and no row
 * squeezed into a tower (a column a letter wide makes each row hundreds of pixels tall). A table
 * wider than the screen scrolls sideways in its own frame (TableFrame).
 */
test('every table, those shown after an action too, at 390 and 320 px', async ({ asAdmin: page, hydrated, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('thanks'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/tables-${unique}`;
  const admin = await adminApi(baseURL!, playwright);
  try {
    // A webhook with two attempts in its log: the test event and a tag.created.
    const hook = await admin.post('/api/v1/admin/webhooks', {
      data: { url: hookUrl, events: ['tag.created'], includeEmails: false, active: true },
    });
    expect(hook.status(), await hook.text()).toBe(201);
    const hookId = ((await hook.json()).data as { id: number }).id;
    expect((await admin.post(`/api/v1/admin/webhooks/${hookId}/test`)).status()).toBe(200);
    expect(
      (
        await admin.post('/api/v1/blog/tags', {
          data: { name: `Tables ${unique}`, slug: `tables-${unique}`, description: 'For the tables walk.' },
        })
      ).status(),
    ).toBe(201);
    await expect
      .poll(async () => (((await (await admin.get(`/api/v1/admin/webhooks/${hookId}/attempts`)).json()).data as unknown[]) ?? []).length, {
        timeout: 20_000,
      })
      .toBeGreaterThanOrEqual(2);

    // An import whose report has a skipped post (in the trash) and a renamed one (its slug taken by the first).
    const fileName = `tables-${unique}.xml`;
    const imported = await admin.post('/api/v1/admin/imports?source=wordpress', {
      multipart: { file: { name: fileName, mimeType: 'text/xml', buffer: Buffer.from(reportWxr(unique)) } },
    });
    expect(imported.status(), await imported.text()).toBe(202);
    const importId = ((await imported.json()).data as { id: number }).id;
    await expect
      .poll(async () => ((await (await admin.get(`/api/v1/admin/imports/${importId}`)).json()).data as { state: string }).state, {
        timeout: 30_000,
      })
      .toBe('DONE');

    const views: { path: string; open: (page: Page) => Promise<void> }[] = [
      {
        path: '/admin/integrations',
        open: async () => {
          await page.getByRole('button', { name: `Delivery log of ${hookUrl}` }).click();
          await expect(page.getByRole('region', { name: 'Delivery log table' }).getByRole('row')).toHaveCount(3);
        },
      },
      {
        path: '/admin/import',
        open: async () => {
          await page.getByRole('button', { name: fileName }).click();
          await page.getByText('Skipped (1)').click();
          await page.getByText(/^Renamed, merged or changed \(\d+\)$/).click();
          await expect(page.getByRole('region', { name: 'Skipped items table' })).toBeVisible();
          await expect(page.getByRole('region', { name: 'Renamed items table' })).toBeVisible();
        },
      },
      { path: '/admin', open: async () => page.getByRole('button', { name: 'Show as table' }).click() },
      { path: '/admin/posts', open: async () => {} },
      { path: '/admin/users', open: async () => {} },
      { path: '/account', open: async () => {} },
    ];
    const found: string[] = [];
    for (const view of views) {
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(view.path);
      await hydrated();
      await view.open(page);
      const tables = page.locator('table').filter({ visible: true });
      expect(await tables.count(), `${view.path}: a table is shown`).toBeGreaterThan(0);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 900 });
        await settle(page);
        for (const problem of await page.evaluate(findProblems, LONGEST_REAL_WORD))
          found.push(`${view.path} ${width} ${problem.element} '${problem.text}': ${problem.kind}, ${problem.detail}`);
        const towers = await tables.evaluateAll((shown) =>
          shown
            .flatMap((table) => [...table.querySelectorAll('tbody tr')].map((row) => ({ row, height: row.getBoundingClientRect().height })))
            .filter(({ height }) => height > 120)
            .map(({ row, height }) => `'${(row.textContent ?? '').slice(0, 40)}' ${Math.round(height)} px tall`),
        );
        for (const tower of towers) found.push(`${view.path} ${width} row squeezed: ${tower}`);
      }
    }
    expect(found, `table problems (path width element 'text': problem):\n${found.join('\n')}\n`).toEqual([]);
  } finally {
    await admin.dispose();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
  }
});

/** A WordPress export: a post, a second with the same slug (renamed) and one in the trash (skipped). */
function reportWxr(unique: string): string {
  const site = `http://tables-${unique}.example.com`;
  const item = (n: number, slug: string, status: string) => `<item>
<title>Imported table check ${n} ${unique}</title>
<link>${site}/${slug}-${n}/</link>
<dc:creator><![CDATA[linh]]></dc:creator>
<content:encoded><![CDATA[Hello ${n}.]]></content:encoded>
<wp:post_id>${n}</wp:post_id>
<wp:post_date_gmt><![CDATA[2015-03-07 03:00:00]]></wp:post_date_gmt>
<wp:post_name><![CDATA[${slug}]]></wp:post_name>
<wp:status><![CDATA[${status}]]></wp:status>
<wp:post_type><![CDATA[post]]></wp:post_type>
</item>`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:wp="http://wordpress.org/export/1.2/">
<channel><title>Old</title><link>${site}</link><wp:wxr_version>1.2</wp:wxr_version><wp:base_site_url>${site}</wp:base_site_url>
<wp:author><wp:author_login><![CDATA[linh]]></wp:author_login><wp:author_email><![CDATA[linh-tables-${unique}@example.com]]></wp:author_email><wp:author_display_name><![CDATA[Nguyễn Linh]]></wp:author_display_name></wp:author>
${item(1, `same-slug-${unique}`, 'publish')}
${item(2, `same-slug-${unique}`, 'publish')}
${item(3, `trashed-${unique}`, 'trash')}
</channel></rss>`;
}

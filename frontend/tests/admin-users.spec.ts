import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, type BrowserFixtures } from './fixtures';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';
import { brokenWords } from './layout-checks';

/**
 * The admin dashboard and user administration (docs/requirements.md#screen-admin-dashboard and 'Admin users',
 * docs/requirements.md#validation-add-user, 'Ban and unban', 'Pagination jump', docs/requirements.md#errors-dashboards, docs/requirements.md#validation-add-user): who may see them, the dashboard's
 * real figures and its activity chart, the user list (search, filters, sorting, pager, jump box),
 * Add User with each of its messages, the details view, ban and unban with the reason prompt,
 * the generated password shown once, editing roles, and axe on each page.
 *
 * Data, made through the API as the seeded admin: a reader and an author (verified, ACTIVE), and
 * 55 users named 'Pager <marker> NN' (every 5th unverified, every 11th also an AUTHOR, #07 with
 * all three roles) for the list's search, filters and pages.
 */

const PASSWORD = 'Admin-Test-1!';
const unique = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
const MARKER = `Pager ${unique}`;
const PAGER_USERS = 55;
const reader = { fullName: `Reader ${unique}`, email: `reader-${unique}@inkwell.test` };
const author = { fullName: `Author ${unique}`, email: `author-${unique}@inkwell.test` };
const pagerName = (index: number) => `${MARKER} ${String(index).padStart(2, '0')}`;
const pagerIds: number[] = [];
let adminName = '';

interface ApiUser {
  id: number;
  fullName: string;
  email: string;
  status: string;
  isVerified: boolean;
  roles: { name: string }[];
}

async function createUser(
  api: APIRequestContext,
  values: { fullName: string; email: string; roles?: string[]; verified?: boolean; status?: string },
): Promise<ApiUser> {
  const response = await api.post('/api/v1/admin/users', {
    data: {
      fullName: values.fullName,
      email: values.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      roles: values.roles ?? ['USER'],
      status: values.status ?? 'ACTIVE',
      markEmailAsVerified: values.verified ?? true,
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data as ApiUser;
}

async function getUser(api: APIRequestContext, id: number): Promise<ApiUser> {
  const response = await api.get(`/api/v1/admin/users/${id}`);
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as ApiUser;
}

let api: APIRequestContext;

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  api = await adminApi(baseURL!, playwright);
  const profile = await api.get('/api/v1/users/profile');
  adminName = ((await profile.json()).data as { fullName: string }).fullName;
  await createUser(api, reader);
  await createUser(api, { ...author, roles: ['AUTHOR'] });
  for (let index = 0; index < PAGER_USERS; index++) {
    const roles = index === 7 ? ['USER', 'AUTHOR', 'ADMIN'] : index % 11 === 0 ? ['USER', 'AUTHOR'] : ['USER'];
    const user = await createUser(api, {
      fullName: pagerName(index),
      email: `pager-${String(index).padStart(2, '0')}-${unique}@inkwell.test`,
      roles,
      verified: index % 5 !== 0,
    });
    pagerIds.push(user.id);
  }
});

test.afterAll(async () => {
  await api?.dispose();
});

test.describe('access', () => {
  test('anonymous visitors go to /login with the way back', async ({ request }) => {
    for (const path of ['/admin', '/admin/users', `/admin/users/${pagerIds[0]}`]) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe(`/login?callback=${encodeURIComponent(path)}`);
    }
  });

  for (const who of [reader, author]) {
    test(`${who === reader ? 'a reader' : 'an author'} is sent from /admin to / and sees Access Denied on the user pages`, async ({
      page,
      signIn,
    }) => {
      await signIn({ email: who.email, password: PASSWORD });
      await page.goto('/admin');
      await expect(page).toHaveURL('/');
      for (const path of ['/admin/users', `/admin/users/${pagerIds[0]}`]) {
        const response = await page.goto(path);
        expect(response?.status(), path).toBe(200);
        await expect(page.getByTestId('access-denied')).toContainText('Access Denied');
        await expect(page.getByTestId('access-denied')).toContainText('You need admin privileges to access this page.');
        await expect(page.getByRole('table')).toHaveCount(0);
      }
    });
  }
});

/** The dashboard's numbers as shown ('1.234' → 1234). */
async function dashboardFigures(page: Page) {
  const number = async (selector: string) => Number((await page.locator(selector).innerText()).replace(/\D/g, ''));
  return {
    totalUsers: await number('[data-stat="total-users"] [data-value]'),
    totalPosts: await number('[data-stat="total-posts"] [data-value]'),
    totalTags: await number('[data-stat="total-tags"] [data-value]'),
    activeUsers: await number('[data-stat="active-users"] [data-value]'),
    pendingUsers: await number('[data-user-stat="pending"] [data-count]'),
    bannedUsers: await number('[data-user-stat="banned"] [data-count]'),
  };
}

test.describe('/admin', () => {
  test('shows the real figures: cards, user statistics with whole percentages, recent activity', async ({ asAdmin: page }) => {
    const response = await page.goto('/admin');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Dashboard');
    await expect(page.getByTestId('last-updated')).toContainText('Last updated:');
    await expect(page.getByRole('link', { name: 'Refresh' })).toHaveAttribute('href', '/admin');
    for (const label of ['Total Users', 'Total Posts', 'Total Tags', 'Active Users'])
      await expect(page.getByText(label, { exact: true })).toBeVisible();

    // The cards are the API's figures (other test files may add rows meanwhile: read both again until they agree).
    await expect
      .poll(
        async () => {
          const stats = (await (await api.get('/api/v1/dashboard/admin/stats')).json()).data;
          await page.reload();
          const shown = await dashboardFigures(page);
          return (['totalUsers', 'totalPosts', 'totalTags', 'activeUsers', 'pendingUsers', 'bannedUsers'] as const).every(
            (key) => shown[key] === stats[key],
          );
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    const figures = await dashboardFigures(page);
    expect(figures.totalUsers).toBeGreaterThanOrEqual(PAGER_USERS + 3);
    for (const [id, count] of [
      ['active', figures.activeUsers],
      ['pending', figures.pendingUsers],
      ['banned', figures.bannedUsers],
    ] as const) {
      await expect(page.locator(`[data-user-stat="${id}"] [data-percent]`)).toHaveText(
        `(${Math.round((count / figures.totalUsers) * 100)}%)`,
      );
    }

    // Recent Activity: the newest audit entries, the last user this file created among them.
    const recent = page.getByTestId('recent-activities');
    await expect(recent.getByRole('listitem').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
  });

  test('the activity chart draws the last 30 days and has them as a table', async ({ asAdmin: page }) => {
    await page.goto('/admin');
    const section = page.getByTestId('activity-section');
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole('heading', { name: 'Activity (last 30 days)' })).toBeVisible();
    const chart = section.getByRole('img', { name: /Line chart of new users, posts, comments and likes per day/ });
    await expect(chart.locator('canvas')).toBeAttached({ timeout: 20_000 });
    await expect(section.getByTestId('activity-skeleton')).toHaveCount(0);

    const table = section.getByRole('table', { name: /New users, posts, comments and likes per day/ });
    await expect(table).toBeAttached();
    // Visually hidden (a 1 px clipped box) until 'Show as table'.
    const toggle = section.getByRole('button', { name: 'Show as table' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const wrapper = page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
    expect(await wrapper.evaluate((element) => element.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    await toggle.click();
    await expect(section.getByRole('button', { name: 'Hide table' })).toHaveAttribute('aria-expanded', 'true');
    await expect.poll(() => wrapper.evaluate((element) => element.getBoundingClientRect().width)).toBeGreaterThan(200);
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader')).toHaveText(['Date', 'New users', 'Posts', 'Comments', 'Likes']);
    await expect(table.locator('tbody tr')).toHaveCount(30);
    // Today (the last row) has at least the users this file made.
    const todayUsers = Number(await table.locator('tbody tr').last().locator('td').first().innerText());
    expect(todayUsers).toBeGreaterThanOrEqual(PAGER_USERS + 2);
    await expect(section.getByTestId('activity-totals')).toContainText('Last 30 days:');
  });
});

test.describe('/admin/users list', () => {
  test('a table sorted newest first; column headers sort and announce it', async ({ asAdmin: page, hydrated }) => {
    await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}`);
    await hydrated();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('User Management');
    await expect(page.getByTestId('users-total')).toHaveText(`${PAGER_USERS} users`);
    const table = page.getByRole('table');
    await expect(table.getByRole('columnheader')).toHaveText([
      /User/,
      'Roles',
      'Status',
      'Verified',
      'Posts',
      'Comments',
      /Joined/,
      /Last Login/,
    ]);
    await expect(table.getByRole('columnheader', { name: /Joined/ })).toHaveAttribute('aria-sort', 'descending');
    // Only the sorted column carries aria-sort (the same shared table as /admin/posts).
    await expect(table.getByRole('columnheader', { name: /User/ })).not.toHaveAttribute('aria-sort', /./);
    const names = table.locator('tbody tr td:first-child a');
    await expect(names).toHaveCount(10);
    await expect(names.first()).toHaveText(pagerName(PAGER_USERS - 1));

    await table.getByRole('columnheader', { name: /User/ }).getByRole('link').click();
    await expect(page).toHaveURL(/sortBy=fullName&sortDir=asc/);
    await expect(table.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(table.getByRole('columnheader', { name: /Joined/ })).not.toHaveAttribute('aria-sort', /./);
    await expect(names.first()).toHaveText(pagerName(0));
    await table.getByRole('columnheader', { name: /User/ }).getByRole('link').click();
    await expect(table.getByRole('columnheader', { name: /User/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(names.first()).toHaveText(pagerName(PAGER_USERS - 1));

    // Roles: up to 3 badges in the list; #07 holds all three.
    const row = table.locator(`tr[data-user-row="${pagerIds[7]}"]`);
    await page.goto(`/admin/users?search=${encodeURIComponent(pagerName(7))}`);
    await expect(row.locator('[data-role-badges] > span')).toHaveText(['Admin', 'Author', 'User']);
    await expect(row.locator('[data-status]')).toHaveText('Active');
  });

  test('search applies itself after typing; status, verification and role filters; Clear filters', async ({ asAdmin: page, hydrated }) => {
    await page.goto('/admin/users');
    await hydrated();
    await page.getByLabel('Search users').pressSequentially(MARKER, { delay: 20 });
    await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(MARKER).replace(/%20/g, '(\\+|%20)')}`));
    await expect(page.getByTestId('users-total')).toHaveText(`${PAGER_USERS} users`);

    await page.getByLabel('Verification').selectOption({ label: 'Unverified' });
    await expect(page.getByTestId('users-total')).toHaveText('11 users');
    await expect(page).toHaveURL(/isVerified=false/);
    await expect(page.locator('tbody [data-status]').first()).toHaveText('Active');
    await expect(page.locator('tbody').getByText('Verified', { exact: true })).toHaveCount(0);

    await page.getByLabel('Role').selectOption({ label: 'Author' });
    // Unverified (every 5th) and AUTHOR (every 11th, and #07): #00 and #55 would be both; 55 is past the end.
    await expect(page.getByTestId('users-total')).toHaveText('1 user');
    await expect(page.locator('tbody tr td:first-child a')).toHaveText([pagerName(0)]);

    await page.getByLabel('Role').selectOption({ label: 'All roles' });
    await page.getByLabel('Verification').selectOption({ label: 'All' });
    await page.getByLabel('Status', { exact: true }).selectOption({ label: 'Banned' });
    await expect(page.getByText('No users found')).toBeVisible();
    await expect(page.getByText('No users match your search or filters.')).toBeVisible();

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page).toHaveURL('/admin/users');
    await expect(page.getByLabel('Search users')).toHaveValue('');
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('');
    await expect(page.getByRole('table')).toBeVisible();

    // Back returns to the previous list state.
    await page.goBack();
    await expect(page.getByLabel('Status', { exact: true })).toHaveValue('BANNED');
    await expect(page.getByText('No users found')).toBeVisible();
  });

  test("a failed read says 'Search failed' or 'Failed to load users', and Try Again reads again", async ({ asAdmin: page, hydrated }) => {
    await page.goto('/admin/users');
    await hydrated();
    const usersList = (url: URL) => url.pathname === '/api/v1/admin/users';
    await page.route(usersList, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          success: false,
          data: null,
          message: 'Service temporarily unavailable. Please try again later.',
          status: 503,
          errors: null,
        }),
      }),
    );
    await page.getByLabel('Search users').fill(MARKER);
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Search failed');
    await expect(alert).toContainText('Service temporarily unavailable. Please try again later.');
    await page.getByLabel('Search users').fill('');
    await expect(alert).toContainText('Failed to load users');
    await page.unroute(usersList);
    await alert.getByRole('link', { name: 'Try Again' }).click();
    await expect(page.getByRole('table')).toBeVisible();
  });

  test('the pager: 11 pages of 5, a window of 5 numbers, the jump box checks 1..11', async ({ asAdmin: page, hydrated }) => {
    await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}&size=5`);
    await hydrated();
    const pager = page.getByRole('navigation', { name: 'Users pages' });
    await expect(pager).toContainText('Page 1 of 11');
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['1', '2', '3', '4', '5']);
    await expect(pager.getByRole('link', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');

    const jump = pager.getByLabel('Go to page');
    await jump.fill('12');
    await pager.getByRole('button', { name: 'Go' }).click();
    await expect(pager.getByText('Enter a page between 1 and 11.')).toBeVisible();
    await jump.fill('0');
    await pager.getByRole('button', { name: 'Go' }).click();
    await expect(pager.getByText('Enter a page between 1 and 11.')).toBeVisible();
    await jump.fill('11');
    await pager.getByRole('button', { name: 'Go' }).click();
    await expect(pager).toContainText('Page 11 of 11');
    await expect(page).toHaveURL(/page=11/);
    await expect(pager.getByRole('link', { name: /^Page \d+$/ })).toHaveText(['7', '8', '9', '10', '11']);
    await expect(page.locator('tbody tr')).toHaveCount(5);
    await expect(pager.getByText('Next', { exact: true })).toHaveAttribute('aria-disabled', 'true');
    await pager.getByRole('link', { name: 'Previous' }).click();
    await expect(pager).toContainText('Page 10 of 11');

    // A page past the end is the last page.
    await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}&size=5&page=40`);
    await expect(page).toHaveURL(/page=11/);
  });

  test('at 1280 px the table fits its frame; no header, name or address broken inside a word', async ({ asAdmin: page, hydrated }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}`);
    await hydrated();
    const frame = page.getByRole('region', { name: 'Users table' });
    await expect(frame.locator('tbody tr').first()).toBeVisible();
    expect(await frame.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    expect(await brokenWords(frame.locator('thead th, tbody td'))).toEqual([]);
  });

  test('a row opens the details; Back to Users returns to the list as it was', async ({ asAdmin: page, hydrated }) => {
    await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}&sortBy=fullName&sortDir=asc`);
    await hydrated();
    await page.locator(`tr[data-user-row="${pagerIds[3]}"] td`).nth(1).click();
    await expect(page).toHaveURL(`/admin/users/${pagerIds[3]}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(pagerName(3));
    await hydrated();
    await page.getByRole('link', { name: 'Back to Users' }).click();
    await expect(page).toHaveURL(/\/admin\/users\?search=[^&]+&sortBy=fullName&sortDir=asc$/);

    // The audit log's links (?userId=) open the details.
    await page.goto(`/admin/users?userId=${pagerIds[3]}`);
    await expect(page).toHaveURL(`/admin/users/${pagerIds[3]}`);
  });
});

test.describe('Add User', () => {
  async function openDialog(page: Page, hydrated: BrowserFixtures['hydrated']) {
    await page.goto('/admin/users');
    await hydrated();
    await page.getByRole('button', { name: 'Add User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add User' });
    await expect(dialog).toBeVisible();
    return dialog;
  }

  test('defaults, each rule and message in order, the last role stays, Escape closes, focus stays inside', async ({
    asAdmin: page,
    hydrated,
  }) => {
    const dialog = await openDialog(page, hydrated);
    await expect(dialog.getByLabel('Full name')).toBeFocused();
    await expect(dialog.getByRole('checkbox', { name: 'User' })).toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Author' })).not.toBeChecked();
    await expect(dialog.getByRole('checkbox', { name: 'Admin' })).not.toBeChecked();
    await expect(dialog.getByLabel('Status')).toHaveValue('ACTIVE');
    await expect(dialog.getByRole('checkbox', { name: 'Mark email as verified' })).not.toBeChecked();

    // Focus stays in the dialog: Shift+Tab from the first field reaches the last button, Tab wraps back.
    await page.keyboard.press('Shift+Tab');
    await expect(dialog.getByRole('button', { name: 'Create User' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.getByLabel('Full name')).toBeFocused();

    const create = dialog.getByRole('button', { name: 'Create User' });
    await create.click();
    await expect(dialog.getByText('Full name is required')).toBeVisible();
    await expect(dialog.getByText('Email is required')).toBeVisible();
    await expect(dialog.getByText('Password is required')).toBeVisible();
    await expect(dialog.getByLabel('Full name')).toBeFocused();

    await dialog.getByLabel('Full name').fill(`Checked ${unique}`);
    await dialog.getByLabel('Email', { exact: true }).fill('not-an-email');
    await dialog.getByLabel('Password', { exact: true }).fill('12345');
    await create.click();
    await expect(dialog.getByText('Full name is required')).toHaveCount(0);
    await expect(dialog.getByText('Invalid email format')).toBeVisible();
    await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();
    await expect(dialog.getByText('Passwords do not match')).toBeVisible();
    await expect(dialog.getByLabel('Email', { exact: true })).toBeFocused();

    await dialog.getByLabel('Email', { exact: true }).fill(`checked-${unique}@inkwell.test`);
    await dialog.getByLabel('Password', { exact: true }).fill('123456');
    await dialog.getByLabel('Confirm password', { exact: true }).fill('1234567');
    await create.click();
    await expect(dialog.getByText('Password must be at least 6 characters')).toHaveCount(0);
    await expect(dialog.getByText('Passwords do not match')).toBeVisible();

    // The last selected role cannot be deselected.
    await dialog.getByRole('checkbox', { name: 'User' }).click();
    await expect(dialog.getByRole('checkbox', { name: 'User' })).toBeChecked();
    await expect(dialog.getByText('At least one role is required')).toBeVisible();

    await dialog.getByLabel('Confirm password', { exact: true }).fill('123456');
    await dialog.getByLabel('Status').selectOption('');
    await create.click();
    await expect(dialog.getByText('Passwords do not match')).toHaveCount(0);
    await expect(dialog.getByText('Status is required')).toBeVisible();
    await expect(dialog.getByLabel('Status')).toBeFocused();

    // The server's 409: on the e-mail field (the address is trimmed and lower-cased first).
    await dialog.getByLabel('Status').selectOption('ACTIVE');
    await dialog.getByLabel('Email', { exact: true }).fill(`  ${reader.email.toUpperCase()} `);
    await create.click();
    await expect(dialog.getByText('This email address is already registered')).toBeVisible();
    await expect(dialog.getByLabel('Email', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add User' })).toBeFocused();
  });

  test('creates the user (e-mail trimmed and lower-cased), closes after 1.5 s and refreshes the list', async ({
    asAdmin: page,
    hydrated,
    signIn,
  }) => {
    const dialog = await openDialog(page, hydrated);
    const name = `Added ${unique}`;
    await dialog.getByLabel('Full name').fill(`  ${name} `);
    await dialog.getByLabel('Email', { exact: true }).fill(`  Added-${unique}@Inkwell.TEST `);
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await dialog.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('checkbox', { name: 'Author' }).check();
    await dialog.getByRole('checkbox', { name: 'Mark email as verified' }).check();
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(dialog.getByText(`User ${name} was created.`)).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 15_000 });
    const row = page.locator('tbody tr', { hasText: `added-${unique}@inkwell.test` });
    await expect(row).toBeVisible();
    await expect(row.locator('[data-role-badges] > span')).toHaveText(['Author', 'User']);

    const found = await api.get(`/api/v1/admin/users?search=${encodeURIComponent(`added-${unique}`)}`);
    const [user] = (await found.json()).data.content as ApiUser[];
    expect(user).toMatchObject({ fullName: name, email: `added-${unique}@inkwell.test`, status: 'ACTIVE', isVerified: true });
    expect(user.roles.map((role) => role.name).sort()).toEqual(['AUTHOR', 'USER']);
    // The new account signs in with its password.
    await signIn({ email: `added-${unique}@inkwell.test`, password: PASSWORD });
  });
});

test.describe('user details', () => {
  test('unknown and malformed ids are User not found (404)', async ({ asAdmin: page }) => {
    for (const path of ['/admin/users/999999999', '/admin/users/abc']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('User not found');
      await expect(page.getByRole('link', { name: 'Back to Users' })).toHaveAttribute('href', '/admin/users');
    }
  });

  test('ban needs a reason, Cancel and Escape abort; ban shows its details and the trail; unban', async ({ asAdmin: page, hydrated }) => {
    const id = pagerIds[4];
    await page.goto(`/admin/users/${id}`);
    await hydrated();
    await expect(page.getByTestId('user-badges').locator('[data-status]')).toHaveText('Active');
    await expect(page.getByTestId('ban-details')).toHaveCount(0);

    await page.getByRole('button', { name: 'Ban User' }).click();
    let dialog = page.getByRole('dialog', { name: 'Ban User' });
    await expect(dialog.getByLabel('Reason for the ban')).toBeFocused();
    await dialog.getByRole('button', { name: 'Ban User' }).click();
    await expect(dialog.getByText('A reason is required')).toBeVisible();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await getUser(api, id)).status).toBe('ACTIVE');

    await page.getByRole('button', { name: 'Ban User' }).click();
    await dialog.getByLabel('Reason for the ban').fill(`Spam ${unique}`);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect((await getUser(api, id)).status).toBe('ACTIVE');

    await page.getByRole('button', { name: 'Ban User' }).click();
    await dialog.getByLabel('Reason for the ban').fill(`Spam ${unique}`);
    await dialog.getByLabel('Admin note (optional)').fill('Checked the comments');
    await dialog.getByRole('button', { name: 'Ban User' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('status').filter({ hasText: `${pagerName(4)} was banned.` })).toBeVisible();
    await expect(page.getByTestId('user-badges').locator('[data-status]')).toHaveText('Banned');
    const details = page.getByTestId('ban-details');
    await expect(details).toContainText(`Spam ${unique}`);
    await expect(details).toContainText('Checked the comments');
    await expect(details).toContainText(adminName);
    await expect(page.getByTestId('audit-trail').locator('[data-audit="USER_BANNED"]')).toHaveCount(1);
    const ban = (await (await api.get(`/api/v1/admin/users/${id}/ban-status`)).json()).data;
    expect(ban).toMatchObject({ isBanned: true, banReason: `Spam ${unique}`, adminNote: 'Checked the comments' });

    // Ban details are rendered on the server too.
    await page.reload();
    await expect(page.getByTestId('ban-details')).toContainText(`Spam ${unique}`);
    await hydrated();

    await page.getByRole('button', { name: 'Unban User' }).click();
    dialog = page.getByRole('dialog', { name: 'Unban User' });
    await dialog.getByRole('button', { name: 'Unban User' }).click();
    await expect(dialog.getByText('A reason is required')).toBeVisible();
    await dialog.getByLabel('Reason for lifting the ban').fill('Appeal accepted');
    await dialog.getByRole('button', { name: 'Unban User' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('user-badges').locator('[data-status]')).toHaveText('Active');
    await expect(page.getByTestId('ban-details')).toHaveCount(0);
    await expect(page.getByTestId('audit-trail').locator('[data-audit="USER_UNBANNED"]')).toHaveCount(1);
    expect((await getUser(api, id)).status).toBe('ACTIVE');
  });

  test("banned on the details page, a user leaves the list filtered to 'Active' on the way Back", async ({ asAdmin: page, hydrated }) => {
    const leaving = await createUser(api, { fullName: `Leaves ${unique}`, email: `leaves-${unique}@inkwell.test` });
    await page.goto(`/admin/users?search=${encodeURIComponent(leaving.fullName)}&status=ACTIVE`);
    await hydrated();
    const row = page.locator(`tr[data-user-row="${leaving.id}"]`);
    await row.getByRole('link', { name: leaving.fullName }).click();
    await expect(page).toHaveURL(`/admin/users/${leaving.id}`);
    await hydrated();
    await page.getByRole('button', { name: 'Ban User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban User' });
    await dialog.getByLabel('Reason for the ban').fill(`Spam ${unique}`);
    await dialog.getByRole('button', { name: 'Ban User' }).click();
    await expect(page.getByTestId('user-badges').locator('[data-status]')).toHaveText('Banned');
    await page.getByRole('link', { name: 'Back to Users' }).click();
    await expect(page).toHaveURL(/status=ACTIVE/);
    await expect(row).toHaveCount(0);
    await expect(page.getByTestId('users-total')).toHaveText('0 users');
  });

  test('a failed ban shows the server message', async ({ asAdmin: page, hydrated }) => {
    const self = (await (await api.get('/api/v1/users/profile')).json()).data as { id: number };
    await page.goto(`/admin/users/${self.id}`);
    await hydrated();
    await page.getByRole('button', { name: 'Ban User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Ban User' });
    await dialog.getByLabel('Reason for the ban').fill('Trying');
    await dialog.getByRole('button', { name: 'Ban User' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('You cannot ban your own account.');
  });

  test('Generate Password asks first, shows the password once with Copy, and it signs in', async ({
    asAdmin: page,
    context,
    hydrated,
    signIn,
  }) => {
    const id = pagerIds[8];
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto(`/admin/users/${id}`);
    await hydrated();

    await page.getByRole('button', { name: 'Generate Password' }).click();
    let dialog = page.getByRole('alertdialog', { name: 'Generate New Password' });
    await expect(dialog).toContainText(`Generate a new password for ${pagerName(8)}?`);
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'Generate Password' }).click();
    await dialog.getByRole('button', { name: 'Generate Password' }).click();
    dialog = page.getByRole('dialog', { name: 'New Password' });
    await expect(dialog).toContainText('Copy this password now: it will not be shown again.');
    const password = await dialog.getByTestId('generated-password').inputValue();
    expect(password.length).toBeGreaterThanOrEqual(12);
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await expect(dialog.getByRole('status')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(password);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(password)).toHaveCount(0);
    await expect(page.getByTestId('audit-trail').locator('[data-audit="PASSWORD_GENERATED"]')).toHaveCount(1);

    // Shown once: opening it again asks again, the old one is not there.
    await page.getByRole('button', { name: 'Generate Password' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Generate New Password' })).toBeVisible();
    await page.keyboard.press('Escape');

    await signIn({ email: `pager-08-${unique}@inkwell.test`, password });
  });

  test('Edit changes the name, roles and status; the last role stays', async ({ asAdmin: page, hydrated }) => {
    const id = pagerIds[6];
    await page.goto(`/admin/users/${id}`);
    await hydrated();
    await page.getByRole('button', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit User' });
    await expect(dialog.getByLabel('Full name')).toHaveValue(pagerName(6));
    await dialog.getByRole('checkbox', { name: 'User' }).click();
    await expect(dialog.getByRole('checkbox', { name: 'User' })).toBeChecked();
    await expect(dialog.getByText('At least one role is required')).toBeVisible();
    await dialog.getByLabel('Full name').fill('');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog.getByText('Full name is required')).toBeVisible();

    await dialog.getByLabel('Full name').fill(`${pagerName(6)} Renamed`);
    await dialog.getByRole('checkbox', { name: 'Author' }).check();
    await dialog.getByLabel('Status').selectOption('INACTIVE');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`${pagerName(6)} Renamed`);
    await expect(page.getByTestId('user-badges').locator('[data-role-badges] > span')).toHaveText(['Author', 'User']);
    await expect(page.getByTestId('user-badges').locator('[data-status]')).toHaveText('Inactive');
    const user = await getUser(api, id);
    expect(user.fullName).toBe(`${pagerName(6)} Renamed`);
    expect(user.status).toBe('INACTIVE');
    expect(user.roles.map((role) => role.name).sort()).toEqual(['AUTHOR', 'USER']);
    await expect(page.getByTestId('audit-trail').locator('[data-audit="USER_UPDATED"]').first()).toBeVisible();
  });
});

for (const theme of ['light', 'dark'] as const) {
  test.describe(`axe (${theme})`, () => {
    test.use({ colorScheme: theme });
    // Several full axe scans per test on a busy 2-core machine.
    test.describe.configure({ timeout: 90_000 });

    test(`/admin (${theme})`, async ({ asAdmin: page }) => {
      await page.goto('/admin');
      await page.getByTestId('activity-section').scrollIntoViewIfNeeded();
      await expect(page.getByTestId('activity-chart').locator('canvas')).toBeAttached({ timeout: 20_000 });
      await expectNoSeriousViolations(page, `/admin (${theme})`);
      await page.getByRole('button', { name: 'Show as table' }).click();
      await expectNoSeriousViolations(page, `/admin with the activity table (${theme})`);
    });

    test(`/admin/users and Add User (${theme})`, async ({ asAdmin: page, hydrated }) => {
      await page.goto(`/admin/users?search=${encodeURIComponent(MARKER)}&size=5`);
      await hydrated();
      await expectNoSeriousViolations(page, `/admin/users (${theme})`);
      await page.getByRole('button', { name: 'Add User' }).click();
      await page.getByRole('dialog', { name: 'Add User' }).getByRole('button', { name: 'Create User' }).click();
      await expect(page.getByText('Full name is required')).toBeVisible();
      await expectNoSeriousViolations(page, `/admin/users with Add User (${theme})`);
    });

    test(`/admin/users/{id} and its dialogs (${theme})`, async ({ asAdmin: page, hydrated }) => {
      await page.goto(`/admin/users/${pagerIds[7]}`);
      await hydrated();
      await expectNoSeriousViolations(page, `/admin/users/{id} (${theme})`);
      await page.getByRole('button', { name: 'Ban User' }).click();
      await page.getByRole('dialog', { name: 'Ban User' }).getByRole('button', { name: 'Ban User' }).click();
      await expect(page.getByText('A reason is required')).toBeVisible();
      await expectNoSeriousViolations(page, `/admin/users/{id} with Ban User (${theme})`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Edit' }).click();
      await expectNoSeriousViolations(page, `/admin/users/{id} with Edit User (${theme})`);
    });

    test(`Access Denied (${theme})`, async ({ page, signIn }) => {
      await signIn({ email: reader.email, password: PASSWORD });
      await page.goto('/admin/users');
      await expectNoSeriousViolations(page, `/admin/users as a reader (${theme})`);
    });
  });
}

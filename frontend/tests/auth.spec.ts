import type { Page } from '@playwright/test';
import { expect, island, test } from './fixtures';
import sharp from 'sharp';
import { expectNoSeriousViolations } from './a11y';
import { adminApi } from './admin-api';

/**
 * The account journey through the pages (docs/requirements.md#screen-register, docs/requirements.md#code-entry): sign up, verify with the code from
 * the captured e-mail, sign in, the header's signed-in state, profile edit, avatar upload, sign
 * out; plus the session redirects and the login form's messages.
 *
 * scripts/browser-tests.mjs runs the server with SMTP_URL pointing at an in-process SMTP catcher
 * and passes its read endpoint as MAIL_CAPTURE_URL.
 */

const MAIL_CAPTURE_URL = process.env.MAIL_CAPTURE_URL;
const PASSWORD = 'Sup3r-Secret!';

function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@inkwell.test`;
}

interface CapturedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits for the `count`-th verification e-mail sent to `email` and returns its 6-digit code. */
async function verificationCode(email: string, count = 1): Promise<string> {
  if (!MAIL_CAPTURE_URL) throw new Error('MAIL_CAPTURE_URL is not set: run the browser tests with npm run test:browser');
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as CapturedMail[];
        const codes = mails.filter((mail) => /verification code/i.test(mail.subject));
        const last = codes.length >= count ? codes.at(-1) : undefined;
        code = last ? /\b(\d{6})\b/.exec(last.text)?.[1] : undefined;
        return code;
      },
      { message: `verification e-mail for ${email}`, timeout: 15_000 },
    )
    .toMatch(/^\d{6}$/);
  return code as string;
}

/** Waits for the password-reset e-mail sent to `email` and returns its link. */
async function resetLink(email: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${MAIL_CAPTURE_URL}/messages?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as CapturedMail[];
        const last = mails.filter((mail) => /reset/i.test(mail.subject)).at(-1);
        link = last ? /(https?:\/\/\S+)/.exec(last.text)?.[1] : undefined;
        return link;
      },
      { message: `password-reset e-mail for ${email}`, timeout: 15_000 },
    )
    .toContain('/reset-password?token=');
  return link as string;
}

async function register(page: Page, fullName: string, email: string): Promise<void> {
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await page.getByLabel('Full name', { exact: true }).fill(fullName);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
  await expect(page.getByTestId('verification-email')).toHaveText(email);
}

/** A new verified account, signed in on `page`; answers its e-mail. */
async function signedUpAndIn(page: Page, fullName: string, prefix: string): Promise<string> {
  const email = uniqueEmail(prefix);
  await register(page, fullName, email);
  await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email));
  await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
  await page.goto('/login');
  await submitLoginForm(page, email);
  await expect(page).toHaveURL('/');
  return email;
}

/** Signs in through the login form open on `page` (what these journeys test). */
async function submitLoginForm(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test.describe('accounts', () => {
  test('sign up, verify with the mailed code, sign in, edit the profile, upload an avatar, sign out', async ({ page }) => {
    const email = uniqueEmail('journey');
    const fullName = 'Lan Journey Tran';

    // Sign up and verify: the code field submits by itself at the sixth digit.
    await register(page, fullName, email);
    await expect(page.getByRole('button', { name: 'Resend code' })).toBeEnabled();
    const code = await verificationCode(email);
    await page.getByLabel('Verification code', { exact: true }).fill(`${code.slice(0, 3)} ${code.slice(3)}`);
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
    await expect(page).toHaveURL('/login', { timeout: 10_000 });

    // Sign in: back home, and the header shows the signed-in controls.
    await submitLoginForm(page, email);
    await expect(page).toHaveURL('/');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
    await expect(header.getByText('User', { exact: true })).toBeVisible();
    const avatarLink = header.getByRole('link', { name: `My account (${fullName})` });
    await expect(avatarLink).toHaveAttribute('href', '/account');
    await expect(avatarLink.getByRole('img', { name: fullName })).toHaveText('LT');
    await expect(header.getByRole('link', { name: 'Login' })).toHaveCount(0);

    // Signed in, /login sends the user on, never to another site: without a usable callback to
    // their dashboard (the public pages' Login link, the same for everyone, must reach the account).
    await page.goto('/login?callback=https://evil.example/steal');
    await expect(page).toHaveURL('/dashboard');
    await page.goto('/register?callback=%2Fabout');
    await expect(page).toHaveURL('/about');

    // The account page: information card, then edit the profile.
    await avatarLink.click();
    await expect(page).toHaveURL('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
    await expect(page.getByText('Verified', { exact: true })).toBeVisible();
    await expect(page.getByText('Active', { exact: true })).toBeVisible();
    await expect(page.getByTestId('profile-email')).toHaveText(email);
    await expect(page.getByRole('button', { name: 'Two-Factor Authentication Setup' })).toBeEnabled();

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full Name', { exact: true }).fill('Lan Edited Nguyen');
    await page.getByLabel('About Me', { exact: true }).fill('I read about gardens and ships.');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile updated successfully!')).toBeVisible();
    await expect(page.getByTestId('profile-full-name')).toHaveText('Lan Edited Nguyen');
    await expect(page.getByTestId('profile-bio')).toHaveText('I read about gardens and ships.');
    await page.reload();
    await expect(page.getByTestId('profile-full-name')).toHaveText('Lan Edited Nguyen');
    await expect(page.getByRole('banner').getByRole('link', { name: 'My account (Lan Edited Nguyen)' }).getByRole('img')).toHaveText('LN');

    // Cancel drops unsaved changes.
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('Full Name', { exact: true }).fill('Not Saved');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('profile-full-name')).toHaveText('Lan Edited Nguyen');

    // Avatar: a text file is refused on the client, a real PNG uploads with progress.
    const chooser = page.getByLabel('Choose avatar image', { exact: true });
    await chooser.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await expect(page.getByText('Please select an image file (jpg, png, gif, ...)')).toBeVisible();
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    await chooser.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByText('Avatar updated successfully!')).toBeVisible();
    await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toHaveAttribute('aria-valuenow', '100');
    const uploaded = page.getByTestId('account-avatar').getByRole('img', { name: 'Lan Edited Nguyen' });
    await expect(uploaded).toHaveAttribute('src', /\S+/);
    const src = await uploaded.getAttribute('src');
    expect((await page.request.get(src as string)).status()).toBe(200);
    await page.reload();
    await expect(page.getByRole('banner').getByRole('img', { name: 'Lan Edited Nguyen' })).toHaveAttribute('src', src as string);

    // Sign out: confirm, then home, logged out.
    page.once('dialog', (dialog) => {
      expect(dialog.message()).toBe('Are you sure you want to logout?');
      void dialog.accept();
    });
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toHaveCount(0);
    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Not Logged In' })).toBeVisible();
  });

  test('pages that need a session send anonymous visitors to /login with the way back, and sign-in returns there', async ({
    page,
    request,
  }) => {
    for (const path of ['/dashboard', '/my-comments?page=2', '/author/posts', '/admin/users']) {
      const response = await request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers().location, path).toBe(`/login?callback=${encodeURIComponent(path)}`);
    }
    const analytics = await request.get('/admin/analytics', { maxRedirects: 0 });
    expect(analytics.status()).toBe(200);
    const legacy = await request.get('/auth/login?callback=%2Fliked-posts', { maxRedirects: 0 });
    expect(legacy.status()).toBe(302);
    expect(legacy.headers().location).toBe('/login?callback=%2Fliked-posts');

    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1, name: 'Not Logged In' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();

    // A verified account signs in from the redirect and lands where it was going.
    const email = uniqueEmail('callback');
    await register(page, 'Minh Callback', email);
    await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email));
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
    await page.goto('/my-comments');
    await expect(page).toHaveURL(`/login?callback=${encodeURIComponent('/my-comments')}`);
    await submitLoginForm(page, email);
    await expect(page).toHaveURL('/my-comments');
  });

  test('the login form checks its fields and explains a refused sign-in', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('checkbox', { name: 'Remember me for 30 days' })).not.toBeChecked();
    await expect(page.getByRole('main').getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    await expect(page.getByRole('main').getByRole('link', { name: 'Sign up', exact: true })).toHaveAttribute('href', '/register');
    await expect(page.getByRole('link', { name: '← Back to home' })).toHaveAttribute('href', '/');

    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(page.getByText('Password must be at least 6 characters')).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill('not-an-email');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByText('Invalid email address')).toBeVisible();

    const password = page.getByLabel('Password', { exact: true });
    await password.fill('secret-guess');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');

    await submitLoginForm(page, uniqueEmail('nobody'), 'secret-guess');
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
  });

  test('forgot password shows the address it wrote to; a reset link without a valid token is refused', async ({ page }) => {
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Email là bắt buộc')).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill('nope');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByText('Email không hợp lệ')).toBeVisible();
    const email = uniqueEmail('forgot');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByTestId('reset-email')).toHaveText(email);
    await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');

    await page.goto('/reset-password');
    await expect(page.getByText('Liên kết đặt lại mật khẩu không hợp lệ hoặc đã hết hạn.')).toBeVisible();
    await expect(page.getByText('Token không được tìm thấy')).toBeVisible();
    await page.goto('/reset-password?token=abcdefghijklmnopqrstuvwxyz0123456789');
    await expect(page.getByText('Liên kết đặt lại mật khẩu không hợp lệ hoặc đã hết hạn.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to login' })).toHaveAttribute('href', '/login');
  });

  test('a mailed reset link sets a new password, and the new password signs in', async ({ page }) => {
    const email = uniqueEmail('reset');
    await register(page, 'Hoa Reset', email);
    await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email));
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();

    await page.goto('/forgot-password');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByTestId('reset-email')).toHaveText(email);

    const link = await resetLink(email);
    const token = new URL(link).searchParams.get('token') as string;
    await page.goto(`${new URL(link).pathname}${new URL(link).search}`);
    await expect(page.getByText(`${token.slice(0, 8)}…${token.slice(-8)}`)).toBeVisible();
    const newPassword = 'N3w-Passw0rd!';
    await page.getByLabel('New password', { exact: true }).fill('short');
    await expect(page.getByTestId('password-strength')).toHaveText('Yếu');
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await expect(page.getByTestId('password-strength')).toHaveText('Rất mạnh');
    await page.getByLabel('Confirm password', { exact: true }).fill('N3w-Passw0rd?');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByText('Mật khẩu xác nhận không khớp')).toBeVisible();
    await page.getByLabel('Confirm password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await expect(page.getByRole('heading', { name: 'Password reset successful' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in now' })).toHaveAttribute('href', '/login');
    await expect(page).toHaveURL('/login', { timeout: 10_000 });

    await submitLoginForm(page, email, PASSWORD);
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password.');
    await submitLoginForm(page, email, newPassword);
    await expect(page).toHaveURL('/');
    await expect(page.getByRole('banner').getByRole('link', { name: 'Dashboard' })).toBeVisible();
  });

  test('resend code waits between sends, and only the newest code verifies', async ({ page }) => {
    const email = uniqueEmail('resend');
    await register(page, 'Quang Resend', email);
    const first = await verificationCode(email);
    await page.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.getByText('Mã xác thực đã được gửi lại thành công!')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Resend in \d:\d\d$/ })).toBeDisabled();
    const stored = await page.evaluate((address) => localStorage.getItem(`resendVerification:${address}`), email);
    expect(JSON.parse(stored as string)).toMatchObject({ attempts: 1 });

    const second = await verificationCode(email, 2);
    if (first !== second) {
      await page.getByLabel('Verification code', { exact: true }).fill(first);
      await expect(page.getByRole('alert')).toHaveText('Mã xác thực không đúng. Vui lòng thử lại.');
    }
    await page.getByLabel('Verification code', { exact: true }).fill('12ab');
    await expect(page.getByLabel('Verification code', { exact: true })).toHaveValue('12');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByRole('alert')).toHaveText('Mã xác thực phải là 6 số');
    await page.getByLabel('Verification code', { exact: true }).fill(second);
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
  });

  test('change password in the account modal, a chosen avatar saved by the profile’s Save, avatar delete, and a request with an expired access token renews it once', async ({
    page,
    context,
  }) => {
    test.setTimeout(60_000);
    const email = await signedUpAndIn(page, 'Bao Security', 'security');
    await page.goto('/account');

    await page.getByRole('button', { name: 'Change Password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change Password' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByText('Mật khẩu hiện tại là bắt buộc')).toBeVisible();
    await expect(dialog.getByText('Mật khẩu mới là bắt buộc')).toBeVisible();
    await expect(dialog.getByText('Vui lòng xác nhận mật khẩu')).toBeVisible();
    await dialog.getByLabel('New password', { exact: true }).fill('abcdefgh');
    await expect(dialog.getByTestId('password-strength')).toHaveText('Trung bình');
    await dialog.getByLabel('Current password', { exact: true }).fill('Wrong-Passw0rd!');
    await dialog.getByLabel('New password', { exact: true }).fill('Brand-N3w-Pass!');
    await dialog.getByLabel('Confirm new password', { exact: true }).fill('Brand-N3w-Pass!');
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Mật khẩu hiện tại không đúng');
    await dialog.getByLabel('Current password', { exact: true }).fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    await expect(dialog.getByText('Đổi mật khẩu thành công!')).toBeVisible();
    await expect(dialog).toBeHidden({ timeout: 5_000 });

    // A chosen avatar is not dropped by saving the profile without pressing Upload: the
    // profile's Save uploads it first. The access cookie is gone (expired) meanwhile: the first
    // call gets a 401, renews the session with the refresh cookie once, and both calls go through.
    const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: { r: 200, g: 40, b: 90 } } })
      .png()
      .toBuffer();
    await page.getByLabel('Choose avatar image').setInputFiles({ name: 'a.png', mimeType: 'image/png', buffer: png });
    await context.clearCookies({ name: 'inkwell_access' });
    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('About Me', { exact: true }).fill('Renewed quietly.');
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/auth/refresh-token')) refreshes.push(response.status());
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Avatar updated successfully!')).toBeVisible();
    await expect(page.getByText('Profile updated successfully!')).toBeVisible();
    expect(refreshes).toEqual([200]);
    expect((await context.cookies()).some((cookie) => cookie.name === 'inkwell_access')).toBe(true);
    const profile = (await (await page.request.get('/api/v1/users/profile')).json()).data as { avatar: string | null };
    expect(profile.avatar).toMatch(/\S/);
    await expect(page.getByTestId('account-avatar').getByRole('img', { name: 'Bao Security' })).toHaveAttribute('src', profile.avatar!);

    // Avatar delete: the initials come back.
    await page.getByRole('button', { name: 'Delete avatar' }).click();
    await expect(page.getByText('Avatar removed.')).toBeVisible();
    await expect(page.getByTestId('account-avatar').getByRole('img', { name: 'Bao Security' })).toHaveText('BS');

    // Still signed in with the new password after all that.
    await page.reload();
    await expect(page.getByTestId('profile-bio')).toHaveText('Renewed quietly.');
    await expect(page.getByTestId('profile-email')).toHaveText(email);
  });

  test('a page rendered without the access cookie renews the session on the server', async ({ page, context }) => {
    await signedUpAndIn(page, 'Chi Server', 'server-refresh');
    await context.clearCookies({ name: 'inkwell_access' });
    const response = await page.goto('/account');
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: 'My Account' })).toBeVisible();
    expect((await context.cookies()).some((cookie) => cookie.name === 'inkwell_access')).toBe(true);
  });

  test('signing out in one tab signs out the other tabs', async ({ page, context, hydrated }) => {
    await signedUpAndIn(page, 'Dung Tabs', 'tabs');
    const other = await context.newPage();
    await other.goto('/about');
    await expect(other.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible();
    await hydrated(island(other, 'SessionRefresh'));

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL('/');
    await expect(other.getByRole('banner').getByRole('link', { name: 'Login' })).toBeVisible();
    await expect(other).toHaveURL('/about');
  });

  test('an administrator sees the admin dashboard link and the Admin badge', async ({ page }) => {
    const email = process.env.E2E_ADMIN_EMAIL;
    const password = process.env.E2E_ADMIN_PASSWORD;
    if (!email || !password)
      throw new Error('E2E_ADMIN_EMAIL / E2E_ADMIN_PASSWORD are not set: run the browser tests with npm run test:browser');
    await page.goto('/login?callback=%2Fabout');
    await submitLoginForm(page, email, password);
    await expect(page).toHaveURL('/about');
    const header = page.getByRole('banner');
    await expect(header.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/admin');
    await expect(header.getByText('Admin', { exact: true })).toBeVisible();
  });

  test('an account that never entered its code is refused at sign-in and can verify from there', async ({ page }) => {
    const email = uniqueEmail('later');
    await register(page, 'Tuan Later', email);
    await verificationCode(email);
    await page.goto('/login');
    await submitLoginForm(page, email);
    await expect(page.getByRole('alert')).toContainText('Account not verified or locked.');
    await page.getByRole('link', { name: 'Verify your email' }).click();
    await expect(page).toHaveURL(`/register?verify=${encodeURIComponent(email)}`);
    await expect(page.getByTestId('verification-email')).toHaveText(email);
    await page.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.getByText('Mã xác thực đã được gửi lại thành công!')).toBeVisible();
    await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email, 2));
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
    await expect(page).toHaveURL('/login', { timeout: 10_000 });
    await submitLoginForm(page, email);
    await expect(page).toHaveURL('/');
  });

  test('the verification screen survives a reload, and signing up again offers verification', async ({ page }) => {
    const email = uniqueEmail('reload');
    await register(page, 'Hoa Reload', email);
    await expect(page).toHaveURL(`/register?verify=${encodeURIComponent(email)}`);
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Verify your email' })).toBeVisible();
    await expect(page.getByTestId('verification-email')).toHaveText(email);

    // Registering the same address again: the 409 offers the verification screen with a resend.
    await page.goto('/register');
    await page.getByLabel('Full name', { exact: true }).fill('Hoa Reload');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('alert')).toContainText('This email is already in use.');
    await expectNoSeriousViolations(page, '/register (409)');
    await page.getByRole('link', { name: 'Verify your email' }).click();
    await expect(page.getByTestId('verification-email')).toHaveText(email);
    await page.getByRole('button', { name: 'Resend code' }).click();
    await expect(page.getByText('Mã xác thực đã được gửi lại thành công!')).toBeVisible();
    await expectNoSeriousViolations(page, '/register?verify (resent)');
    await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email, 2));
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
  });

  test('a banned user is told so with the reason, and is not offered verification', async ({ page, baseURL, playwright }) => {
    const email = uniqueEmail('banned');
    await register(page, 'Khanh Banned', email);
    await page.getByLabel('Verification code', { exact: true }).fill(await verificationCode(email));
    await expect(page.getByRole('heading', { name: 'Email verified!' })).toBeVisible();
    const admin = await adminApi(baseURL!, playwright);
    const found = await admin.get(`/api/v1/admin/users/search?query=${encodeURIComponent(email)}`);
    const id = ((await found.json()).data.content as { id: number; email: string }[]).find((user) => user.email === email)?.id;
    expect((await admin.post(`/api/v1/admin/users/${id}/ban`, { data: { reason: 'Repeated spam' } })).status()).toBe(200);
    await admin.dispose();

    await page.goto('/login');
    await submitLoginForm(page, email);
    await expect(page.getByRole('alert')).toHaveText('Your account has been banned. Reason: Repeated spam');
    await expect(page.getByRole('link', { name: 'Verify your email' })).toHaveCount(0);
    await expect(page).toHaveURL('/login');
    await expectNoSeriousViolations(page, '/login (banned)');
  });

  test('the silent refresh renews the session when 5 minutes or less remain', async ({ page, hydrated }) => {
    await signedUpAndIn(page, 'Yen Timer', 'timer');
    await page.clock.install();
    await page.goto('/about');
    await hydrated('SessionRefresh');
    const serverExpiry = Number(await page.evaluate(() => localStorage.getItem('tokenExpiry')));
    expect(serverExpiry).toBeGreaterThan(Date.now());

    // Ten minutes left: the 60-second check leaves the session alone.
    const refreshed = page.waitForResponse((response) => response.url().endsWith('/api/v1/auth/refresh-token'));
    let calls = 0;
    page.on('request', (request) => {
      if (request.url().endsWith('/api/v1/auth/refresh-token')) calls += 1;
    });
    await page.evaluate(() => localStorage.setItem('tokenExpiry', String(Date.now() + 10 * 60_000)));
    await page.clock.runFor(61_000);
    expect(calls).toBe(0);

    // Four minutes left: the next check renews it, and the new expiry is stored.
    await page.evaluate(() => localStorage.setItem('tokenExpiry', String(Date.now() + 4 * 60_000)));
    await page.clock.runFor(61_000);
    expect((await refreshed).status()).toBe(200);
    await expect
      .poll(async () => Number(await page.evaluate(() => localStorage.getItem('tokenExpiry'))) - (await page.evaluate(() => Date.now())))
      .toBeGreaterThan(10 * 60_000);
    await page.reload();
    await expect(page.getByRole('banner').getByRole('button', { name: 'Logout' })).toBeVisible();
  });
});

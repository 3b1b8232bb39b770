/** The account e-mails: plain text plus simple HTML. User data is escaped in the HTML part. */
import { countNoun, englishNoun } from '../../../isomorphic/plural';

/** The counted nouns of the e-mails ('1 new notification', '15 minutes'). */
const MINUTE = englishNoun('minute');
const NOTIFICATION = englishNoun('notification');
const NEW_NOTIFICATION = englishNoun('new notification');
const DAY = englishNoun('day');
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /** What the reader needs from it in one phrase (the code, the link): the line a terminal shows without SMTP. */
  gist: string;
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

const IGNORE_FOOTER = 'If you did not ask for this e-mail, you can ignore it.';

/** The account e-mails' HTML frame (the newsletter's confirmation uses it too). */
export function layout(title: string, body: string, footerHtml: string = IGNORE_FOOTER): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0"><tr><td align="center">
<table role="presentation" width="100%" style="max-width:480px;background:#ffffff;border-radius:8px;padding:32px" cellspacing="0" cellpadding="0"><tr><td>
<p style="margin:0 0 24px;font-size:20px;font-weight:700">Inkwell</p>
${body}
<p style="margin:32px 0 0;font-size:12px;color:#71717a">${footerHtml}</p>
</td></tr></table>
</td></tr></table>
</body></html>`;
}

export function verificationCodeMail(fullName: string, code: string, minutes: number): MailContent {
  const subject = 'Your Inkwell verification code';
  const text =
    `Hello ${fullName},\n\n` +
    `Your verification code is: ${code}\n\n` +
    `Enter it on the verification screen to activate your account. The code expires in ${countNoun(minutes, MINUTE)}.\n\n` +
    `If you did not create an Inkwell account, you can ignore this e-mail.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">Your verification code is:</p>
<p style="margin:0 0 16px;font-size:32px;font-weight:700;letter-spacing:8px;font-family:ui-monospace,Menlo,monospace">${escapeHtml(code)}</p>
<p style="margin:0">Enter it on the verification screen to activate your account. The code expires in ${countNoun(minutes, MINUTE)}.</p>`,
  );
  return { subject, text, html, gist: `code ${code}` };
}

export function passwordResetMail(fullName: string, link: string, minutes: number): MailContent {
  const subject = 'Reset your Inkwell password';
  const text =
    `Hello ${fullName},\n\n` +
    `Open this link to choose a new password (it works once and expires in ${countNoun(minutes, MINUTE)}):\n\n` +
    `${link}\n\n` +
    `If you did not ask to reset your password, you can ignore this e-mail; your password stays the same.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 24px">Choose a new password with the button below. The link works once and expires in ${countNoun(minutes, MINUTE)}.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Reset password</a></p>
<p style="margin:0;font-size:13px;color:#52525b;word-break:break-all">Or paste this address into your browser: ${escapeHtml(link)}</p>`,
  );
  return { subject, text, html, gist: `link ${link}` };
}

/** An administrator generated a new password for the account (POST /admin/users/{id}/generate-password). */
export function generatedPasswordMail(fullName: string, password: string, loginUrl: string): MailContent {
  const subject = 'Your new Inkwell password';
  const text =
    `Hello ${fullName},\n\n` +
    `An administrator set a new password for your Inkwell account. Your new password is: ${password}\n\n` +
    `You were signed out everywhere. Sign in at ${loginUrl} with this password, then change it on your account page.\n\n` +
    `If you did not expect this, contact the site's administrators.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">An administrator set a new password for your Inkwell account. Your new password is:</p>
<p style="margin:0 0 16px;font-size:20px;font-weight:700;font-family:ui-monospace,Menlo,monospace">${escapeHtml(password)}</p>
<p style="margin:0 0 24px">You were signed out everywhere. Sign in with this password, then change it on your account page.</p>
<p style="margin:0"><a href="${escapeHtml(loginUrl)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Sign in</a></p>`,
  );
  return { subject, text, html, gist: 'a new password (never printed)' };
}

// ---- Webhooks ----------------------------------------------------------------

/** To the admin of a webhook the delivery worker turned off after its failure window. */
export function webhookDisabledMail(fullName: string, url: string, reason: string, link: string): MailContent {
  const subject = 'An Inkwell webhook was turned off';
  const text =
    `Hello ${fullName},\n\n` +
    `The webhook to ${url} was turned off. ${reason}\n\n` +
    `Its delivery log shows what the receiver answered. Fix the receiver, turn the webhook on again and redeliver what it missed: ${link}\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">The webhook to <strong>${escapeHtml(url)}</strong> was turned off. ${escapeHtml(reason)}</p>
<p style="margin:0 0 24px">Its delivery log shows what the receiver answered. Fix the receiver, turn the webhook on again and redeliver what it missed.</p>
<p style="margin:0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Open integrations</a></p>`,
    "You receive this because you administer this site's webhooks.",
  );
  return { subject, text, html, gist: `webhook ${url} turned off; ${link}` };
}

/** One line of a notification e-mail: what happened, and where to see it. */
export interface NotificationMailItem {
  /** A sentence such as 'Lan replied to your comment on “Hello”.' (isomorphic/notification-wording.ts) */
  summary: string;
  /** The comment or reason to quote, if any. */
  quote: string | null;
  /** Absolute link to open. */
  link: string;
}

function unsubscribeFooter(unsubscribeUrl: string, what: string): { text: string; html: string } {
  return {
    text: `You get this e-mail because of your notification settings (${what}). Unsubscribe with one click: ${unsubscribeUrl}\n`,
    html: `You get this e-mail because of your notification settings (${escapeHtml(what)}). <a href="${escapeHtml(unsubscribeUrl)}" style="color:#52525b">Unsubscribe</a> with one click, or change your settings on your account page.`,
  };
}

/** One notification by e-mail (replies, review outcomes, and whatever the user switched on). */
export function notificationMail(
  fullName: string,
  subject: string,
  item: NotificationMailItem,
  unsubscribeUrl: string,
  what: string,
): MailContent {
  const footer = unsubscribeFooter(unsubscribeUrl, what);
  const text =
    `Hello ${fullName},\n\n` +
    `${item.summary}\n\n` +
    (item.quote ? `"${item.quote}"\n\n` : '') +
    `Open it: ${item.link}\n\n` +
    `--\n${footer.text}`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">${escapeHtml(item.summary)}</p>
${item.quote ? `<blockquote style="margin:0 0 24px;padding:8px 16px;border-left:3px solid #d4d4d8;color:#3f3f46">${escapeHtml(item.quote)}</blockquote>` : ''}
<p style="margin:0"><a href="${escapeHtml(item.link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Open</a></p>`,
    footer.html,
  );
  return { subject, text, html, gist: `link ${item.link}` };
}

/** The hourly digest: what happened since the last one, oldest first. */
export function digestMail(fullName: string, items: NotificationMailItem[], unsubscribeUrl: string): MailContent {
  const subject = `Inkwell: ${countNoun(items.length, NEW_NOTIFICATION)}`;
  const footer = unsubscribeFooter(unsubscribeUrl, 'the hourly digest');
  const text =
    `Hello ${fullName},\n\n` +
    `Here is what happened since your last digest:\n\n` +
    items.map((item) => `- ${item.summary}${item.quote ? `\n  "${item.quote}"` : ''}\n  ${item.link}`).join('\n\n') +
    `\n\n--\n${footer.text}`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">Here is what happened since your last digest:</p>
<ul style="margin:0;padding-left:20px">${items
      .map(
        (item) =>
          `<li style="margin:0 0 12px"><a href="${escapeHtml(item.link)}" style="color:#18181b">${escapeHtml(item.summary)}</a>${item.quote ? `<br><span style="color:#52525b">${escapeHtml(item.quote)}</span>` : ''}</li>`,
      )
      .join('\n')}</ul>`,
    footer.html,
  );
  return { subject, text, html, gist: countNoun(items.length, NOTIFICATION) };
}

// ---- sessions: the new-device alert ------------------------------------------------

/** What the new-sign-in e-mail tells: the device, its approximate place and when (in the site's zone). */
export interface NewSignInFacts {
  device: string;
  place: string;
  /** Already formatted ('Nov 22, 2026, 3:04 PM GMT+7'). */
  when: string;
  /** The account page's sessions section, where the session can be signed out. */
  accountUrl: string;
}

export function newSignInMail(fullName: string, facts: NewSignInFacts): MailContent {
  const subject = 'New sign-in to your account';
  const text =
    `Hello ${fullName},\n\n` +
    `Your Inkwell account was just signed in to from a device it was not used on before:\n\n` +
    `Device: ${facts.device}\n` +
    `Place (approximate): ${facts.place}\n` +
    `Time: ${facts.when}\n\n` +
    `If this was you, there is nothing to do.\n\n` +
    `If it wasn't you, open your account page, sign that session out under 'Where you're signed in', and change your password:\n${facts.accountUrl}\n\n` +
    `--\nYou can turn these e-mails off on your account page.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">Your Inkwell account was just signed in to from a device it was not used on before:</p>
<table role="presentation" cellspacing="0" cellpadding="0" style="margin:0 0 16px;font-size:14px">
<tr><td style="padding:2px 12px 2px 0;color:#52525b">Device</td><td style="padding:2px 0;font-weight:600">${escapeHtml(facts.device)}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#52525b">Place (approximate)</td><td style="padding:2px 0;font-weight:600">${escapeHtml(facts.place)}</td></tr>
<tr><td style="padding:2px 12px 2px 0;color:#52525b">Time</td><td style="padding:2px 0;font-weight:600">${escapeHtml(facts.when)}</td></tr>
</table>
<p style="margin:0 0 16px">If this was you, there is nothing to do.</p>
<p style="margin:0 0 24px">If it wasn't you, sign that session out under 'Where you're signed in' on your account page, and change your password.</p>
<p style="margin:0"><a href="${escapeHtml(facts.accountUrl)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Review your sessions</a></p>`,
    'You can turn these e-mails off on your account page.',
  );
  return { subject, text, html, gist: `${facts.device}, ${facts.place}; review ${facts.accountUrl}` };
}

// ---- two-factor sign-in ---------------------------------------------------------

/** An administrator reset the account's two-factor sign-in (DELETE /admin/users/{id}/two-factor). */
export function twoFactorResetMail(fullName: string, accountUrl: string): MailContent {
  const subject = 'Two-factor sign-in was turned off on your Inkwell account';
  const text =
    `Hello ${fullName},\n\n` +
    `An administrator reset two-factor sign-in on your Inkwell account: signing in now needs your password only, and your old recovery codes no longer work.\n\n` +
    `Set it up again on your account page: ${accountUrl}\n\n` +
    `If you did not ask for this, change your password and contact the site's administrators.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">An administrator reset two-factor sign-in on your Inkwell account: signing in now needs your password only, and your old recovery codes no longer work.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(accountUrl)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Set it up again</a></p>
<p style="margin:0">If you did not ask for this, change your password and contact the site's administrators.</p>`,
    "You get this e-mail because your account's security changed.",
  );
  return { subject, text, html, gist: `two-factor sign-in reset; set it up again at ${accountUrl}` };
}

// ---- Your data --------------------------------------------------------------------

/** The user's data export is ready ('Download my data' on /account): the link needs their session too. */
export function dataExportReadyMail(fullName: string, link: string, expiresAt: string): MailContent {
  const subject = 'Your Inkwell data is ready to download';
  const text =
    `Hello ${fullName},\n\n` +
    `The export of your data you asked for is ready. Download it while signed in: ${link}\n\n` +
    `The link works until ${expiresAt}; after that, ask for a new export on your account page.\n\n` +
    `If you did not ask for it, change your password: someone may be signed in to your account.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 24px">The export of your data you asked for is ready. Download it while signed in; the link works until ${escapeHtml(expiresAt)}.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Download my data</a></p>
<p style="margin:0;font-size:13px;color:#52525b">If you did not ask for it, change your password: someone may be signed in to your account.</p>`,
  );
  return { subject, text, html, gist: `link ${link}` };
}

// ---- An import's invitations ------------------------------------------------------

/**
 * To an author account a site import created (unverified, no password), when the administrator
 * asked for invitations: a password reset link that sets the first password and verifies the address.
 */
export function importInvitationMail(fullName: string, invitedBy: string, link: string, days: number, siteUrl: string): MailContent {
  const subject = 'Your posts are on Inkwell: choose a password';
  const text =
    `Hello ${fullName},\n\n` +
    `${invitedBy} moved a blog you wrote for to Inkwell (${siteUrl}), with your posts, and made you an author account for this address.\n\n` +
    `Open this link to choose your password and sign in (it works once and expires in ${countNoun(days, DAY)}):\n\n` +
    `${link}\n\n` +
    `Once it has expired, ask for a new one with 'Forgot password' on the sign-in page.\n\n` +
    `If you do not want the account, you can ignore this e-mail: nobody can sign in to it without a password.\n`;
  const html = layout(
    subject,
    `<p style="margin:0 0 16px">Hello ${escapeHtml(fullName)},</p>
<p style="margin:0 0 16px">${escapeHtml(invitedBy)} moved a blog you wrote for to Inkwell (${escapeHtml(siteUrl)}), with your posts, and made you an author account for this address.</p>
<p style="margin:0 0 24px">Choose your password with the button below and sign in. The link works once and expires in ${countNoun(days, DAY)}; after that, ask for a new one with 'Forgot password' on the sign-in page.</p>
<p style="margin:0 0 24px"><a href="${escapeHtml(link)}" style="display:inline-block;background:#18181b;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Choose a password</a></p>
<p style="margin:0;font-size:13px;color:#52525b;word-break:break-all">Or paste this address into your browser: ${escapeHtml(link)}</p>`,
    'If you do not want the account, you can ignore this e-mail: nobody can sign in to it without a password.',
  );
  return { subject, text, html, gist: `link ${link}` };
}

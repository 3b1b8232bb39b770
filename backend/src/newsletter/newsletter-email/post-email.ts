import { Body, Button, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { plainTextSelectors, render } from '@react-email/render';
import { createElement as h, type ReactElement } from 'react';
import { EMAIL_COLOURS, EMAIL_WIDTH, emailHtml, withRef } from './post-html';

/** The analytics source of every link into the site from a newsletter e-mail. */
export const NEWSLETTER_REF = 'newsletter';

/**
 * Stand-ins rendered into the once-per-post HTML and text, replaced per recipient (rendering
 * React once per post, not per e-mail, is what lets 100,000 e-mails go out without 100,000
 * renders). Letters and underscores only: no escaping changes them.
 */
export const RECIPIENT_SLOTS = {
  unsubscribe: 'NLSLOTUNSUBSCRIBEURL',
  preferences: 'NLSLOTPREFERENCESURL',
  reason: 'NLSLOTFOLLOWREASON',
} as const;

export interface PostEmailFacts {
  title: string;
  /** The post's stored HTML (sanitized on save). */
  contentHtml: string;
  excerpt: string | null;
  slug: string;
  authorName: string;
  authorSlug: string | null;
  readingTime: number;
  publishedAt: Date | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** html-to-text: the post's own tables stay tables in the plain-text part (the layout's tables are not). */
const PLAIN_TEXT = {
  wordwrap: 78,
  selectors: [...plainTextSelectors, { selector: 'table.post-table', format: 'dataTable' }],
};

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const muted = { color: EMAIL_COLOURS.muted, fontSize: '14px', lineHeight: '1.5', fontFamily: FONT, margin: '0 0 8px' };
const link = { color: EMAIL_COLOURS.link, textDecoration: 'underline' };

function postEmail(post: PostEmailFacts, publicUrl: string, siteName: string, footer: 'recipient' | 'test'): ReactElement {
  const postUrl = withRef(`/blog/${encodeURIComponent(post.slug)}`, publicUrl, NEWSLETTER_REF);
  const commentsUrl = `${postUrl}#comments`;
  const authorUrl = post.authorSlug ? withRef(`/authors/${encodeURIComponent(post.authorSlug)}`, publicUrl, NEWSLETTER_REF) : undefined;
  const minutes = `${post.readingTime} min read`;
  return h(
    Html,
    { lang: 'en', dir: 'ltr' },
    h(Head, null, h('title', null, post.title)),
    h(Preview, null, post.excerpt || `${post.title}, by ${post.authorName}`),
    h(
      Body,
      { style: { backgroundColor: EMAIL_COLOURS.page, margin: 0, padding: '24px 0', fontFamily: FONT } },
      h(
        Container,
        { style: { maxWidth: `${EMAIL_WIDTH + 48}px`, backgroundColor: EMAIL_COLOURS.background, padding: '24px', borderRadius: '8px' } },
        h(Text, { style: { ...muted, textTransform: 'uppercase', letterSpacing: '0.05em' } }, siteName),
        h(
          Heading,
          { as: 'h1', style: { color: EMAIL_COLOURS.text, fontSize: '28px', lineHeight: '1.25', margin: '8px 0 12px', fontFamily: FONT } },
          h(Link, { href: postUrl, style: { color: EMAIL_COLOURS.text, textDecoration: 'none' } }, post.title),
        ),
        h(
          Text,
          { style: muted },
          'By ',
          authorUrl ? h(Link, { href: authorUrl, style: link }, post.authorName) : post.authorName,
          ` · ${minutes}`,
        ),
        h(Hr, { style: { borderColor: EMAIL_COLOURS.border, margin: '16px 0 24px' } }),
        h('div', { dangerouslySetInnerHTML: { __html: emailHtml(post.contentHtml, { publicUrl, ref: NEWSLETTER_REF }) } }),
        h(
          Section,
          { style: { margin: '24px 0 8px' } },
          h(
            Button,
            {
              href: postUrl,
              style: {
                backgroundColor: EMAIL_COLOURS.link,
                color: '#ffffff',
                padding: '12px 20px',
                borderRadius: '6px',
                fontWeight: 600,
                fontFamily: FONT,
                fontSize: '16px',
              },
            },
            'Read on the site',
          ),
          h(Text, { style: { ...muted, margin: '16px 0 0' } }, h(Link, { href: commentsUrl, style: link }, 'Read and write comments')),
        ),
        h(Hr, { style: { borderColor: EMAIL_COLOURS.border, margin: '24px 0 16px' } }),
        footer === 'test'
          ? h(
              Text,
              { style: muted },
              'This is a test of the newsletter e-mail. Each subscriber’s copy says why they receive it and carries their own links to unsubscribe and to their preferences.',
            )
          : [
              h(Text, { key: 'reason', style: muted }, `You receive this because you follow ${RECIPIENT_SLOTS.reason} on ${siteName}.`),
              h(
                Text,
                { key: 'links', style: muted },
                h(Link, { href: RECIPIENT_SLOTS.unsubscribe, style: link }, 'Unsubscribe from this'),
                ' · ',
                h(Link, { href: RECIPIENT_SLOTS.preferences, style: link }, 'Your newsletter preferences'),
              ),
            ],
      ),
    ),
  );
}

/**
 * A post's newsletter e-mail, rendered with react-email: the HTML (inline styles, `lang`, alt
 * text on every image, colours of AA contrast) and its plain-text part. With `footer: 'recipient'`
 * the footer holds RECIPIENT_SLOTS, which `personalise` fills per subscriber.
 */
export async function renderPostEmail(
  post: PostEmailFacts,
  publicUrl: string,
  footer: 'recipient' | 'test' = 'recipient',
  siteName = 'Inkwell',
): Promise<RenderedEmail> {
  const element = postEmail(post, publicUrl, siteName, footer);
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true, htmlToTextOptions: PLAIN_TEXT })]);
  return { subject: post.title, html, text };
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** One subscriber's copy: the slots filled (escaped for the HTML part). */
export function personalise(email: RenderedEmail, values: { unsubscribe: string; preferences: string; reason: string }): RenderedEmail {
  let { html, text } = email;
  for (const key of Object.keys(RECIPIENT_SLOTS) as (keyof typeof RECIPIENT_SLOTS)[]) {
    html = html.split(RECIPIENT_SLOTS[key]).join(escapeHtml(values[key]));
    text = text.split(RECIPIENT_SLOTS[key]).join(values[key]);
  }
  return { subject: email.subject, html, text };
}

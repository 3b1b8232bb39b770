import { Body, Container, Head, Heading, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { render } from '@react-email/render';
import { createElement as h } from 'react';
import { EMAIL_COLOURS, EMAIL_WIDTH, withRef } from './post-html';
import { NEWSLETTER_REF, RenderedEmail } from './post-email';

export interface DigestPost {
  title: string;
  slug: string;
  excerpt: string | null;
  authorName: string;
  readingTime: number;
}

const FONT = "-apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";
const muted = { color: EMAIL_COLOURS.muted, fontSize: '14px', lineHeight: '1.5', fontFamily: FONT, margin: '0 0 8px' };
const link = { color: EMAIL_COLOURS.link, textDecoration: 'underline' };

/** The weekly digest: the week's posts from the subscriber's follows, each with its author, reading time and link (ref=newsletter). */
export async function renderDigestEmail(
  posts: DigestPost[],
  links: { publicUrl: string; unsubscribe: string; preferences: string; weekOf: string },
  siteName = 'Inkwell',
): Promise<RenderedEmail> {
  const subject = `${siteName}: ${posts.length === 1 ? '1 new post' : `${posts.length} new posts`} this week`;
  const element = h(
    Html,
    { lang: 'en', dir: 'ltr' },
    h(Head, null, h('title', null, subject)),
    h(Preview, null, posts.map((post) => post.title).join(' · ')),
    h(
      Body,
      { style: { backgroundColor: EMAIL_COLOURS.page, margin: 0, padding: '24px 0', fontFamily: FONT } },
      h(
        Container,
        { style: { maxWidth: `${EMAIL_WIDTH + 48}px`, backgroundColor: EMAIL_COLOURS.background, padding: '24px', borderRadius: '8px' } },
        h(Heading, { as: 'h1', style: { color: EMAIL_COLOURS.text, fontSize: '24px', margin: '0 0 8px', fontFamily: FONT } }, subject),
        h(Text, { style: muted }, `The week of ${links.weekOf}, from what you follow.`),
        h(Hr, { style: { borderColor: EMAIL_COLOURS.border, margin: '16px 0' } }),
        ...posts.map((post, index) => {
          const url = withRef(`/blog/${encodeURIComponent(post.slug)}`, links.publicUrl, NEWSLETTER_REF);
          return h(
            Section,
            { key: index, style: { margin: '0 0 20px' } },
            h(
              Heading,
              { as: 'h2', style: { fontSize: '20px', margin: '0 0 4px', fontFamily: FONT } },
              h(Link, { href: url, style: { ...link, color: EMAIL_COLOURS.text } }, post.title),
            ),
            h(Text, { style: muted }, `By ${post.authorName} · ${post.readingTime} min read`),
            post.excerpt
              ? h(
                  Text,
                  { style: { color: EMAIL_COLOURS.text, fontSize: '16px', lineHeight: '1.6', margin: '0 0 8px', fontFamily: FONT } },
                  post.excerpt,
                )
              : null,
            h(
              Text,
              { style: muted },
              h(Link, { href: url, style: link }, 'Read it'),
              ' · ',
              h(Link, { href: `${url}#comments`, style: link }, 'Comments'),
            ),
          );
        }),
        h(Hr, { style: { borderColor: EMAIL_COLOURS.border, margin: '24px 0 16px' } }),
        h(Text, { style: muted }, `You receive this weekly digest because you follow authors, tags or the publication on ${siteName}.`),
        h(
          Text,
          { style: muted },
          h(Link, { href: links.unsubscribe, style: link }, 'Unsubscribe from everything'),
          ' · ',
          h(Link, { href: links.preferences, style: link }, 'Your newsletter preferences'),
        ),
      ),
    ),
  );
  const [html, text] = await Promise.all([render(element), render(element, { plainText: true })]);
  return { subject, html, text };
}

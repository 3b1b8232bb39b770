// Signs in with a personal API token, saves a draft and shows a refused call.
// Run (Node 20.19+): INKWELL_URL=https://blog.example.com INKWELL_TOKEN=inkw_… node first-draft.mjs
import { createInkwellClient, data, InkwellApiError } from '@inkwell/client';

// A personal API token from /account → API tokens (scopes: read, posts:write).
const inkwell = createInkwellClient({ baseUrl: process.env.INKWELL_URL, token: process.env.INKWELL_TOKEN });

const me = await data(inkwell.GET('/api/v1/users/profile'));
console.log(`Signed in as ${me.email}`);

const slug = `hello-from-a-script-${Date.now().toString(36)}`;
const draft = await data(
  inkwell.POST('/api/v1/blog/posts/author/create', {
    body: { title: 'Hello from a script', slug, summary: 'A first draft', content: '# Hello', tagSlugs: [] },
  }),
);
console.log(`Draft ${draft.id} saved as ${draft.slug}`);

try {
  await data(inkwell.POST('/api/v1/comments', { body: { postId: draft.id, content: 'Hi' } }));
} catch (error) {
  // 403 token lacks scope comments:write
  if (error instanceof InkwellApiError) console.log(error.status, error.message);
  else throw error;
}

// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'astro/config';

// Pages render on the server inside the Nest process (node adapter in middleware mode);
// React only hydrates the islands.
export default defineConfig({
  output: 'server',
  adapter: node({ mode: 'middleware' }),
  integrations: [react()],
  // CSS always as files: style-src has no 'unsafe-inline' (backend common/security-headers.ts).
  build: { inlineStylesheets: 'never' },
  prefetch: false,
  // The server refuses every cross-origin write before Astro (backend common/same-origin.ts). Astro's
  // own check compares Origin with the URL it builds, whose host is 'localhost' in middleware mode
  // without allowedDomains, so it would refuse the pages' same-origin forms (/unsubscribe).
  security: { checkOrigin: false },
  devToolbar: { enabled: false },
  vite: { plugins: [tailwindcss()] },
});

// `npm run lint:links`: every relative link and #anchor of the Markdown files resolves (offline:
// remark-validate-links reads the files and their headings, never the network; explicit
// `<a id="…"></a>` anchors count as targets too).
import remarkValidateLinks from 'remark-validate-links';
import remarkHtmlAnchors from './scripts/lib/remark-html-anchors.mjs';

export default {
  plugins: [remarkHtmlAnchors, [remarkValidateLinks, { repository: false }]],
};

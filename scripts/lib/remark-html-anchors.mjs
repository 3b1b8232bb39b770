// A remark plugin for `npm run lint:links`: explicit anchors written as HTML (`<a id="rule"></a>`,
// how docs/requirements.md names its rules) become link targets remark-validate-links knows, like
// headings. Anchors on consecutive lines form one HTML node; each gets a node of its own.
// Inline, `<a id="x">` and `</a>` are separate nodes, so the opening tag alone names the anchor.
export const HTML_ANCHOR = /<a\s+(?:id|name)="([^"]+)"\s*\/?>/g;

/** The ids of the explicit anchors in a piece of HTML (or a whole Markdown text). */
export function htmlAnchorIds(html) {
  return [...html.matchAll(HTML_ANCHOR)].map((m) => m[1]);
}

export default function remarkHtmlAnchors() {
  return (tree) => {
    const visit = (node) => {
      if (!Array.isArray(node.children)) return;
      const children = [];
      for (const child of node.children) {
        const ids = child.type === 'html' ? htmlAnchorIds(child.value) : [];
        if (ids.length === 0) {
          visit(child);
          children.push(child);
          continue;
        }
        ids.forEach((id, i) => {
          children.push({
            ...child,
            value: i === 0 ? child.value : '',
            data: { ...(child.data || {}), hProperties: { id } },
          });
        });
      }
      node.children = children;
    };
    visit(tree);
  };
}

import type { Locator, Page } from '@playwright/test';

/**
 * Layout checks the browser specs share: words the layout breaks across lines, images
 * drawn at another shape than their own, and controls past the edge of the screen.
 */

/** The words of the matched elements' visible text that run over two lines ('Hom' / 'e'), each as 'word (tag)'. */
export function brokenWords(within: Locator): Promise<string[]> {
  return within.evaluateAll((roots) => {
    const broken: string[] = [];
    for (const root of roots) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const parent = node.parentElement;
        // Screen-reader texts are clipped to a pixel, never shown.
        if (!parent || parent.closest('.sr-only') || parent.getClientRects().length === 0) continue;
        // A hyphen is a line-break opportunity ('axe-' / 'visitor'): each piece up to its hyphen is a word.
        for (const match of (node.textContent ?? '').matchAll(/[^\s-]+-?/g)) {
          const range = document.createRange();
          range.setStart(node, match.index);
          range.setEnd(node, match.index + match[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`${match[0]} (${parent.tagName.toLowerCase()})`);
        }
      }
    }
    return broken;
  });
}

/** The matched elements, shown, whose box is not wholly inside the window's width, each as 'text (left–right)'. */
export function outsideTheWindow(page: Page, elements: Locator): Promise<string[]> {
  return elements.evaluateAll((found) =>
    found
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ box }) => box.left < -0.5 || box.right > window.innerWidth + 0.5)
      .map(({ element, box }) => `${(element.textContent ?? '').trim()} (${Math.round(box.left)}–${Math.round(box.right)})`),
  );
}

/** The images among the matched elements drawn at a shape more than 5 % off their own, each as 'alt: drawn w×h, natural w×h'. */
export function distortedImages(images: Locator): Promise<string[]> {
  return images.evaluateAll((found) =>
    (found as HTMLImageElement[])
      .filter((image) => image.complete && image.naturalWidth > 0 && image.getClientRects().length > 0)
      .filter((image) => {
        const drawn = image.getBoundingClientRect();
        return Math.abs(drawn.width / drawn.height / (image.naturalWidth / image.naturalHeight) - 1) > 0.05;
      })
      .map((image) => {
        const drawn = image.getBoundingClientRect();
        return `${image.alt}: drawn ${drawn.width}×${drawn.height}, natural ${image.naturalWidth}×${image.naturalHeight}`;
      }),
  );
}

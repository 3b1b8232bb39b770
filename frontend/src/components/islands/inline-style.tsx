/**
 * Colour and size without a style attribute. The pages' Content-Security-Policy allows no style
 * attribute in server-rendered HTML (style-src without 'unsafe-inline', backend
 * common/security-headers.ts), so an island's SSR markup must not carry one: a colour goes into an
 * SVG attribute, or is set through the CSSOM once the element exists (CSP does not govern it).
 */

/** A small round swatch of `colour` (a tag's colour). */
export function ColourDot({ colour }: { colour: string }) {
  return (
    <svg className="h-2 w-2 shrink-0" viewBox="0 0 2 2" aria-hidden="true">
      <circle cx="1" cy="1" r="1" fill={colour} />
    </svg>
  );
}

type StyleValues = Partial<Record<'backgroundColor' | 'borderColor' | 'color' | 'width', string>>;

/** A ref that sets `values` on the element's style through the CSSOM ('' clears one). */
export function styleRef(values: StyleValues) {
  return (element: HTMLElement | null) => {
    if (element) Object.assign(element.style, values);
  };
}

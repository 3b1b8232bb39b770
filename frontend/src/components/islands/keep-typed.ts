import { useId, useLayoutEffect, useState } from 'react';

/**
 * What a person typed, ticked or chose in a server-rendered form before its island hydrated is
 * kept: React hydrates controlled fields with the state the server rendered ('' for an empty
 * comment box) and leaves the typed text on screen (a textarea with server-rendered text, and a
 * select, are even reset to it), so the form would send what the person no longer sees ('Comment
 * content cannot be empty'). Spread the result on the form's root element:
 *
 *   const keepTyped = useKeepTyped();
 *   <form {...keepTyped} onSubmit={...}>
 *
 * The hydrating render reads the fields' values from the server's DOM (still untouched then); once
 * hydrated, every field whose value differs from what React rendered is replayed as the person's
 * own change, so the form's onChange handlers take it in (and whatever follows from them: a slug
 * following the title, a counter, a cleared error). A form mounted later (a dialog, an edit box)
 * finds no server DOM and does nothing. Buttons are the other half: `useHydrated()` keeps them
 * disabled until the island is live, so an early press is never silently dropped.
 */

const ROOT_ATTRIBUTE = 'data-keep-typed';
const FIELDS = 'input, textarea, select';
/** Inputs that hold no typed value (or one a script may not set: file). */
const SKIPPED_TYPES = new Set(['file', 'hidden', 'submit', 'reset', 'button', 'image']);

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
interface Typed {
  value: string;
  checked: boolean;
}

function fieldsOf(root: Element): Field[] {
  return [...root.querySelectorAll<Field>(FIELDS)].filter((field) => !(field instanceof HTMLInputElement && SKIPPED_TYPES.has(field.type)));
}

const isToggle = (field: Field): field is HTMLInputElement =>
  field instanceof HTMLInputElement && (field.type === 'checkbox' || field.type === 'radio');

/** The value React rendered (it writes it to defaultValue / defaultChecked / defaultSelected). */
function renderedValue(field: Field): string {
  if (field instanceof HTMLSelectElement)
    return [...field.options].find((option) => option.defaultSelected)?.value ?? field.options[0]?.value ?? '';
  return field.defaultValue;
}

/**
 * Sets the field to `typed` as a person's input would, so React's onChange runs: React compares a
 * field's value with the one it last saw (its value tracker), so the field is first set to the
 * rendered value through the element (which tells the tracker), then to the typed one past it.
 */
function replay(field: Field, typed: Typed): void {
  if (isToggle(field)) {
    if (typed.checked === field.defaultChecked) return;
    field.checked = !typed.checked;
    field.click(); // toggles to the typed state and fires the click React listens to for checkboxes and radios
    return;
  }
  const rendered = renderedValue(field);
  if (typed.value === rendered) return;
  if (field instanceof HTMLSelectElement) {
    field.value = typed.value;
    field.dispatchEvent(new Event('change', { bubbles: true }));
    return;
  }
  field.value = rendered;
  Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, typed.value);
  field.dispatchEvent(new Event('input', { bubbles: true }));
}

export function useKeepTyped(): { [ROOT_ATTRIBUTE]: string } {
  const key = useId();
  // Runs once, in the first render: when that render hydrates, the server's DOM is still as typed.
  const [typed] = useState<Typed[] | undefined>(() => {
    if (typeof document === 'undefined') return undefined;
    const root = document.querySelector(`[${ROOT_ATTRIBUTE}="${CSS.escape(key)}"]`);
    return root ? fieldsOf(root).map((field) => ({ value: field.value, checked: isToggle(field) && field.checked })) : undefined;
  });
  useLayoutEffect(() => {
    if (!typed) return;
    const root = document.querySelector(`[${ROOT_ATTRIBUTE}="${CSS.escape(key)}"]`);
    if (!root) return;
    fieldsOf(root).forEach((field, index) => {
      const value = typed[index];
      if (value) replay(field, value);
    });
    // Only what was typed before hydration: later renders are React's own.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return { [ROOT_ATTRIBUTE]: key };
}

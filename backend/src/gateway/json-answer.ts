/**
 * An answer as an HTTP client would parse it (dates as strings, no undefined, no class
 * instances), without paying a JSON round trip for data the services keep in their caches.
 *
 * The envelope is new on every call, but its `data` is often the very object a cache holds (a
 * post list, the published tags): its JSON copy is made once per object, frozen, and handed to
 * every page that reads it until the cache lets the object go (a WeakMap). Frozen, so a page can
 * never change what another page is shown; a write to it throws instead.
 */
const copies = new WeakMap<object, unknown>();

export function jsonAnswer(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || body instanceof Date) return sharedJson(body);
  const answer: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined && typeof value !== 'function') answer[key] = sharedJson(value);
  return answer;
}

function sharedJson(value: unknown): unknown {
  // Strings and booleans are JSON as they are (the envelope's message and flags, on every call).
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'object') return undefined;
  const known = copies.get(value);
  if (known !== undefined) return known;
  const copy = deepFreeze(JSON.parse(JSON.stringify(value)) as unknown);
  copies.set(value, copy);
  return copy;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}

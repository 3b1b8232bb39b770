/**
 * Fedify (ESM, Node >= 22) is loaded only here, only on Node 22 or later, with a real dynamic
 * `import()` (tsc keeps it in this CommonJS build: module nodenext). On older Node the app starts
 * with federation off and says why in one line (docs/federation.md#node-versions).
 */
export type FedifyModule = typeof import('@fedify/fedify', { with: { 'resolution-mode': 'import' } });
export type VocabModule = typeof import('@fedify/vocab', { with: { 'resolution-mode': 'import' } });

export interface Fedify {
  fedify: FedifyModule;
  vocab: VocabModule;
  /** The Temporal polyfill Fedify's vocabulary uses for dates. */
  Temporal: typeof globalThis.Temporal;
}

/** The lowest Node major version Fedify supports. */
export const FEDIFY_MIN_NODE = 22;

/** Why federation cannot run on this Node, or null when it can. */
export function federationUnavailableReason(version: string = process.versions.node): string | null {
  const major = Number(version.split('.')[0]);
  if (major >= FEDIFY_MIN_NODE) return null;
  return `Federation is off: Node ${version} is older than ${FEDIFY_MIN_NODE}, which Fedify needs (use Node 24 to be followed from the fediverse).`;
}

let loading: Promise<Fedify> | undefined;

/** Loads Fedify once (callers check federationUnavailableReason() first). */
export function loadFedify(): Promise<Fedify> {
  loading ??= (async () => {
    const [fedify, vocab, temporal] = await Promise.all([
      import('@fedify/fedify'),
      import('@fedify/vocab'),
      import('@js-temporal/polyfill'),
    ]);
    // Fedify's vocabulary is typed with the standard Temporal and built on this polyfill of it.
    return { fedify, vocab, Temporal: temporal.Temporal as unknown as typeof globalThis.Temporal };
  })();
  return loading;
}

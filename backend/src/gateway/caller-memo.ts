/**
 * Set on the requests the page gateway makes: every call of one page request shares it, so the
 * session behind the cookies is resolved once per page (JwtAuthGuard), not once per call. A
 * symbol, so nothing an HTTP client sends can set it.
 */
export const CALLER_MEMO = Symbol('inkwell:caller-memo');

export interface CallerMemo {
  /** The first call's outcome: the caller, or the failure every later call answers with too. */
  caller?: Promise<unknown>;
}

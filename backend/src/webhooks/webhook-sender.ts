import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { checkTarget, HostResolver, lookupOf, UnsafeTargetError } from './webhook-targets';

/** Characters of a receiver's answer kept in the delivery log. */
export const RESPONSE_EXCERPT_CHARS = 500;
/** Bytes of a receiver's answer read at most (the rest is dropped). */
const RESPONSE_READ_BYTES = 4096;

export const SIGNATURE_HEADER = 'X-Inkwell-Signature';
export const DELIVERY_HEADER = 'X-Inkwell-Delivery';
export const EVENT_HEADER = 'X-Inkwell-Event';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + '.' + body)>`: the time is signed too, so a receiver can refuse old replays. */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** One attempt's outcome, as the delivery log keeps it. */
export interface AttemptResult {
  /** 2xx. */
  ok: boolean;
  /** Worth another try: a network error, a timeout, a 5xx (also 408 and 429, which ask for one); never another 4xx or a refused target. */
  retryable: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The start of the receiver's answer. */
  responseExcerpt: string | null;
  /** What went wrong when there was no answer (or the target was refused). */
  error: string | null;
}

export interface SendRequest {
  url: string;
  secret: string;
  deliveryId: string;
  event: string;
  body: string;
}

/**
 * POSTs one signed delivery: checks the target's address again (DNS rebinding) and connects to
 * that very address (the Host header and TLS name stay the URL's). Never throws: a failure is an
 * attempt result.
 */
export async function sendWebhook(
  request: SendRequest,
  options: { timeoutMs: number; allowPrivate: boolean; resolve?: HostResolver; now?: () => number },
): Promise<AttemptResult> {
  const started = Date.now();
  const elapsed = () => Date.now() - started;
  let target;
  try {
    target = await checkTarget(request.url, options.allowPrivate, options.resolve);
  } catch (error) {
    const message = error instanceof UnsafeTargetError ? error.message : String(error);
    // A host that cannot be found may come back; an address refused by the rule will not.
    const retryable = error instanceof UnsafeTargetError && message.includes('could not be found');
    return { ok: false, retryable, statusCode: null, durationMs: elapsed(), responseExcerpt: null, error: message };
  }
  const unixSeconds = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        lookup: lookupOf(target),
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(request.body),
          'User-Agent': 'Inkwell-Webhooks/1',
          [SIGNATURE_HEADER]: signatureHeader(request.secret, request.body, unixSeconds),
          [DELIVERY_HEADER]: request.deliveryId,
          [EVENT_HEADER]: request.event,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_READ_BYTES) chunks.push(chunk.subarray(0, RESPONSE_READ_BYTES - read));
          read += chunk.length;
          // Enough read: the rest of a large answer is not worth the wait.
          if (read >= RESPONSE_READ_BYTES) res.destroy();
        });
        const done = () => {
          const status = res.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).toString('utf8').slice(0, RESPONSE_EXCERPT_CHARS);
          const ok = status >= 200 && status < 300;
          finish({
            ok,
            retryable: !ok && (status >= 500 || status === 408 || status === 429),
            statusCode: status,
            responseExcerpt: excerpt || null,
            error: null,
          });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({
        ok: false,
        retryable: true,
        statusCode: null,
        responseExcerpt: null,
        error: `No answer within ${Math.round(options.timeoutMs / 100) / 10} s.`,
      });
    }, options.timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        retryable: true,
        statusCode: null,
        responseExcerpt: null,
        error: `Could not connect: ${error.code ?? error.message}`,
      }),
    );
    req.end(request.body);
  });
}

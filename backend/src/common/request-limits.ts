import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Envelope } from './envelope';
import { CommonMessages } from './messages';

/**
 * The deepest JSON body accepted (objects and arrays inside each other). The API's bodies are two
 * levels deep; deeper ones are refused before parsing, since validation and logging walk them
 * recursively (5,000 levels overflowed the stack).
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether a JSON text nests deeper than `max`, in one pass (strings are jumped over with
 * indexOf, escaped quotes included). It does not validate the JSON: the parser does that next.
 * Works on UTF-8 bytes (multi-byte sequences never contain ASCII bytes); text in another
 * encoding is scanned as its UTF-8 form.
 */
export function jsonDepthExceeds(text: Uint8Array | string, max: number = MAX_JSON_DEPTH): boolean {
  return bytesDepthExceeds(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, max);
}

function bytesDepthExceeds(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      // The closing quote is the next one not escaped by an odd number of backslashes.
      let end = i;
      for (;;) {
        end = bytes.indexOf(QUOTE, end + 1);
        if (end < 0) return false; // unterminated: the parser refuses it
        let backslashes = 0;
        while (bytes[end - 1 - backslashes] === BACKSLASH) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      i = end;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}

/** body-parser's `verify` hook for JSON: too deep → 400 'Invalid request. Please check your input.' (a parser error). */
export function refuseDeepJson(_req: IncomingMessage, _res: ServerResponse, body: Buffer, encoding: string | null): void {
  const utf8 = !encoding || /^utf-?8$/i.test(encoding);
  if (!jsonDepthExceeds(utf8 ? body : new TextDecoder(encoding).decode(body))) return;
  throw Object.assign(new Error(`JSON body nested deeper than ${MAX_JSON_DEPTH} levels`), { status: 400, type: 'entity.too.deep' });
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/** Node's parser errors (no request object exists yet) as our status and message. */
function describeClientError(error: NodeJS.ErrnoException): { status: number; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, message: CommonMessages.HEADERS_TOO_LARGE };
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, message: CommonMessages.REQUEST_TIMEOUT };
  return { status: 400, message: CommonMessages.INVALID_REQUEST };
}

/**
 * Requests Node's HTTP parser refuses (headers over 16 KB, a malformed request line, a timeout)
 * never reach Express; by default Node answers a bare 431/400 or closes the socket. This answers
 * them with the envelope instead (and logs one warning line), then closes the connection.
 */
export function answerClientErrorsWithEnvelope(server: Server): void {
  const logger = new Logger('HttpServer');
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset connection, or one where an answer has already begun, cannot take ours (as Node's own handler).
    const inFlight = (socket as Duplex & { _httpMessage?: { _headerSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) {
      socket.destroy();
      return;
    }
    const { status, message } = describeClientError(error);
    const requestId = randomUUID();
    logger.warn({ requestId, code: error.code, status }, `Refused a request Node could not parse: ${error.code ?? error.message}`);
    const body: Envelope<null> = { success: false, data: null, message, status, errors: null, requestId };
    const json = JSON.stringify(body);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(json)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        json,
    );
  });
}

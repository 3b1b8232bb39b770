// In-process mail catcher for the browser tests: an SMTP server on loopback that keeps every
// message, and a tiny loopback HTTP endpoint the Playwright tests read them from:
//   GET <url>/messages?to=<address>  → [{ to: [..], subject, text, messageId, receivedAt }] (oldest first)
// Used by scripts/browser-tests.mjs (SMTP_URL for the server, MAIL_CAPTURE_URL for the tests).
import { createServer } from 'node:http';
import { SMTPServer } from 'smtp-server';

/** Decodes one MIME body by its Content-Transfer-Encoding. */
function decodeBody(body, encoding, charset) {
  const enc = (encoding ?? '').toLowerCase();
  let bytes;
  if (enc === 'base64') bytes = Buffer.from(body.replace(/\s+/g, ''), 'base64');
  else if (enc === 'quoted-printable') {
    const soft = body.replace(/=\r?\n/g, '');
    const out = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(soft.slice(i + 1, i + 3))) {
        out.push(parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else out.push(...Buffer.from(soft[i], 'utf8'));
    }
    bytes = Buffer.from(out);
  } else bytes = Buffer.from(body, 'binary');
  return bytes.toString(/utf-?8/i.test(charset ?? 'utf-8') ? 'utf8' : 'latin1');
}

function parseHeaders(block) {
  const headers = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function splitEntity(raw) {
  const match = /\r?\n\r?\n/.exec(raw);
  if (!match) return { headers: parseHeaders(raw), body: '' };
  return { headers: parseHeaders(raw.slice(0, match.index)), body: raw.slice(match.index + match[0].length) };
}

/** The text/plain content of a message (first text/plain part of a multipart one). */
function plainText(raw) {
  const { headers, body } = splitEntity(raw);
  const type = headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    for (const part of body.split(`--${boundary}`).slice(1)) {
      if (part.startsWith('--')) break;
      const text = plainText(part.replace(/^\r?\n/, ''));
      if (text !== undefined) return text;
    }
    return undefined;
  }
  if (!/^text\/plain/i.test(type)) return undefined;
  return decodeBody(body, headers['content-transfer-encoding'], /charset="?([^";]+)"?/i.exec(type)?.[1]);
}

function decodeSubject(value = '') {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_, charset, kind, text) =>
    kind.toUpperCase() === 'B' ? decodeBody(text, 'base64', charset) : decodeBody(text.replace(/_/g, ' '), 'quoted-printable', charset),
  );
}

const listen = (server) =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });

/** Starts both servers; resolves with their URLs and a stop() function. */
export async function startMailCapture() {
  const messages = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks = [];
      stream.on('data', (chunk) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('binary');
        const { headers } = splitEntity(raw);
        messages.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
          subject: decodeSubject(headers.subject),
          text: plainText(raw) ?? '',
          messageId: headers['message-id'] ?? null,
          receivedAt: new Date().toISOString(),
        });
        callback();
      });
    },
  });
  // A sender killed mid-conversation (the chaos script's kill -9 during a newsletter send over pooled
  // connections) resets its sockets: SMTPServer emits that as 'error', which must not end this process.
  smtp.on('error', () => undefined);
  const smtpPort = await listen(smtp.server);

  const http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/messages') {
      res.writeHead(404).end();
      return;
    }
    const to = url.searchParams.get('to')?.toLowerCase();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(to ? messages.filter((message) => message.to.includes(to)) : messages));
  });
  const httpPort = await listen(http);

  return {
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    url: `http://127.0.0.1:${httpPort}`,
    /** Every message so far (the chaos script counts them in process). */
    messages,
    stop: () => Promise.all([new Promise((done) => smtp.close(done)), new Promise((done) => http.close(() => done()))]),
  };
}

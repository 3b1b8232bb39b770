import { JwtService } from '@nestjs/jwt';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { ACCESS_COOKIE } from '../auth/auth-user';
import { ANSWER_TTL_MS } from './analytics-query.service';
import { StatsPageHold } from './stats-page-hold';

const jwt = new JwtService({ secret: 'stats-page-hold-test-secret-0123456789' });
const token = (sub = 7, expiresIn = 900) => jwt.sign({ sub, sid: 'family' }, { expiresIn });

function request(url: string, access: string | undefined, method = 'GET'): IncomingMessage {
  return {
    method,
    url,
    headers: { cookie: access ? `theme=dark; ${ACCESS_COOKIE}=${access}` : 'theme=dark' },
  } as unknown as IncomingMessage;
}

/** Enough of a ServerResponse for the hold: headers, status and the body sent. */
function response() {
  const headers: OutgoingHttpHeaders = {};
  const sent: { body?: Buffer } = {};
  const res = {
    statusCode: 200,
    setHeader: (name: string, value: string | number | string[]) => (headers[name.toLowerCase()] = value),
    getHeaders: () => ({ ...headers }),
    hasHeader: (name: string) => headers[name.toLowerCase()] !== undefined,
    end: (body: Buffer) => (sent.body = body),
  };
  return { res: res as unknown as ServerResponse, headers, sent };
}

/** A render of `url` for `access`: asked of the hold first (a miss), then kept as sent. */
function render(hold: StatsPageHold, url: string, access: string | undefined, body: string, change?: (res: ServerResponse) => void) {
  const req = request(url, access);
  const { res } = response();
  expect(hold.serve(req, res, 'br')).toBe(false);
  res.setHeader('Content-Type', 'text/html');
  res.setHeader('X-Request-Id', 'render');
  change?.(res);
  hold.keep(req, res, Buffer.from(body), 'br');
}

describe('StatsPageHold', () => {
  let now: number;
  beforeEach(() => {
    // 5 s into a 30-s window.
    now = Math.floor(Date.parse('2026-12-06T12:00:00Z') / ANSWER_TTL_MS) * ANSWER_TTL_MS + 5_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers the same session, address and coding again until the window ends, with the page as sent', () => {
    const hold = new StatsPageHold(jwt);
    const access = token();
    render(hold, '/author/stats?days=90', access, 'figures');
    const { res, headers, sent } = response();
    expect(hold.serve(request('/author/stats?days=90', access), res, 'br')).toBe(true);
    expect(sent.body?.toString()).toBe('figures');
    expect(headers['content-type']).toBe('text/html');
    expect(headers['x-request-id']).toBeUndefined();
    expect(headers['content-length']).toBe(7);

    now += ANSWER_TTL_MS - 5_001; // the window's last millisecond
    expect(hold.serve(request('/author/stats?days=90', access), response().res, 'br')).toBe(true);
    now += 1; // the next window: figures computed anew, the page rendered anew
    expect(hold.serve(request('/author/stats?days=90', access), response().res, 'br')).toBe(false);
    expect(hold.size).toBe(0);
  });

  it('never answers another session, address, coding or method, nor an expired token', () => {
    const hold = new StatsPageHold(jwt);
    const access = token();
    render(hold, '/admin/stats', access, 'site');
    expect(hold.serve(request('/admin/stats', token(8)), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/admin/stats', undefined), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/admin/stats?days=7', access), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/admin/stats', access), response().res, 'gzip')).toBe(false);
    expect(hold.serve(request('/admin/stats', access, 'HEAD'), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/admin/stats', access), response().res, 'br')).toBe(true);

    const expiring = jwt.sign({ sub: 9 }, { expiresIn: -1 });
    render(hold, '/admin/stats', expiring, 'old');
    expect(hold.serve(request('/admin/stats', expiring), response().res, 'br')).toBe(false);
  });

  it('keeps only a Stats page answered 200 without a cookie set, rendered after a miss', () => {
    const hold = new StatsPageHold(jwt);
    const access = token();
    render(hold, '/author/posts', access, 'not stats');
    render(hold, '/author/stats?days=30', access, 'renewed', (res) => res.setHeader('Set-Cookie', ['inkwell_signed_in=1']));
    render(hold, '/author/stats?days=7', access, 'failed', (res) => (res.statusCode = 503));
    expect(hold.size).toBe(0);
    // A render the hold was not asked about first (its start unknown) is not kept.
    const { res } = response();
    hold.keep(request('/author/stats', access), res, Buffer.from('x'), 'br');
    expect(hold.size).toBe(0);
  });

  it("drops a session's pages on any write of that session, and only that session's", () => {
    const hold = new StatsPageHold(jwt);
    const [mine, theirs] = [token(7), token(8)];
    render(hold, '/author/stats', mine, 'mine');
    render(hold, '/author/stats?days=7', mine, 'mine, 7 days');
    render(hold, '/author/stats', theirs, 'theirs');
    hold.forget(request('/api/v1/users/profile', mine, 'PUT'));
    expect(hold.serve(request('/author/stats', mine), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/author/stats?days=7', mine), response().res, 'br')).toBe(false);
    expect(hold.serve(request('/author/stats', theirs), response().res, 'br')).toBe(true);
  });

  it('holds a page rendered across a window boundary only to the end of the window it started in', () => {
    const hold = new StatsPageHold(jwt);
    const access = token();
    const req = request('/author/stats', access);
    const { res } = response();
    expect(hold.serve(req, res, 'br')).toBe(false);
    now += ANSWER_TTL_MS; // the render ends in the next window: its figures are the last window's
    hold.keep(req, res, Buffer.from('late'), 'br');
    expect(hold.serve(request('/author/stats', access), response().res, 'br')).toBe(false);
  });
});

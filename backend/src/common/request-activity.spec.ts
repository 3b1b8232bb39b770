import { createServer, request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { RequestActivity } from './request-activity';

describe('RequestActivity', () => {
  it('counts the requests of the last second, forgetting older ones', () => {
    const activity = new RequestActivity();
    expect(activity.perSecond(0)).toBe(0);
    for (let i = 0; i < 6; i += 1) activity.note(100 + i);
    activity.note(600);
    expect(activity.perSecond(700)).toBe(7);
    // A second later the first six (slot 0–250 ms) have left the window; the seventh has not.
    expect(activity.perSecond(1100)).toBe(1);
    expect(activity.perSecond(1800)).toBe(0);
    // A slot reused a window later starts again from nothing.
    activity.note(2100);
    expect(activity.perSecond(2100)).toBe(1);
  });

  it('counts what a watched server receives', async () => {
    const activity = new RequestActivity();
    const server: Server = createServer((_req, res) => res.end('ok'));
    activity.watch(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = () =>
      new Promise<void>((resolve, reject) => {
        httpRequest({ port, host: '127.0.0.1', path: '/', agent: false }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end();
      });
    try {
      await Promise.all([get(), get(), get()]);
      expect(activity.perSecond()).toBe(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

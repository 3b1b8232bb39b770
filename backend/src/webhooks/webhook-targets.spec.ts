import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebhook, signatureHeader } from './webhook-sender';
import { checkTarget, HostResolver, isPublicAddress } from './webhook-targets';

describe('webhook targets', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.0.0.1', false],
    ['172.16.5.4', false],
    ['172.32.0.1', true],
    ['192.168.0.1', false],
    ['100.64.0.1', false],
    ['100.128.0.1', true],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['::1', false],
    ['::', false],
    ['fd00:ec2::254', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['64:ff9b::a9fe:a9fe', false],
    ['::ffff:8.8.8.8', true],
    ['2606:4700:4700::1111', true],
    ['not an address', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  it('refuses a name when any of its addresses is private, and names the address', async () => {
    const resolve: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ];
    await expect(checkTarget('https://mixed.example/hook', false, resolve)).rejects.toThrow('reserved address (10.0.0.7)');
    await expect(checkTarget('https://mixed.example/hook', true, resolve)).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('refuses other schemes, credentials and hosts that cannot be found', async () => {
    await expect(checkTarget('file:///etc/passwd', false)).rejects.toThrow('The URL must start with http:// or https://.');
    await expect(checkTarget('https://user:pw@example.com/', false)).rejects.toThrow('The URL must not contain a user name or password.');
    await expect(checkTarget('not a url', false)).rejects.toThrow('The URL is not a valid address.');
    const nowhere: HostResolver = async () => {
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    await expect(checkTarget('https://nowhere.example/', false, nowhere)).rejects.toThrow('The host nowhere.example could not be found.');
  });

  describe('sending', () => {
    let server: http.Server;
    let port: number;
    const seen: { host: string | undefined; signature: string | undefined; body: string }[] = [];
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk) => (body += chunk));
        req.on('end', () => {
          seen.push({ host: req.headers.host, signature: req.headers['x-inkwell-signature'] as string | undefined, body });
          res.end('fine');
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));

    const request = (host: string) => ({
      url: `http://${host}:${port}/hook`,
      secret: 'whsec_unit',
      deliveryId: 'd-1',
      event: 'tag.created',
      body: '{"a":1}',
    });

    it('connects to the address it checked, keeping the name in the Host header', async () => {
      const resolve: HostResolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const result = await sendWebhook(request('receiver.example'), {
        timeoutMs: 2000,
        allowPrivate: true,
        resolve,
        now: () => 1_700_000_000_000,
      });
      expect(result).toMatchObject({ ok: true, statusCode: 200, responseExcerpt: 'fine', error: null });
      expect(seen.at(-1)).toEqual({
        host: `receiver.example:${port}`,
        signature: signatureHeader('whsec_unit', '{"a":1}', 1_700_000_000),
        body: '{"a":1}',
      });
    });

    it('checks again at send time: a name that now resolves privately (DNS rebinding) is not sent to', async () => {
      let calls = 0;
      // Public when saved, loopback when sent.
      const rebinding: HostResolver = async () => [{ address: (calls += 1) === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
      await expect(checkTarget(request('rebind.example').url, false, rebinding)).resolves.toMatchObject({ address: '93.184.216.34' });
      const before = seen.length;
      const result = await sendWebhook(request('rebind.example'), { timeoutMs: 2000, allowPrivate: false, resolve: rebinding });
      expect(result).toMatchObject({
        ok: false,
        retryable: false,
        statusCode: null,
        error: expect.stringContaining('reserved address (127.0.0.1)'),
      });
      expect(seen).toHaveLength(before);
    });
  });
});

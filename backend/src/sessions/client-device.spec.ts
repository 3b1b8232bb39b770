import { approximatePlace, describeDevice, LOCAL_NETWORK, UNKNOWN_DEVICE, UNKNOWN_PLACE } from './client-device';

describe('describeDevice', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0', 'Firefox on Windows', 'firefox|windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mobile Safari on iOS',
      'mobile safari|ios',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      'Chrome on Linux',
      'chrome|linux',
    ],
    ['curl/8.4.0', 'curl', 'client:curl'],
    ['node-superagent/3.8.3', 'node-superagent', 'client:node-superagent'],
    ['', UNKNOWN_DEVICE, 'unknown'],
    [null, UNKNOWN_DEVICE, 'unknown'],
    ['   ', UNKNOWN_DEVICE, 'unknown'],
    ['(((', UNKNOWN_DEVICE, 'unknown'],
  ])('%j is %s', (ua, label, key) => {
    const device = describeDevice(ua);
    expect(device.label).toBe(label);
    expect(device.key).toBe(key);
  });

  it('ignores versions: a browser update is the same device', () => {
    const older = describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:120.0) Gecko/20100101 Firefox/120.0');
    const newer = describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0');
    expect(newer.key).toBe(older.key);
  });

  it('tells browsers and systems apart', () => {
    const firefoxWindows = describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0');
    const firefoxLinux = describeDevice('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0');
    expect(firefoxLinux.key).not.toBe(firefoxWindows.key);
  });
});

describe('approximatePlace', () => {
  it.each([
    ['203.0.113.57', '203.0.113.x'],
    ['::ffff:198.51.100.7', '198.51.100.x'],
    ['2001:db8:85a3:0:0:8a2e:370:7334', '2001:db8:85a3::/48'],
    ['2001:db8::1', '2001:db8:0::/48'],
    ['127.0.0.1', LOCAL_NETWORK],
    ['::ffff:127.0.0.1', LOCAL_NETWORK],
    ['::1', LOCAL_NETWORK],
    ['10.1.2.3', LOCAL_NETWORK],
    ['172.20.0.5', LOCAL_NETWORK],
    ['192.168.1.20', LOCAL_NETWORK],
    ['100.64.3.4', LOCAL_NETWORK],
    ['fd12:3456::1', LOCAL_NETWORK],
    ['fe80::1%eth0', LOCAL_NETWORK],
    ['', UNKNOWN_PLACE],
    [null, UNKNOWN_PLACE],
    ['not an address', UNKNOWN_PLACE],
  ])('%j is %s', (ip, place) => {
    expect(approximatePlace(ip)).toBe(place);
  });
});

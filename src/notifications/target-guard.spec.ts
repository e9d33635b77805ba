import { ipLiteral, isPublicAddress, publicOnlyLookup } from './target-guard';

describe('notification target guard', () => {
  it.each([
    '127.0.0.1', '127.1.2.3', '10.0.0.5', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0',
    '224.0.0.1', '255.255.255.255', '::1', '::', 'fe80::1', 'fd00::1', 'fc00::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1',
    'not-an-address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses a name that resolves to loopback, in both lookup shapes', async () => {
    const lookup = (all: boolean) =>
      new Promise<Error | null>((resolve) => publicOnlyLookup('localhost', { all }, (error) => resolve(error)));
    expect(await lookup(false)).toMatchObject({ code: 'ETARGETREFUSED' });
    expect(await lookup(true)).toMatchObject({ code: 'ETARGETREFUSED' });
  });

  it('finds IP-literal hosts, which node:http connects to without a lookup', () => {
    expect(ipLiteral(new URL('http://127.0.0.1:8080/x'))).toBe('127.0.0.1');
    expect(ipLiteral(new URL('https://[::1]/x'))).toBe('::1');
    expect(ipLiteral(new URL('https://hooks.example.com/x'))).toBeNull();
  });
});

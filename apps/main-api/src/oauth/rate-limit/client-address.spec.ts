import { clientAddressOf } from './client-address';

describe('clientAddressOf', () => {
  it('keeps an IPv4 address, and the IPv4 address inside an IPv4-mapped IPv6 one', () => {
    expect(clientAddressOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });

  it('groups IPv6 addresses per /64, however they are written', () => {
    expect(clientAddressOf('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(clientAddressOf('2001:db8:1:3::1')).toBe('2001:db8:1:3::/64');
  });

  it('takes an unparsable value as it is', () => {
    expect(clientAddressOf('unknown')).toBe('unknown');
  });
});

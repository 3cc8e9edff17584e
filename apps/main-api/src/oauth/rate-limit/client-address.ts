import ipaddr from 'ipaddr.js';

/**
 * The unit a sign-in is limited per: an IPv4 address, or the /64 an IPv6 address is in (one
 * subscriber usually holds a whole /64, so counting single IPv6 addresses would count nothing).
 * An IPv4-mapped IPv6 address is its IPv4 address. Anything unparsable is taken as it is.
 */
export function clientAddressOf(ip: string): string {
  if (!ipaddr.isValid(ip)) {
    return ip;
  }
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') {
    return address.toString();
  }
  const prefix = (address as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...prefix, 0, 0, 0, 0]).toString()}/64`;
}

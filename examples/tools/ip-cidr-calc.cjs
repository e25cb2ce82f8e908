'use strict';
// Computes the network, broadcast, netmask, host range and size of an IPv4 CIDR block.
const toInt = (ip) => ip.split('.').reduce((acc, octet) => {
  const n = Number(octet);
  if (!/^\d{1,3}$/.test(octet) || n > 255) throw new Error(`Invalid IPv4 octet "${octet}"`);
  return ((acc << 8) | n) >>> 0;
}, 0);
const toIp = (n) => [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.');
exports.run = function run(params) {
  const [ip, prefixText] = params.cidr.split('/');
  const prefix = Number(prefixText);
  const address = toInt(ip);
  const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
  const network = (address & mask) >>> 0;
  const broadcast = (network | (~mask >>> 0)) >>> 0;
  const size = 2 ** (32 - prefix);
  const usable = prefix >= 31 ? size : size - 2;
  const first = prefix >= 31 ? network : network + 1;
  const last = prefix >= 31 ? broadcast : broadcast - 1;
  const result = {
    cidr: `${toIp(network)}/${prefix}`,
    network: toIp(network),
    broadcast: toIp(broadcast),
    netmask: toIp(mask),
    wildcard: toIp(~mask >>> 0),
    first_host: toIp(first),
    last_host: toIp(last),
    total_addresses: size,
    usable_hosts: usable,
    is_private: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]].some(([net, bits]) => ((network & ((0xffffffff << (32 - bits)) >>> 0)) >>> 0) === toInt(net)),
  };
  if (params.contains !== undefined) result.contains = ((toInt(params.contains) & mask) >>> 0) === network;
  return result;
};

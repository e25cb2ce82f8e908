'use strict';
// Generates random (v4) UUIDs, or name-based (v5) UUIDs that are the same for the same namespace and name.
const crypto = require('node:crypto');
const NAMESPACES = {
  dns: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  url: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
  oid: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
  x500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
};
function uuidV5(namespace, name) {
  const nsBytes = Buffer.from(namespace.replace(/-/g, ''), 'hex');
  const hash = crypto.createHash('sha1').update(Buffer.concat([nsBytes, Buffer.from(name, 'utf8')])).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
exports.run = function run(params) {
  const version = params.version || 'v4';
  const count = params.count || 1;
  const format = (id) => (params.uppercase ? id.toUpperCase() : id);
  if (version === 'v5') {
    if (params.name === undefined) throw new Error('A v5 UUID needs a "name"');
    const namespace = NAMESPACES[params.namespace || 'dns'] || params.namespace;
    return { version, uuids: [format(uuidV5(namespace, params.name))] };
  }
  const uuids = [];
  for (let i = 0; i < count; i++) uuids.push(format(crypto.randomUUID()));
  return { version, uuids };
};

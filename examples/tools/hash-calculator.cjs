'use strict';
// Computes a message digest (or an HMAC when a key is given) of UTF-8 text with node:crypto.
const crypto = require('node:crypto');
exports.run = function run(params) {
  const algorithm = params.algorithm || 'sha256';
  const encoding = params.encoding || 'hex';
  const hash = params.hmac_key === undefined
    ? crypto.createHash(algorithm)
    : crypto.createHmac(algorithm, params.hmac_key);
  const digest = hash.update(params.text, 'utf8').digest(encoding);
  return { algorithm, hmac: params.hmac_key !== undefined, encoding, digest, input_bytes: Buffer.byteLength(params.text, 'utf8') };
};

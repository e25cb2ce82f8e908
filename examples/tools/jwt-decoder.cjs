'use strict';
// Decodes a JWT's header and payload (without verifying the signature) and explains its time claims.
function decodePart(part, name) {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    throw new Error(`The ${name} is not base64url-encoded JSON`);
  }
}
exports.run = function run(params) {
  const parts = params.token.trim().replace(/^Bearer\s+/i, '').split('.');
  if (parts.length !== 3) throw new Error(`A JWT has 3 dot-separated parts; this one has ${parts.length}`);
  const header = decodePart(parts[0], 'header');
  const payload = decodePart(parts[1], 'payload');
  const now = params.now === undefined ? Math.floor(Date.now() / 1000) : params.now;
  const iso = (seconds) => (typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : null);
  return {
    header,
    payload,
    signature_present: parts[2].length > 0,
    algorithm: typeof header.alg === 'string' ? header.alg : null,
    issued_at: iso(payload.iat),
    expires_at: iso(payload.exp),
    not_before: iso(payload.nbf),
    expired: typeof payload.exp === 'number' ? now >= payload.exp : false,
    warnings: header.alg === 'none' ? ['Unsigned token (alg "none"): never trust its claims'] : [],
  };
};

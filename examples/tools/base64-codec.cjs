'use strict';
// Encodes UTF-8 text to Base64 (standard or URL-safe) or decodes it back.
exports.run = function run(params) {
  const variant = params.variant || 'standard';
  if ((params.mode || 'encode') === 'encode') {
    const bytes = Buffer.from(params.input, 'utf8');
    const output = bytes.toString(variant === 'url' ? 'base64url' : 'base64');
    return { output, byte_length: bytes.length };
  }
  const cleaned = params.input.replace(/\s+/g, '');
  const alphabet = variant === 'url' ? /^[A-Za-z0-9_-]*={0,2}$/ : /^[A-Za-z0-9+/]*={0,2}$/;
  if (!alphabet.test(cleaned)) throw new Error(`Input is not valid ${variant === 'url' ? 'URL-safe ' : ''}Base64`);
  const bytes = Buffer.from(cleaned, variant === 'url' ? 'base64url' : 'base64');
  return { output: bytes.toString('utf8'), byte_length: bytes.length };
};

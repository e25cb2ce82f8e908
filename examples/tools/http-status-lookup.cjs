'use strict';
// Looks up an HTTP status code: its reason phrase, class, and whether a client should retry.
const http = require('node:http');
const CLASSES = { 1: 'informational', 2: 'success', 3: 'redirection', 4: 'client_error', 5: 'server_error' };
const RETRYABLE = new Set([408, 425, 429, 500, 502, 503, 504]);
exports.run = function run(params) {
  const code = params.code;
  const phrase = http.STATUS_CODES[code];
  return {
    code,
    phrase: phrase === undefined ? null : phrase,
    known: phrase !== undefined,
    class: CLASSES[Math.floor(code / 100)],
    retryable: RETRYABLE.has(code),
  };
};

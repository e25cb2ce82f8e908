'use strict';
// Splits a URL into its parts (WHATWG URL rules) and decodes its query string into key/value pairs.
exports.run = function run(params) {
  const url = new URL(params.url);
  const query = {};
  for (const [key, value] of url.searchParams) {
    if (key in query) query[key] = [].concat(query[key], value);
    else query[key] = value;
  }
  const defaultPorts = { 'http:': '80', 'https:': '443', 'ftp:': '21', 'ws:': '80', 'wss:': '443' };
  return {
    href: url.href,
    protocol: url.protocol.replace(/:$/, ''),
    username: url.username || null,
    password_present: url.password !== '',
    hostname: url.hostname,
    port: url.port === '' ? (defaultPorts[url.protocol] ? Number(defaultPorts[url.protocol]) : null) : Number(url.port),
    pathname: url.pathname,
    path_segments: url.pathname.split('/').filter(Boolean).map(decodeURIComponent),
    query,
    fragment: url.hash === '' ? null : url.hash.slice(1),
    origin: url.origin === 'null' ? null : url.origin,
  };
};

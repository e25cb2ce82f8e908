// Refuses to serve HTTP beyond this machine with no bearer token, unless that exposure is asked for by name.

import { isIP } from 'node:net';
import type { HttpSettings } from '../settings/config.js';

/** Whether binding `host` keeps the server reachable from this machine only. */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (bare === 'localhost' || bare.endsWith('.localhost')) return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) return bare === '::1' || /^::ffff:127\./.test(bare) || /^(0{1,4}:){7}0{0,3}1$/.test(bare);
  return false;
}

/**
 * Why the server must not start (listening beyond loopback with no token: anyone who can reach the port could run
 * tools under this server's API key), or null. `<prefix>MCP_HTTP_ALLOW_NO_TOKEN=1` says the exposure is intended (say,
 * a private network, or a proxy in front that authenticates).
 */
export function unauthenticatedExposure(http: Pick<HttpSettings, 'host' | 'tokens' | 'allowNoToken' | 'vars'>): string | null {
  if (http.tokens.length > 0 || http.allowNoToken || isLoopbackHost(http.host)) return null;
  return (
    `${http.vars.host}=${JSON.stringify(http.host)} serves beyond this machine, and ${http.vars.token} is not set, so anyone who ` +
    "can reach the port could call every tool with this server's credentials. Set a bearer token in " +
    `${http.vars.token} (comma-separated for one per caller), bind 127.0.0.1, or set ${http.vars.allowNoToken}=1 if the ` +
    'exposure is intended (say, an authenticating proxy in front).'
  );
}

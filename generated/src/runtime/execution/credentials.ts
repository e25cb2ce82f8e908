// The credentials an OpenAPI operation's security schemes take, read from environment variables named after each
// scheme (`<prefix><SCHEME>_KEY`, `_TOKEN`, `_USERNAME`/`_PASSWORD`, `_CLIENT_ID`/`_CLIENT_SECRET`).

import type { EnvironmentVariables } from '../shared/contracts.js';
import type { SecurityScheme } from './operation.js';
import { variableValue } from '../shared/environment.js';

/** Where credentials go on one request. */
export interface Credentials {
  headers: Record<string, string>;
  query: string[];
  cookies: string[];
}

/** `bearerAuth` → `BEARER_AUTH`, `api_key` → `API_KEY`: the scheme's part of its variables' names. */
export function schemeVariablePart(scheme: string): string {
  return (
    scheme
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .toUpperCase() || 'AUTH'
  );
}

/** The variables a scheme reads, in the order the README lists them; `<prefix>API_KEY` stands in for a key or token. */
export function schemeVariables(prefix: string, name: string, scheme: SecurityScheme): string[] {
  const base = `${prefix}${schemeVariablePart(name)}`;
  switch (scheme.type) {
    case 'apiKey':
      return [`${base}_KEY`];
    case 'http':
      return scheme.scheme === 'basic' ? [`${base}_USERNAME`, `${base}_PASSWORD`] : [`${base}_TOKEN`];
    case 'oauth2':
      return scheme.tokenUrl === null ? [`${base}_TOKEN`] : [`${base}_TOKEN`, `${base}_CLIENT_ID`, `${base}_CLIENT_SECRET`];
    default:
      return [];
  }
}

/** Fetches (and caches) an OAuth2 client-credentials access token; null when none can be had. */
export type TokenSource = (tokenUrl: string, clientId: string, clientSecret: string, signal?: AbortSignal) => Promise<string | null>;

export interface CredentialReader {
  /**
   * Credentials for the first alternative whose schemes are all configured; an empty set when none is required, or when
   * none is configured (the API's 401 then tells the agent which variables to set: see `variablesFor`).
   */
  credentialsFor(
    security: readonly string[][],
    schemes: Readonly<Record<string, SecurityScheme>>,
    signal?: AbortSignal,
  ): Promise<Credentials>;
  /** The variables any alternative would read, for messages. */
  variablesFor(security: readonly string[][], schemes: Readonly<Record<string, SecurityScheme>>): string[];
}

export function createCredentialReader(prefix: string, env: EnvironmentVariables, tokens: TokenSource): CredentialReader {
  const read = (name: string): string | null => variableValue(env, name) ?? null;
  const genericKey = (): string | null => read(`${prefix}API_KEY`);

  /** What one scheme adds, or null when its variables are not set. */
  async function applied(name: string, scheme: SecurityScheme, into: Credentials, signal?: AbortSignal): Promise<boolean> {
    const base = `${prefix}${schemeVariablePart(name)}`;
    switch (scheme.type) {
      case 'apiKey': {
        const key = read(`${base}_KEY`) ?? genericKey();
        if (key === null) return false;
        if (scheme.in === 'header') into.headers[scheme.name.toLowerCase()] = key;
        else if (scheme.in === 'query') into.query.push(`${encodeURIComponent(scheme.name)}=${encodeURIComponent(key)}`);
        else into.cookies.push(`${scheme.name}=${encodeURIComponent(key)}`);
        return true;
      }
      case 'http': {
        if (scheme.scheme === 'basic') {
          const user = read(`${base}_USERNAME`);
          if (user === null) return false;
          into.headers.authorization = `Basic ${Buffer.from(`${user}:${read(`${base}_PASSWORD`) ?? ''}`).toString('base64')}`;
          return true;
        }
        const token = read(`${base}_TOKEN`) ?? genericKey();
        if (token === null) return false;
        into.headers.authorization = `${scheme.scheme === 'bearer' ? 'Bearer' : scheme.scheme} ${token}`;
        return true;
      }
      case 'oauth2': {
        let token = read(`${base}_TOKEN`);
        const id = read(`${base}_CLIENT_ID`);
        const secret = read(`${base}_CLIENT_SECRET`);
        if (token === null && scheme.tokenUrl !== null && id !== null && secret !== null)
          token = await tokens(scheme.tokenUrl, id, secret, signal);
        token ??= genericKey();
        if (token === null) return false;
        into.headers.authorization = `Bearer ${token}`;
        return true;
      }
      default:
        return false;
    }
  }

  return {
    async credentialsFor(security, schemes, signal) {
      const none: Credentials = { headers: {}, query: [], cookies: [] };
      for (const alternative of security) {
        // `{}` among the alternatives makes auth optional: the others are still sent when configured.
        if (alternative.length === 0) continue;
        const into: Credentials = { headers: {}, query: [], cookies: [] };
        let complete = true;
        for (const name of alternative) {
          const scheme = schemes[name];
          if (scheme === undefined || !(await applied(name, scheme, into, signal))) {
            complete = false;
            break;
          }
        }
        if (complete) return into;
      }
      return none;
    },
    variablesFor(security, schemes) {
      const names = new Set<string>();
      for (const alternative of security)
        for (const name of alternative) {
          const scheme = schemes[name];
          if (scheme !== undefined) for (const variable of schemeVariables(prefix, name, scheme)) names.add(variable);
        }
      return [...names];
    },
  };
}

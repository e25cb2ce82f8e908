import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeApiUrl, readSettings } from '../../src/runtime/settings/config.js';
import { redactUrlCredentials } from '../../src/runtime/secrets/redact.js';
import { captureLog, testNames } from './core-fixtures.js';

test('defaults when nothing is set', () => {
  const { log, lines } = captureLog();
  const settings = readSettings(testNames, {}, log);
  assert.equal(settings.apiKey, null);
  assert.equal(settings.apiUrl, 'https://nexusbloom.dev/api');
  assert.equal(settings.timeoutMs, 15000);
  assert.equal(settings.cacheTtlMs, 60000);
  assert.equal(settings.debug, false);
  assert.equal(settings.execution, 'remote');
  assert.equal(settings.catalogue, 'pinned');
  assert.equal(settings.vars.apiKey, 'NEXUSBLOOM_API_KEY');
  assert.deepEqual(lines, []);
});

const table: { env: Record<string, string>; want: Record<string, unknown>; notes: number }[] = [
  { env: { NEXUSBLOOM_API_KEY: 'k-1' }, want: { apiKey: 'k-1' }, notes: 0 },
  { env: { NEXUSBLOOM_API_KEY: '   ' }, want: { apiKey: null }, notes: 0 },
  { env: { NEXUSBLOOM_API_URL: 'https://example.test' }, want: { apiUrl: 'https://example.test/api' }, notes: 0 },
  { env: { NEXUSBLOOM_API_URL: 'https://example.test/' }, want: { apiUrl: 'https://example.test/api' }, notes: 0 },
  { env: { NEXUSBLOOM_API_URL: 'http://127.0.0.1:4010/api/' }, want: { apiUrl: 'http://127.0.0.1:4010/api' }, notes: 0 },
  { env: { NEXUSBLOOM_API_URL: 'https://example.test/v2/api' }, want: { apiUrl: 'https://example.test/v2/api' }, notes: 0 },
  // An unusable URL is never replaced by the default: that would send a self-hosted user's data to another host.
  { env: { NEXUSBLOOM_API_URL: 'not a url' }, want: { apiUrl: null }, notes: 1 },
  { env: { NEXUSBLOOM_API_URL: 'ftp://example.test' }, want: { apiUrl: null }, notes: 1 },
  { env: { NEXUSBLOOM_API_URL: '127.0.0.1:4731/api' }, want: { apiUrl: null }, notes: 1 },
  // Set but blank (`NEXUSBLOOM_API_URL=` in a .env file) is a missing self-hosted URL, not a request for the default.
  { env: { NEXUSBLOOM_API_URL: '' }, want: { apiUrl: null }, notes: 1 },
  { env: { NEXUSBLOOM_API_URL: '  \t ' }, want: { apiUrl: null }, notes: 1 },
  { env: { NEXUSBLOOM_API_KEY: ' sk-pasted\n' }, want: { apiKey: 'sk-pasted', apiKeyProblem: null }, notes: 0 },
  { env: { NEXUSBLOOM_API_KEY: 'ключ-123' }, want: { apiKey: null }, notes: 1 },
  { env: { NEXUSBLOOM_API_KEY: 'abc\r\ndef' }, want: { apiKey: null }, notes: 1 },
  {
    env: { NEXUSBLOOM_API_URL: 'http://admin:hunter2pw@127.0.0.1:4731/api' },
    want: { apiUrl: 'http://127.0.0.1:4731/api', apiBasicAuth: 'admin:hunter2pw' },
    notes: 0,
  },
  {
    env: { NEXUSBLOOM_API_URL: 'https://tok%40en@example.test' },
    want: { apiUrl: 'https://example.test/api', apiBasicAuth: 'tok@en:' },
    notes: 0,
  },
  { env: { NEXUSBLOOM_MCP_TIMEOUT_MS: '2500' }, want: { timeoutMs: 2500 }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_TIMEOUT_MS: 'soon' }, want: { timeoutMs: 15000 }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_TIMEOUT_MS: '0' }, want: { timeoutMs: 15000 }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_TIMEOUT_MS: '-5' }, want: { timeoutMs: 15000 }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_TIMEOUT_MS: '1.5' }, want: { timeoutMs: 15000 }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_CACHE_TTL_MS: '0' }, want: { cacheTtlMs: 0 }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_CACHE_TTL_MS: '1e3' }, want: { cacheTtlMs: 60000 }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_DEBUG: '1' }, want: { debug: true }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_DEBUG: '0' }, want: { debug: false }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_EXECUTION: 'local' }, want: { execution: 'local' }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_EXECUTION: 'AUTO' }, want: { execution: 'auto' }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_EXECUTION: 'lokal' }, want: { execution: 'remote' }, notes: 1 },
  { env: { NEXUSBLOOM_MCP_CATALOGUE: 'live' }, want: { catalogue: 'live' }, notes: 0 },
  { env: { NEXUSBLOOM_MCP_CATALOGUE: 'fresh' }, want: { catalogue: 'pinned' }, notes: 1 },
];

for (const { env, want, notes } of table) {
  test(`reads ${JSON.stringify(env)}`, () => {
    const { log, lines } = captureLog();
    const settings = readSettings(testNames, env, log);
    for (const [key, value] of Object.entries(want)) {
      assert.deepEqual(settings[key as keyof typeof settings], value, key);
    }
    assert.equal(lines.length, notes, lines.join('\n'));
    for (const line of lines) assert.match(line, new RegExp(Object.keys(env)[0] ?? ''));
  });
}

test('an unusable API URL is reported once, with its credentials masked and what a valid value looks like', () => {
  const { log, lines } = captureLog();
  const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: 'admin:hunter2pw@127.0.0.1:4731/api' }, log);
  assert.equal(settings.apiUrl, null);
  assert.equal(settings.apiBasicAuth, null);
  assert.deepEqual(lines, [settings.apiUrlProblem]);
  assert.match(lines[0] ?? '', /^NEXUSBLOOM_API_URL="\*\*\*@127\.0\.0\.1:4731\/api" is not an http\(s\) URL, so no API request is sent/);
  assert.match(lines[0] ?? '', /no other API is used in its place/);
  assert.match(lines[0] ?? '', /starts with http:\/\/ or https:\/\/.*e\.g\. https:\/\/nexusbloom\.dev\/api/);
  assert.ok(!lines[0]?.includes('hunter2pw'));
});

test('a blank API URL is reported as set but empty, with how to get the default', () => {
  const { log, lines } = captureLog();
  const settings = readSettings(testNames, { NEXUSBLOOM_API_URL: '   ' }, log);
  assert.equal(settings.apiUrl, null);
  assert.deepEqual(lines, [settings.apiUrlProblem]);
  assert.match(lines[0] ?? '', /^NEXUSBLOOM_API_URL is set but empty, so no API request is sent/);
  assert.match(lines[0] ?? '', /Unset NEXUSBLOOM_API_URL to use the default https:\/\/nexusbloom\.dev\/api/);
});

test('an API key a header cannot carry is reported by position and kind, never shown', () => {
  for (const [key, kind] of [
    ['sk-ключ', /character 4 is outside Latin-1/],
    ['sk-1\r\nX-Evil: 1', /character 5 is a line break/],
    ['sk\u0000x', /character 3 is a control character/],
  ] as const) {
    const { log, lines } = captureLog();
    const settings = readSettings(testNames, { NEXUSBLOOM_API_KEY: key }, log);
    assert.equal(settings.apiKey, null, 'never sent, not even trimmed');
    assert.deepEqual(lines, [settings.apiKeyProblem]);
    assert.match(lines[0] ?? '', /^NEXUSBLOOM_API_KEY cannot be sent as an HTTP header/);
    assert.match(lines[0] ?? '', kind);
    assert.ok(!lines[0]?.includes('sk'), lines[0]);
  }
  // Latin-1 and tabs are what a header can carry: such a key is sent as it is.
  assert.equal(readSettings(testNames, { NEXUSBLOOM_API_KEY: 'clé\tx' }, () => {}).apiKey, 'clé\tx');
});

test('redactUrlCredentials masks userinfo in URLs and in values that do not parse', () => {
  const table: [string, string][] = [
    ['http://admin:hunter2pw@127.0.0.1:4731/api', 'http://***@127.0.0.1:4731/api'],
    ['https://token@example.test', 'https://***@example.test'],
    ['admin:hunter2pw@127.0.0.1:4731/api', '***@127.0.0.1:4731/api'],
    ['ftp://u:p@h/x', 'ftp://***@h/x'],
    ['https://example.test/a@b', 'https://example.test/a@b'],
    ['127.0.0.1:4731/api', '127.0.0.1:4731/api'],
    ['not a url', 'not a url'],
  ];
  for (const [raw, shown] of table) assert.equal(redactUrlCredentials(raw), shown, raw);
});

test('an unknown execution mode names the variable and the fallback', () => {
  const { log, lines } = captureLog();
  readSettings(testNames, { NEXUSBLOOM_MCP_EXECUTION: 'yes please' }, log);
  assert.match(lines[0] ?? '', /NEXUSBLOOM_MCP_EXECUTION="yes please".*using remote/);
});

test('other prefixes are honoured', () => {
  const settings = readSettings(
    { ...testNames, envPrefix: 'ACME_', defaultApiUrl: 'https://acme.test' },
    { ACME_API_KEY: 'a', NEXUSBLOOM_API_KEY: 'n' },
    () => {},
  );
  assert.equal(settings.apiKey, 'a');
  assert.equal(settings.apiUrl, 'https://acme.test/api');
});

test('normalizeApiUrl', () => {
  assert.equal(normalizeApiUrl('https://h.test'), 'https://h.test/api');
  assert.equal(normalizeApiUrl('https://h.test/api//'), 'https://h.test/api');
  assert.equal(normalizeApiUrl('https://h.test/api?x=1#y'), 'https://h.test/api');
  assert.equal(normalizeApiUrl('h.test'), null);
  assert.equal(normalizeApiUrl('https://user:pw@h.test/api'), 'https://h.test/api');
});

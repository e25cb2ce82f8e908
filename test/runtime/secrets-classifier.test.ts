// The one classifier of secrets: by the words of a name, by the shape of a value, and for a child's environment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isCredentialVariable, isSecretName, maskSecretsInText, nameWords } from '../../src/runtime/secrets/classifier.js';
import { stripCredentials } from '../../src/runtime/execution/local-exec.js';
import { redactSecrets } from '../../src/runtime/secrets/redact.js';

describe('isSecretName matches the words of a name, not raw substrings', () => {
  const secret = [
    'jwt',
    'bearer',
    'pwd',
    'pass',
    'pin',
    'otp',
    'ssn',
    'cvv',
    'signature',
    'dsn',
    'private_key',
    'privateKey',
    'dbPass',
    'DB_PASS',
    'user-pin',
    'userSSN',
    'x-api-key',
    'apikey',
    'accesstoken',
    'PGPASSWORD',
    'connection_string',
    'connectionString',
    'GH_PAT',
    'STRIPE_SK',
    'CI_JOB_JWT',
    'SENTRY_DSN',
    'SLACK_WEBHOOK_URL',
    'Authorization',
    'set-cookie',
    'clientSecret',
    'api_keys',
    'refresh_tokens',
    'card_cvc',
    'mfa_otp_code',
  ];
  const ordinary = [
    'passenger',
    'passengers',
    'pinned',
    'pinned_tools',
    'spinner',
    'opinion',
    'author',
    'authority',
    'keyboard',
    'keywords',
    'compass',
    'bypass',
    'design',
    'signal',
    'skip',
    'task',
    'PATH',
    'LANG',
    'name',
    'count',
    'env_content',
    'description',
  ];
  for (const name of secret) it(`${name} is a secret name`, () => assert.equal(isSecretName(name), true, nameWords(name).join(' ')));
  for (const name of ordinary) it(`${name} is not`, () => assert.equal(isSecretName(name), false, nameWords(name).join(' ')));
});

describe('maskSecretsInText masks secrets by the shape of the value', () => {
  const table: [string, string][] = [
    ['postgres://app:hunter2@db.internal:5432/main', 'postgres://***@db.internal:5432/main'],
    ['redis://:hunter2@cache:6379/0', 'redis://***@cache:6379/0'],
    ['mongodb+srv://u:p%40ss@cluster.example/db?retryWrites=true', 'mongodb+srv://***@cluster.example/db?retryWrites=true'],
    ['see http://u:pw@a.test/x and https://t0ken@b.test/', 'see http://***@a.test/x and https://***@b.test/'],
    [
      'Server=db;Database=app;User Id=sa;Password=hunter2;Encrypt=true',
      'Server=db;Database=app;User Id=sa;Password=[redacted];Encrypt=true',
    ],
    ['host=db user=app pwd=hunter2 sslmode=require', 'host=db user=app pwd=[redacted] sslmode=require'],
    ['https://api.test/x?token=abc123&page=2', 'https://api.test/x?token=[redacted]&page=2'],
    ['Authorization: Bearer abcdef123456', 'Authorization: [redacted]'],
    ['sent Bearer abcdef.123456.xyz to it', 'sent Bearer [redacted] to it'],
    ['Basic dXNlcjpodW50ZXIy', 'Basic [redacted]'],
    ['{"password": "hunter2", "user": "ann"}', '{"password": "[redacted]", "user": "ann"}'],
    ['token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.sig-nature_x here', 'token [redacted] here'],
    ['ghp_abcdefghijklmnopqrstuvwxyz0123456789', '[redacted]'],
    ['key sk_live_abcdefghijklmnop', 'key [redacted]'],
  ];
  for (const [raw, shown] of table) it(raw, () => assert.equal(maskSecretsInText(raw), shown));

  const untouched = [
    'Basic usage of the tool',
    'a bearer of bad news',
    'user@example.com wrote',
    'x = 1; y = 2',
    'https://example.test/path?page=2',
    'Time: 12:30',
    'Passenger=Ann;Seat=12A',
  ];
  for (const text of untouched) it(`leaves ${JSON.stringify(text)}`, () => assert.equal(maskSecretsInText(text), text));

  it('runs in linear time on hostile text', () => {
    const started = performance.now();
    for (const text of ['a.'.repeat(200_000), 'x://'.repeat(100_000), 'a='.repeat(200_000), `${'eyJ'.repeat(100_000)}.`])
      maskSecretsInText(text);
    assert.ok(performance.now() - started < 2000, `${Math.round(performance.now() - started)} ms`);
  });
});

describe('redactSecrets masks header lists and values by shape', () => {
  it('masks the value of an entry that names a secret header, and keeps the others', () => {
    const { value, masked } = redactSecrets({
      headers: [
        { name: 'Authorization', value: 'Token xyz' },
        { name: 'Accept', value: 'application/json' },
        { header: 'X-Api-Key', value: 'k1' },
      ],
      env: { DATABASE_URL: 'postgres://u:pw@h/db' },
    });
    assert.deepEqual(value, {
      headers: [
        { name: 'Authorization', value: '[redacted]' },
        { name: 'Accept', value: 'application/json' },
        { header: 'X-Api-Key', value: '[redacted]' },
      ],
      env: { DATABASE_URL: 'postgres://***@h/db' },
    });
    assert.deepEqual(masked.sort(), ['/env/DATABASE_URL', '/headers/0/value', '/headers/2/value']);
  });
});

describe('the environment of a local run', () => {
  const env: Record<string, string> = {
    DATABASE_URL: 'postgres://app:hunter2@db:5432/app',
    REDIS_URL: 'redis://:hunter2@cache:6379',
    MONGODB_URI: 'mongodb://u:hunter2@m/db',
    HTTPS_PROXY: 'http://proxyuser:hunter2@proxy:3128',
    SENTRY_DSN: 'https://abc@o1.ingest.sentry.io/1',
    SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/XYZ',
    CI_JOB_JWT: 'eyJ.x.y',
    GH_PAT: 'ghp_x',
    STRIPE_SK: 'sk_live_x',
    CONNECTION_STRING: 'Server=db;Trusted_Connection=True',
    DB_PASS: 'x',
    MYSQL_PWD: 'x',
    USER_PIN: '1234',
    PATH: '/usr/bin:/bin',
    LANG: 'C.UTF-8',
    HOME: '/home/u',
    PWD: '/work/project',
    HTTP_PROXY: 'http://proxy:3128',
    MYTOOL_CONFIG: '/etc/mytool.json',
    MYTOOL_MODE: 'fast',
    NODE_ENV: 'production',
    PINNED_TOOLS: 'a,b',
    PASSENGER_COUNT: '3',
  };
  it('strips credentials by name or value and passes ordinary variables through', () => {
    const kept = stripCredentials(env);
    assert.deepEqual(Object.keys(kept).sort(), [
      'HOME',
      'HTTP_PROXY',
      'LANG',
      'MYTOOL_CONFIG',
      'MYTOOL_MODE',
      'NODE_ENV',
      'PASSENGER_COUNT',
      'PATH',
      'PINNED_TOOLS',
      'PWD',
    ]);
    assert.ok(!JSON.stringify(kept).includes('hunter2'));
  });
  it('uses the same classifier as history', () => {
    for (const [name, value] of Object.entries(env)) {
      const inHistory = redactSecrets({ [name]: value }).masked.length > 0;
      if (name !== 'PWD') assert.equal(isCredentialVariable(name, value), inHistory, name);
    }
  });
});

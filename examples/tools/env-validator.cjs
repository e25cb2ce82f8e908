'use strict';
// Parses .env file content, reports syntax problems, duplicate, missing and empty keys, and which keys look secret.
const KEY_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SECRET_HINT = /(SECRET|TOKEN|PASSWORD|PASSWD|API_?KEY|PRIVATE|CREDENTIAL)/i;
exports.run = function run(params) {
  const errors = [];
  const warnings = [];
  const values = new Map();
  const lines = params.env_content.replace(/\r\n/g, '\n').split('\n');
  lines.forEach((raw, index) => {
    const line = index + 1;
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) return;
    const body = text.startsWith('export ') ? text.slice(7).trim() : text;
    const eq = body.indexOf('=');
    if (eq <= 0) { errors.push({ line, key: null, message: 'Expected KEY=value' }); return; }
    const key = body.slice(0, eq).trim();
    let value = body.slice(eq + 1).trim();
    if (!KEY_PATTERN.test(key)) { errors.push({ line, key, message: `Invalid key name "${key}"` }); return; }
    const quote = value[0];
    if (quote === '"' || quote === "'") {
      if (value.length < 2 || value[value.length - 1] !== quote) { errors.push({ line, key, message: 'Unterminated quoted value' }); return; }
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, '');
    }
    if (values.has(key)) warnings.push({ line, key, message: `Duplicate key "${key}" overrides line ${values.get(key).line}` });
    values.set(key, { line, value });
  });
  const required = params.required_keys || [];
  const missing = required.filter((key) => !values.has(key));
  for (const key of missing) errors.push({ line: null, key, message: `Required key "${key}" is missing` });
  const empty = [...values].filter(([, v]) => v.value === '').map(([key]) => key);
  if (!params.allow_empty) for (const key of empty) warnings.push({ line: values.get(key).line, key, message: `"${key}" is empty` });
  const keys = [...values.keys()];
  return {
    valid: errors.length === 0,
    keys,
    missing,
    empty,
    secret_like: keys.filter((key) => SECRET_HINT.test(key)),
    errors,
    warnings,
  };
};

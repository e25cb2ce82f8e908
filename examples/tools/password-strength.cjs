'use strict';
// Estimates password strength from length, character variety and common patterns; never stores or sends the password.
const COMMON = ['password', '123456', 'qwerty', 'letmein', 'admin', 'welcome', 'iloveyou', 'monkey', 'dragon', 'abc123'];
exports.run = function run(params) {
  const password = params.password;
  const pools = [[/[a-z]/, 26], [/[A-Z]/, 26], [/[0-9]/, 10], [/[^A-Za-z0-9]/, 33]];
  const poolSize = pools.reduce((sum, [re, size]) => (re.test(password) ? sum + size : sum), 0);
  const length = [...password].length;
  let entropy = poolSize === 0 ? 0 : length * Math.log2(poolSize);
  const feedback = [];
  const lower = password.toLowerCase();
  if (COMMON.some((word) => lower.includes(word))) { entropy = Math.min(entropy, 10); feedback.push('Contains a very common password'); }
  if (/(.)\1{2,}/.test(password)) { entropy *= 0.8; feedback.push('Avoid repeating the same character'); }
  if (/(?:abc|bcd|cde|123|234|345|456|567|678|789)/i.test(password)) { entropy *= 0.9; feedback.push('Avoid sequences like "abc" or "123"'); }
  const minLength = params.min_length || 12;
  if (length < minLength) feedback.push(`Use at least ${minLength} characters`);
  if (poolSize < 60) feedback.push('Mix upper and lower case letters, digits and symbols');
  const bits = Math.round(entropy * 10) / 10;
  const score = bits < 28 ? 0 : bits < 36 ? 1 : bits < 60 ? 2 : bits < 80 ? 3 : 4;
  const labels = ['very weak', 'weak', 'fair', 'strong', 'very strong'];
  return { score, label: labels[score], entropy_bits: bits, length, meets_policy: length >= minLength && score >= 3, feedback };
};

'use strict';
// Explains a five-field cron expression in English and lists the values each field matches.
const FIELDS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day_of_month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] },
  { name: 'day_of_week', min: 0, max: 6, names: ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'] },
];
const MACROS = { '@yearly': '0 0 1 1 *', '@annually': '0 0 1 1 *', '@monthly': '0 0 1 * *', '@weekly': '0 0 * * 0', '@daily': '0 0 * * *', '@midnight': '0 0 * * *', '@hourly': '0 * * * *' };
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

function toNumber(token, field) {
  const upper = token.toUpperCase();
  if (field.names && field.names.includes(upper)) return field.names.indexOf(upper) + field.min;
  if (!/^\d+$/.test(token)) throw new Error(`Invalid ${field.name} value "${token}"`);
  let value = Number(token);
  if (field.name === 'day_of_week' && value === 7) value = 0;
  if (value < field.min || value > field.max) throw new Error(`${field.name} value ${value} is outside ${field.min}-${field.max}`);
  return value;
}
function expand(text, field) {
  const values = new Set();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`Invalid step "${stepText}" in ${field.name}`);
    let from = field.min;
    let to = field.max;
    if (range !== '*') {
      const bounds = range.split('-');
      from = toNumber(bounds[0], field);
      to = bounds.length > 1 ? toNumber(bounds[1], field) : stepText === undefined ? from : field.max;
    }
    if (from > to) throw new Error(`Range ${range} in ${field.name} runs backwards`);
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return [...values].sort((a, b) => a - b);
}
function describe(values, field, all) {
  if (all) return null;
  if (field.name === 'day_of_week') return values.map((v) => DAY_NAMES[v]).join(', ');
  if (field.name === 'month') return values.map((v) => MONTH_NAMES[v - 1]).join(', ');
  return values.join(', ');
}
exports.run = function run(params) {
  const expression = params.expression.trim();
  const normalized = MACROS[expression.toLowerCase()] || expression;
  const parts = normalized.split(/\s+/);
  if (parts.length !== 5) throw new Error(`Expected 5 fields (minute hour day-of-month month day-of-week), got ${parts.length}`);
  const fields = {};
  const words = {};
  FIELDS.forEach((field, i) => {
    const values = expand(parts[i], field);
    fields[field.name] = values;
    words[field.name] = describe(values, field, parts[i] === '*');
  });
  const pad = (n) => String(n).padStart(2, '0');
  let when;
  if (fields.minute.length === 1 && fields.hour.length === 1) when = `At ${pad(fields.hour[0])}:${pad(fields.minute[0])}`;
  else if (parts[0] === '*' && parts[1] === '*') when = 'Every minute';
  else when = `At minute ${words.minute || 'every'} past ${words.hour ? 'hour ' + words.hour : 'every hour'}`;
  const clauses = [when];
  if (words.day_of_month) clauses.push(`on day-of-month ${words.day_of_month}`);
  if (words.day_of_week) clauses.push(`on ${words.day_of_week}`);
  if (words.month) clauses.push(`in ${words.month}`);
  return { expression: normalized, description: clauses.join(', '), fields };
};

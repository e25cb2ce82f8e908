'use strict';
// Converts a Unix timestamp (seconds or milliseconds) or a date string into ISO 8601, Unix and a zoned local time.
exports.run = function run(params) {
  const input = params.timestamp;
  let millis;
  if (typeof input === 'number') {
    const unit = params.unit || (Math.abs(input) >= 1e11 ? 'milliseconds' : 'seconds');
    millis = unit === 'milliseconds' ? input : input * 1000;
  } else {
    millis = Date.parse(input);
    if (Number.isNaN(millis)) throw new Error(`Cannot parse "${input}" as a date`);
  }
  const date = new Date(millis);
  const timeZone = params.timezone || 'UTC';
  let local;
  try {
    local = new Intl.DateTimeFormat('en-CA', {
      timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZoneName: 'short',
    }).format(date);
  } catch {
    throw new Error(`Unknown time zone "${timeZone}"`);
  }
  return {
    iso: date.toISOString(),
    unix_seconds: Math.floor(millis / 1000),
    unix_millis: millis,
    timezone: timeZone,
    local,
    day_of_week: new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'long' }).format(date),
  };
};

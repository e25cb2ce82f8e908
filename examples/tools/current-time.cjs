'use strict';
// Reports the current time of the machine that runs the tool in several formats.
exports.run = function run() {
  const now = new Date();
  return {
    iso: now.toISOString(),
    unix_seconds: Math.floor(now.getTime() / 1000),
    unix_millis: now.getTime(),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC',
    utc_offset_minutes: -now.getTimezoneOffset(),
  };
};

'use strict';
// Checks a git commit message against the Conventional Commits format (type(scope)!: subject, body, footers).
const DEFAULT_TYPES = ['build', 'chore', 'ci', 'docs', 'feat', 'fix', 'perf', 'refactor', 'revert', 'style', 'test'];
exports.run = function run(params) {
  const types = params.types && params.types.length > 0 ? params.types : DEFAULT_TYPES;
  const maxLength = params.max_header_length || 72;
  const lines = params.message.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const header = lines[0] || '';
  const problems = [];
  const match = /^(\w+)(?:\(([^()\s]+)\))?(!)?: (.+)$/.exec(header);
  if (!match) problems.push('Header must look like "type(scope): subject"');
  else {
    if (!types.includes(match[1])) problems.push(`Type "${match[1]}" is not one of: ${types.join(', ')}`);
    if (/\.$/.test(match[4])) problems.push('Subject must not end with a period');
    if (/^[A-Z]/.test(match[4])) problems.push('Subject should start with a lower-case letter');
  }
  if (header.length > maxLength) problems.push(`Header is ${header.length} characters; the limit is ${maxLength}`);
  if (lines.length > 1 && lines[1] !== '') problems.push('Leave a blank line between the header and the body');
  const breaking = Boolean(match && match[3]) || lines.some((l) => /^BREAKING[ -]CHANGE: /.test(l));
  return {
    valid: problems.length === 0,
    type: match ? match[1] : null,
    scope: match && match[2] ? match[2] : null,
    subject: match ? match[4] : null,
    breaking,
    problems,
  };
};

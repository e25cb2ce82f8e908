'use strict';
// Checks a Dockerfile against common best-practice rules and reports findings with line numbers.
const RULES = [
  { id: 'DL3006', severity: 'warning', test: (ins, arg) => ins === 'FROM' && !/[:@]/.test(arg.split(/\s+/)[0]) && !/^scratch$/i.test(arg), message: 'Pin the base image version instead of relying on the implicit "latest" tag' },
  { id: 'DL3007', severity: 'warning', test: (ins, arg) => ins === 'FROM' && /:latest\b/.test(arg), message: 'Using the "latest" tag makes builds unreproducible' },
  { id: 'DL3020', severity: 'error', test: (ins, arg) => ins === 'ADD' && !/^(https?:|\S+\.(tar|tgz|tar\.gz|tar\.xz)\s)/.test(arg), message: 'Use COPY instead of ADD for files and folders' },
  { id: 'DL3014', severity: 'warning', test: (ins, arg) => ins === 'RUN' && /apt-get\s+install/.test(arg) && !/\s(-y|--yes|--assume-yes)\b/.test(arg), message: 'Use "apt-get install -y" so the build does not wait for input' },
  { id: 'DL3009', severity: 'info', test: (ins, arg) => ins === 'RUN' && /apt-get\s+install/.test(arg) && !/rm -rf \/var\/lib\/apt\/lists/.test(arg), message: 'Delete the apt lists after installing to keep the image small' },
  { id: 'DL3025', severity: 'warning', test: (ins, arg) => (ins === 'CMD' || ins === 'ENTRYPOINT') && !arg.trim().startsWith('['), message: 'Use the JSON (exec) form so signals reach the process' },
  { id: 'DL3004', severity: 'error', test: (ins, arg) => ins === 'RUN' && /(^|[;&|]\s*)sudo\s/.test(arg), message: 'Do not use sudo: it has unpredictable TTY and signal behaviour' },
];
exports.run = function run(params) {
  const findings = [];
  const instructions = [];
  const physical = params.dockerfile.replace(/\r\n/g, '\n').split('\n');
  for (let i = 0; i < physical.length; i++) {
    const startLine = i + 1;
    let text = physical[i];
    while (/\\\s*$/.test(text) && i + 1 < physical.length) text = text.replace(/\\\s*$/, ' ') + physical[++i];
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const match = /^(\S+)\s*(.*)$/.exec(trimmed);
    instructions.push({ line: startLine, instruction: match[1].toUpperCase(), argument: match[2] });
  }
  const ignored = new Set(params.ignore || []);
  for (const { line, instruction, argument } of instructions) {
    for (const rule of RULES) {
      if (!ignored.has(rule.id) && rule.test(instruction, argument)) findings.push({ line, rule: rule.id, severity: rule.severity, message: rule.message });
    }
  }
  if (!ignored.has('DL3002') && instructions.length > 0 && !instructions.some((i) => i.instruction === 'USER')) {
    findings.push({ line: instructions[instructions.length - 1].line, rule: 'DL3002', severity: 'warning', message: 'No USER instruction: the container will run as root' });
  }
  if (!instructions.some((i) => i.instruction === 'FROM')) findings.push({ line: 1, rule: 'DL3061', severity: 'error', message: 'A Dockerfile must start with FROM' });
  findings.sort((x, y) => x.line - y.line || (x.rule < y.rule ? -1 : 1));
  const errors = findings.filter((f) => f.severity === 'error').length;
  return { passed: errors === 0, errors, warnings: findings.filter((f) => f.severity === 'warning').length, findings };
};

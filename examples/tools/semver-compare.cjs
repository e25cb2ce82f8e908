'use strict';
// Parses two semantic versions and compares them by SemVer 2.0.0 precedence (pre-release aware, build metadata ignored).
const SEMVER = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;
function parse(version) {
  const m = SEMVER.exec(version.trim());
  if (!m) throw new Error(`"${version}" is not a semantic version`);
  return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), prerelease: m[4] ? m[4].split('.') : [], build: m[5] ? m[5].split('.') : [] };
}
function compareIdentifiers(a, b) {
  const an = /^\d+$/.test(a);
  const bn = /^\d+$/.test(b);
  if (an && bn) return Math.sign(Number(a) - Number(b));
  if (an !== bn) return an ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
function compare(a, b) {
  for (const key of ['major', 'minor', 'patch']) if (a[key] !== b[key]) return Math.sign(a[key] - b[key]);
  if (a.prerelease.length === 0 || b.prerelease.length === 0) return Math.sign(b.prerelease.length - a.prerelease.length);
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    if (a.prerelease[i] === undefined) return -1;
    if (b.prerelease[i] === undefined) return 1;
    const c = compareIdentifiers(a.prerelease[i], b.prerelease[i]);
    if (c !== 0) return c;
  }
  return 0;
}
exports.run = function run(params) {
  const a = parse(params.a);
  const b = parse(params.b);
  const comparison = compare(a, b);
  let difference = null;
  if (comparison !== 0) difference = a.major !== b.major ? 'major' : a.minor !== b.minor ? 'minor' : a.patch !== b.patch ? 'patch' : 'prerelease';
  return { comparison, relation: comparison < 0 ? 'older' : comparison > 0 ? 'newer' : 'equal', difference, a, b };
};

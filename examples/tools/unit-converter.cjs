'use strict';
// Converts a value between units of length, mass, temperature, data size or duration.
const UNITS = {
  mm: ['length', 0.001], cm: ['length', 0.01], m: ['length', 1], km: ['length', 1000], in: ['length', 0.0254], ft: ['length', 0.3048], yd: ['length', 0.9144], mi: ['length', 1609.344],
  mg: ['mass', 0.000001], g: ['mass', 0.001], kg: ['mass', 1], lb: ['mass', 0.45359237], oz: ['mass', 0.028349523125],
  B: ['data', 1], KB: ['data', 1000], MB: ['data', 1e6], GB: ['data', 1e9], KiB: ['data', 1024], MiB: ['data', 1048576], GiB: ['data', 1073741824],
  ms: ['time', 0.001], s: ['time', 1], min: ['time', 60], h: ['time', 3600], d: ['time', 86400],
  C: ['temperature'], F: ['temperature'], K: ['temperature'],
};
const toKelvin = { C: (v) => v + 273.15, F: (v) => (v - 32) * (5 / 9) + 273.15, K: (v) => v };
const fromKelvin = { C: (v) => v - 273.15, F: (v) => (v - 273.15) * (9 / 5) + 32, K: (v) => v };
exports.run = function run(params) {
  const { value, from, to } = params;
  const [fromKind, fromFactor] = UNITS[from];
  const [toKind, toFactor] = UNITS[to];
  if (fromKind !== toKind) throw new Error(`Cannot convert ${fromKind} (${from}) to ${toKind} (${to})`);
  const raw = fromKind === 'temperature' ? fromKelvin[to](toKelvin[from](value)) : (value * fromFactor) / toFactor;
  const precision = params.precision === undefined ? 6 : params.precision;
  const result = Number(raw.toFixed(precision));
  return { value: result, from, to, kind: fromKind, formatted: `${value} ${from} = ${result} ${to}` };
};

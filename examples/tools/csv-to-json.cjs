'use strict';
// Parses CSV text (RFC 4180 quoting) into an array of records keyed by the header row, or into arrays.
function parseCsv(text, delimiter) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += c;
  }
  if (quoted) throw new Error('Unterminated quoted field');
  if (field !== '' || row.length > 0) { row.push(field); rows.push(row); }
  return rows.filter((r) => !(r.length === 1 && r[0] === ''));
}
function convert(value) {
  if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  if (value === 'true' || value === 'false') return value === 'true';
  if (value === '') return null;
  return value;
}
exports.run = function run(params) {
  const delimiter = params.delimiter || ',';
  const rows = parseCsv(params.csv, delimiter);
  const cast = params.infer_types === false ? (v) => v : convert;
  if (params.header === false) return { columns: [], rows: rows.map((r) => r.map(cast)), row_count: rows.length };
  const [columns = [], ...body] = rows;
  const records = body.map((r) => Object.fromEntries(columns.map((name, i) => [name, cast(r[i] === undefined ? '' : r[i])])));
  return { columns, rows: records, row_count: records.length };
};

'use strict';
// Checks and parses a simple YAML document: nested mappings, "- " lists, scalars and comments (no anchors, flow or multi-line strings).
function scalar(text) {
  const t = text.trim();
  if (t === '' || t === '~' || t === 'null') return null;
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if ((t.startsWith('"') && t.endsWith('"') && t.length > 1)) return JSON.parse(t);
  if ((t.startsWith("'") && t.endsWith("'") && t.length > 1)) return t.slice(1, -1).replace(/''/g, "'");
  if (t === '[]') return [];
  if (t === '{}') return {};
  return t;
}
function stripComment(text) {
  let quote = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) { if (c === quote) quote = null; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(text[i - 1]))) return text.slice(0, i);
  }
  return text;
}
exports.run = function run(params) {
  const errors = [];
  const lines = [];
  params.yaml.replace(/\r\n/g, '\n').split('\n').forEach((raw, i) => {
    if (/^\t| \t/.test(raw.match(/^\s*/)[0])) errors.push({ line: i + 1, message: 'Tabs are not allowed for indentation' });
    const text = stripComment(raw).replace(/\s+$/, '');
    if (text.trim() === '' || text.trim() === '---') return;
    lines.push({ line: i + 1, indent: text.length - text.trimStart().length, text: text.trim() });
  });
  let position = 0;
  function parseBlock(indent) {
    const first = lines[position];
    const isList = first.text === '-' || first.text.startsWith('- ');
    const container = isList ? [] : {};
    while (position < lines.length && errors.length < 20) {
      const current = lines[position];
      if (current.indent < indent) break;
      if (current.indent > indent) { errors.push({ line: current.line, message: 'Unexpected indentation' }); position++; continue; }
      const itemIsList = current.text === '-' || current.text.startsWith('- ');
      if (itemIsList !== isList) { errors.push({ line: current.line, message: isList ? 'Expected a "- " list item' : 'Expected "key: value"' }); position++; continue; }
      position++;
      const rest = isList ? current.text.slice(1).trim() : current.text;
      if (isList) {
        if (rest === '') container.push(position < lines.length && lines[position].indent > indent ? parseBlock(lines[position].indent) : null);
        else if (/^[^"'\s][^:]*:(\s|$)/.test(rest)) {
          lines.splice(position, 0, { line: current.line, indent: indent + 2, text: rest });
          container.push(parseBlock(indent + 2));
        } else container.push(scalar(rest));
        continue;
      }
      const match = /^("[^"]*"|'[^']*'|[^:]+?):(?:\s+(.*))?$/.exec(rest);
      if (!match) { errors.push({ line: current.line, message: 'Expected "key: value"' }); continue; }
      const key = String(scalar(match[1]));
      if (Object.prototype.hasOwnProperty.call(container, key)) errors.push({ line: current.line, message: `Duplicate key "${key}"` });
      if (match[2] !== undefined && match[2] !== '') container[key] = scalar(match[2]);
      else container[key] = position < lines.length && lines[position].indent > indent ? parseBlock(lines[position].indent) : null;
    }
    return container;
  }
  const data = lines.length === 0 ? null : parseBlock(lines[0].indent);
  return { valid: errors.length === 0, errors, data: errors.length === 0 ? data : null };
};

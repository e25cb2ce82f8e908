// Schema helpers for agents: parameter counts, field listings and a ready-to-send example call synthesized from a schema.
import type { InputValidator, JsonObject, ServedTool } from '../shared/contracts.js';
import { isJsonObject } from '../shared/json-values.js';

export interface ExampleCall {
  name: string;
  arguments: JsonObject;
}

export interface ParameterCounts {
  required: number;
  total: number;
}

export function parameterCounts(tool: ServedTool): ParameterCounts {
  const schema = tool.manifest.input_schema;
  if (!schema) return { required: 0, total: 0 };
  const properties = isJsonObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === 'string') : [];
  return { required: new Set(required).size, total: new Set([...properties, ...required]).size };
}

export function requiredFields(tool: ServedTool): string[] {
  const required = tool.manifest.input_schema?.required;
  return Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
}

export interface FieldSummary {
  name: string;
  required: boolean;
  type: string;
  description: string;
}

/** Top-level input fields in schema order, with their declared type (or "any") and description. */
export function inputFields(tool: ServedTool): FieldSummary[] {
  const schema = tool.manifest.input_schema;
  if (!schema) return [];
  const required = new Set(requiredFields(tool));
  const properties = isJsonObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).map(([name, raw]) => {
    const property = isJsonObject(raw) ? resolveRefs(schema, raw, new Set()) : {};
    const type = Array.isArray(property.type)
      ? property.type.join('|')
      : typeof property.type === 'string'
        ? property.type
        : Array.isArray(property.enum)
          ? 'enum'
          : 'any';
    return { name, required: required.has(name), type, description: typeof property.description === 'string' ? property.description : '' };
  });
}

/** Follows a chain of internal `$ref`s (`#/$defs/x`, `#/definitions/x`, any JSON pointer) from the schema root. */
function resolveRefs(root: JsonObject, schema: JsonObject, seen: Set<string>): JsonObject {
  let current = schema;
  while (typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref) || !ref.startsWith('#')) return {};
    seen.add(ref);
    const target = followPointer(root, ref.slice(1));
    if (!isJsonObject(target)) return {};
    const { $ref: _ignored, ...siblings } = current;
    current = { ...target, ...siblings };
  }
  return current;
}

function followPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  let node: unknown = root;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isJsonObject(node)) node = node[token];
    else return undefined;
  }
  return node;
}

const FORMAT_SAMPLES: Record<string, string> = {
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com',
  'uri-reference': 'https://example.com',
  iri: 'https://example.com',
  url: 'https://example.com',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  date: '2024-01-01',
  'date-time': '2024-01-01T00:00:00Z',
  time: '00:00:00Z',
  duration: 'P1D',
  uuid: '00000000-0000-4000-8000-000000000000',
  regex: '.*',
  'json-pointer': '/a',
};

const MAX_SAMPLE_DEPTH = 8;

/** Keywords under which a schema node's value takes a walk beyond the node: plainValue does not answer for them. */
const WALKED = ['$ref', '$dynamicRef', 'allOf', 'anyOf', 'oneOf'];

/**
 * The value a schema node states (its const, default, first enum value or first example) or, for a node of one
 * scalar type, a value of that type within its bounds; undefined when it takes more than the node to say (a
 * reference, a composition, an object, an array). sampleValue answers from it where it can; the generator's README
 * example takes it alone, as a value it can be sure of is one that compiles against the tool's types.
 */
export function plainValue(schema: unknown): unknown {
  if (!isJsonObject(schema)) return undefined;
  const stated = statedValue(schema);
  if (stated !== undefined || WALKED.some((keyword) => keyword in schema) || typeof schema.type !== 'string') return stated;
  return scalarValue(schema, schema.type);
}

/** What a node states outright: const, default, the first enum value, the first example; undefined when none. */
function statedValue(node: JsonObject): unknown {
  if ('const' in node) return node.const;
  if ('default' in node) return node.default;
  if (Array.isArray(node.enum) && node.enum.length) return node.enum[0];
  if (Array.isArray(node.examples) && node.examples.length) return node.examples[0];
  return undefined;
}

/** A value of the scalar `type` that keeps to the node's bounds and format; undefined for a type that is not scalar. */
function scalarValue(node: JsonObject, type: unknown): unknown {
  switch (type) {
    case 'string': {
      const format = typeof node.format === 'string' ? FORMAT_SAMPLES[node.format] : undefined;
      let text = format ?? 'example';
      const minLength = typeof node.minLength === 'number' ? node.minLength : 0;
      const maxLength = typeof node.maxLength === 'number' ? node.maxLength : Infinity;
      if (text.length < minLength) text = text.padEnd(minLength, 'x');
      if (text.length > maxLength) text = text.slice(0, maxLength);
      return text;
    }
    case 'integer':
    case 'number': {
      let value =
        typeof node.minimum === 'number'
          ? node.minimum
          : typeof node.exclusiveMinimum === 'number'
            ? node.exclusiveMinimum + 1
            : typeof node.maximum === 'number' && node.maximum < 1
              ? node.maximum
              : 1;
      if (type === 'integer') value = Math.ceil(value);
      if (typeof node.multipleOf === 'number' && node.multipleOf > 0) value = Math.ceil(value / node.multipleOf) * node.multipleOf;
      return value;
    }
    case 'boolean':
      return false;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

/** A value that satisfies `schema` as far as a simple walk can tell; callers re-validate it. */
export function sampleValue(root: JsonObject, schema: unknown, depth = 0, seen: Set<string> = new Set()): unknown {
  if (!isJsonObject(schema)) return null;
  const node = resolveRefs(root, schema, new Set(seen));
  const stated = statedValue(node);
  if (stated !== undefined) return stated;
  if (Array.isArray(node.allOf)) {
    const merged: JsonObject = {};
    for (const part of node.allOf) if (isJsonObject(part)) Object.assign(merged, resolveRefs(root, part, new Set(seen)));
    const { allOf: _allOf, ...rest } = node;
    return sampleValue(root, { ...merged, ...rest }, depth + 1, seen);
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = node[key];
    if (Array.isArray(options) && options.length) {
      const { [key]: _options, ...rest } = node;
      return sampleValue(root, { ...rest, ...(isJsonObject(options[0]) ? options[0] : {}) }, depth + 1, seen);
    }
  }
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const type = types.find((candidate) => candidate !== 'null') ?? types[0];
  const inferred = type ?? (isJsonObject(node.properties) || Array.isArray(node.required) ? 'object' : node.items ? 'array' : undefined);
  switch (inferred) {
    case 'array': {
      const minItems = typeof node.minItems === 'number' ? node.minItems : 0;
      if (minItems === 0 || depth >= MAX_SAMPLE_DEPTH) return [];
      const item = sampleValue(root, node.items, depth + 1, seen);
      return Array.from({ length: minItems }, (_unused, index) =>
        typeof item === 'number' && node.uniqueItems
          ? item + index
          : typeof item === 'string' && node.uniqueItems
            ? `${item}${index}`
            : item,
      );
    }
    case 'object': {
      const result: JsonObject = {};
      if (depth >= MAX_SAMPLE_DEPTH) return result;
      const properties = isJsonObject(node.properties) ? node.properties : {};
      const required = Array.isArray(node.required) ? node.required.filter((name): name is string => typeof name === 'string') : [];
      for (const name of required) result[name] = sampleValue(root, properties[name] ?? {}, depth + 1, seen);
      return result;
    }
    case 'null':
      return null;
    default:
      return scalarValue(node, inferred) ?? 'example';
  }
}

/** How to call a tool: directly by slug when advertised, through the meta-tool's `run` when withheld. */
export function callFor(tool: ServedTool, params: JsonObject, metaToolName: string): ExampleCall {
  return tool.withheldReason === null
    ? { name: tool.slug, arguments: params }
    : { name: metaToolName, arguments: { command: 'run', slug: tool.slug, params } };
}

/**
 * Example arguments that pass the tool's own validator: each manifest example in order, then the synthesized
 * ones. `valid` is false only when none passes (a pattern the synthesizer cannot satisfy, say).
 */
export function validExampleArguments(
  tool: ServedTool,
  validator: InputValidator,
): { arguments: JsonObject; source: 'manifest-example' | 'synthesized'; valid: boolean } {
  for (const example of tool.manifest.examples ?? []) {
    if (isJsonObject(example.params) && validator.validateInput(tool, example.params) === null) {
      return { arguments: structuredClone(example.params), source: 'manifest-example', valid: true };
    }
  }
  const schema = tool.manifest.input_schema;
  const synthesized = schema ? sampleValue(schema, schema) : {};
  const args = isJsonObject(synthesized) ? synthesized : {};
  return { arguments: args, source: 'synthesized', valid: validator.validateInput(tool, args) === null };
}

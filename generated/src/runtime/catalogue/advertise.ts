// How a served tool appears in tools/list: its slug as the name and its JSON Schema as the host profile allows it
// (unchanged in meaning for the default `spec` profile), and which tools the list shows at all.

import { readFileSync } from 'node:fs';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JsonObject, ServedTool } from '../shared/contracts.js';
import { argumentsFromHost, DEFAULT_HOST_PROFILE, HOST_RULES, hostInputSchema, type HostProfileName } from '../schema/host-profiles.js';
import { isManifestPending } from './catalogue-index.js';
import { namedBooleanSubschemasAsObjects, inlineRefs, inlineRefsExactly } from '../schema/schema-transform.js';
import type { ToolList } from './slug-index.js';
import { specAnnotations } from '../protocol/tool-annotations.js';
import { isJsonObject } from '../shared/json-values.js';

/** The tool-name grammar strict hosts enforce; a slug outside it is withheld from tools/list. */
export const TOOL_NAME_GRAMMAR = /^[A-Za-z0-9_-]{1,64}$/;

/** Why a slug cannot be advertised, or null when it can (for tools the generator did not see, e.g. live additions). */
export function withheldReasonFor(slug: string): string | null {
  if (TOOL_NAME_GRAMMAR.test(slug)) return null;
  if (slug.length > 64) return `longer than 64 characters (${slug.length})`;
  if (slug.length === 0) return 'empty';
  const bad = [...new Set([...slug].filter((ch) => !/[A-Za-z0-9_-]/.test(ch)))].map((ch) => JSON.stringify(ch)).join(', ');
  return `contains characters outside [A-Za-z0-9_-]: ${bad}`;
}

/** The name a tool has in tools/list: its slug, or the valid name the generator mapped a foreign slug to. */
export function advertisedName(tool: ServedTool): string {
  return tool.toolName ?? tool.slug;
}

export function isAdvertised(tool: ServedTool): boolean {
  return tool.withheldReason === null;
}

/** A tool as one host profile is shown it, with the aliases its argument keys need mapping back through. */
export interface AdvertisedForm {
  tool: Tool;
  /** Advertised top-level argument key → the manifest's key (empty unless the profile renamed keys). */
  aliases: Record<string, string>;
}

/** The default (`spec`) form; one parameter on purpose, so `tools.map(advertisedTool)` stays correct. */
export function advertisedTool(tool: ServedTool): Tool {
  return advertisedForm(tool, DEFAULT_HOST_PROFILE).tool;
}

/** The manifest's description verbatim, after a line saying so when the tool is deprecated. */
export function advertisedDescription(manifest: ServedTool['manifest']): string {
  const deprecated =
    typeof manifest.deprecated === 'string' && manifest.deprecated.trim() !== ''
      ? `Deprecated: ${manifest.deprecated.trim().replace(/\.$/, '')}.\n`
      : '';
  return `${deprecated}${manifest.description}`;
}

export function advertisedForm(tool: ServedTool, profile: HostProfileName = DEFAULT_HOST_PROFILE): AdvertisedForm {
  const manifest = tool.manifest;
  const input = hostInputSchema(manifest.input_schema, profile);
  const advertised: Tool = {
    name: advertisedName(tool),
    description: advertisedDescription(manifest),
    inputSchema: input.schema as Tool['inputSchema'],
  };
  if (typeof manifest.name === 'string') advertised.title = manifest.name;
  const output = manifest.output_schema;
  if (output !== null && output !== undefined && output.type === 'object') {
    // Hosts that reject `$ref` or boolean property schemas in inputSchema tend to reject them here too; both are
    // rewritten as the profile's input schemas are.
    const outputRefs = HOST_RULES[profile].keepsRecursiveRefs ? inlineRefsExactly(output) : inlineRefs(output).schema;
    advertised.outputSchema = outputSchemaOf(namedBooleanSubschemasAsObjects(outputRefs));
  }
  // Only what MCP defines, typed as it defines it: one odd manifest (a live catalogue is not checked) must not cost a
  // client that validates tools/list every tool.
  const annotations = specAnnotations(manifest.annotations);
  if (annotations !== undefined) advertised.annotations = annotations;
  return { tool: advertised, aliases: input.aliases };
}

/** The meta-tool as a host profile is shown it (its schema is flat already; some hosts still need keywords dropped). */
export function advertisedMetaTool(metaTool: Tool, profile: HostProfileName = DEFAULT_HOST_PROFILE): Tool {
  const input = hostInputSchema(metaTool.inputSchema as JsonObject, profile).schema;
  return input === metaTool.inputSchema ? metaTool : { ...metaTool, inputSchema: input as Tool['inputSchema'] };
}

export const TOOLS_MODES = ['auto', 'all', 'meta'] as const;
/** `all`: every advertisable tool; `meta`: the meta-tool (+ pinned); `auto`: `all` up to the threshold, then `meta`. */
export type ToolsMode = (typeof TOOLS_MODES)[number];
/**
 * The most tools hosts take in one list: VS Code refuses more than 128 tools per request and OpenAI's tools array holds
 * at most 128. Past it, `auto` lists only the meta-tool (+ pinned tools), which reaches every tool.
 */
export const DEFAULT_TOOLS_THRESHOLD = 128;

export interface ListingOptions {
  mode: ToolsMode;
  /** `auto` lists everything while the list, meta-tool included, has at most this many tools. */
  threshold: number;
  /** Slugs listed even when only the meta-tool is (exact spelling). */
  pinned: readonly string[];
  metaToolName: string;
}

/** Whether a tool can have its own entry in tools/list: a grammar-valid slug that is not the meta-tool's name. */
export function isListable(tool: ServedTool, metaToolName: string): boolean {
  return isAdvertised(tool) && advertisedName(tool) !== metaToolName;
}

/**
 * The catalogue tools tools/list shows (the meta-tool is always listed after them). Tools left out stay callable by
 * name: a direct call resolves among all advertisable tools, listed or not.
 */
export function listedCatalogueTools(tools: readonly ServedTool[], options: ListingOptions): ServedTool[] {
  const candidates = tools.filter((tool) => isListable(tool, options.metaToolName));
  const metaOnly = options.mode === 'meta' || (options.mode === 'auto' && candidates.length + 1 > options.threshold);
  if (!metaOnly) return candidates;
  const pinned = new Set(options.pinned);
  return candidates.filter((tool) => pinned.has(tool.slug) || pinned.has(advertisedName(tool)));
}

export interface ToolAdvertiser {
  /**
   * The tools/list answer: listed catalogue tools, then the meta-tool entries, in the profile's form. A catalogue tool
   * named like a meta-tool entry is left out: the entry keeps its name.
   */
  list(tools: readonly ServedTool[], metaTool: Tool | readonly Tool[]): Tool[];
  /** Arguments of a direct call to `name`, with keys the profile aliased turned back into the manifest's keys. */
  argumentsFor(list: ToolList, name: string, args: unknown): unknown;
}

/**
 * Advertised forms computed once per served tool object (a catalogue refresh brings new objects, hence new forms), so
 * tools/list costs no schema work after the first request.
 */
export function createToolAdvertiser(options: ListingOptions & { profile: HostProfileName; prepared?: PreparedForms }): ToolAdvertiser {
  const forms = new WeakMap<ServedTool, AdvertisedForm>();
  const metaForms = new WeakMap<Tool, Tool>();
  // Listing may load the prepared forms (one file for every tool); a single call's argument aliases never do.
  const formOf = (tool: ServedTool, prepared: boolean): AdvertisedForm => {
    let form = forms.get(tool);
    if (form === undefined) {
      form =
        (prepared && options.profile === DEFAULT_HOST_PROFILE ? options.prepared?.formOf(tool) : undefined) ??
        advertisedForm(tool, options.profile);
      forms.set(tool, form);
    }
    return form;
  };
  return {
    list(tools, metaTool) {
      const entries = (Array.isArray(metaTool) ? metaTool : [metaTool]) as readonly Tool[];
      const metas = entries.map((entry) => {
        let meta = metaForms.get(entry);
        if (meta === undefined) {
          meta = advertisedMetaTool(entry, options.profile);
          metaForms.set(entry, meta);
        }
        return meta;
      });
      let listed = listedCatalogueTools(tools, options);
      if (metas.length > 1) listed = listed.filter((tool) => !metas.some((meta) => meta.name === tool.slug));
      return [...listed.map((tool) => formOf(tool, true).tool), ...metas];
    },
    argumentsFor(list, name, args) {
      if (name === options.metaToolName) return args;
      const tool = list.bySlug(name);
      return tool === undefined || !isAdvertised(tool) ? args : argumentsFromHost(args, formOf(tool, false).aliases);
    },
  };
}

/** The format of `data/tools-list.json`, which the generator writes (src/pipeline/emit/advertised-list.ts) and a server reads. */
export const ADVERTISED_LIST_FORMAT = 'nexusbloom-tools-list/1';

/** The forms in a `data/tools-list.json`, or null when it is missing or not one (the server then computes them). */
export function readAdvertisedListFileSync(url: URL): AdvertisedForm[] | null {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(url, 'utf8'));
  } catch {
    return null;
  }
  if (!isJsonObject(data) || data.format !== ADVERTISED_LIST_FORMAT || data.profile !== DEFAULT_HOST_PROFILE || !Array.isArray(data.tools))
    return null;
  const wellFormed = data.tools.every(
    (form: unknown) =>
      isJsonObject(form) &&
      isJsonObject(form.tool) &&
      typeof form.tool.name === 'string' &&
      isJsonObject(form.tool.inputSchema) &&
      isJsonObject(form.aliases),
  );
  return wellFormed ? (data.tools as AdvertisedForm[]) : null;
}

/** Default-profile forms the build prepared (`data/tools-list.json`) for the package's own tools, loaded on first use. */
export interface PreparedForms {
  /**
   * The prepared form of this tool, if it is one of the tools the forms were offered for (by slug, and the very tool
   * the package pinned: tools a refresh brings are not) and the form still carries its name, title and description.
   * A pinned tool whose manifest is not read yet has the form its own build prepared, so the check does not read it.
   */
  formOf(tool: ServedTool): AdvertisedForm | undefined;
}

/** Prepared default-profile forms for `tools` (the package's own list); `load` runs on the first form asked for. */
export function offerAdvertisedForms(tools: readonly ServedTool[], load: () => readonly AdvertisedForm[] | null): PreparedForms {
  const offered = new Map(tools.map((tool) => [tool.slug, tool]));
  let loaded: ReadonlyMap<string, AdvertisedForm> | undefined;
  return {
    formOf(tool) {
      if (offered.get(tool.slug) !== tool) return undefined;
      const form = (loaded ??= new Map((load() ?? []).map((prepared) => [prepared.tool.name, prepared]))).get(tool.slug);
      if (form !== undefined && isManifestPending(tool)) return form;
      if (form === undefined || form.tool.title !== tool.manifest.name || form.tool.description !== advertisedDescription(tool.manifest))
        return undefined;
      return form;
    },
  };
}

/** The error envelope every failed call carries as structuredContent. */
export const FAILURE_ENVELOPE_SCHEMA: JsonObject = {
  type: 'object',
  description: 'Returned instead of the result when the call fails (isError: true).',
  properties: {
    success: { const: false },
    error: { type: 'string' },
    code: { type: 'string' },
    retryable: { type: 'boolean' },
    details: { type: 'object' },
  },
  required: ['success', 'error', 'code', 'retryable'],
};

const DEFINITION_KEYWORDS = ['$defs', 'definitions'] as const;

/**
 * The tool's output schema, or the error envelope. Clients (the SDK's among them) check structuredContent against
 * outputSchema even on isError results, so an envelope the schema did not allow would turn every failed call into
 * a protocol error. The tool's own schema stays intact as the first branch; its definitions move to the top so its
 * `#/$defs/...` references still resolve.
 */
export function outputSchemaOf(output: JsonObject): NonNullable<Tool['outputSchema']> {
  const result: JsonObject = { ...output };
  const wrapper: JsonObject = { type: 'object' };
  for (const keyword of ['$schema', ...DEFINITION_KEYWORDS]) {
    if (keyword in result) {
      wrapper[keyword] = result[keyword];
      delete result[keyword];
    }
  }
  wrapper.anyOf = [result, FAILURE_ENVELOPE_SCHEMA];
  return wrapper as NonNullable<Tool['outputSchema']>;
}

// Handlebars templates from `templates/`, compiled strict with no HTML escaping and only formatting helpers. The
// generator's build precompiles them (precompile-templates.ts), so a build loads Handlebars' small runtime and no
// compiler; a template whose precompiled form is missing or older than its source is compiled from the source.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type Handlebars from 'handlebars';
import { docComment, markdownCell, tsString } from './text.js';

const TEMPLATE_DIR = new URL('../../../templates/', import.meta.url);
/** Where the generator's build puts the precompiled templates: `dist/templates-compiled/` beside `dist/pipeline/`. */
export const PRECOMPILED_DIR = new URL('../../templates-compiled/', import.meta.url);
const require = createRequire(import.meta.url);

export const TEMPLATE_NAMES = [
  'tool.ts',
  'tools-index.ts',
  'types.ts',
  'names.ts',
  'client.ts',
  'bin.ts',
  'index.ts',
  'gitignore',
  'gitattributes',
  'prettierrc.json',
  'prettierignore',
  'README.md',
] as const;

export type TemplateName = (typeof TEMPLATE_NAMES)[number];

/** The options every template is compiled with, precompiled or not. */
export const COMPILE_OPTIONS = { strict: true, noEscape: true } as const;

/** A precompiled template's module: the hash of the source it was made from, and Handlebars' template spec. */
interface PrecompiledTemplate {
  sourceHash: string;
  spec: TemplateSpecification;
}

type Environment = ReturnType<typeof Handlebars.create>;
type TemplateSpecification = Parameters<Environment['template']>[0];

function withHelpers<E extends Environment>(env: E): E {
  // Catalogue strings reach code only as JSON (`{{{json x}}}`) or as escaped comments and markdown cells.
  env.registerHelper('json', (value: unknown, indent: unknown) =>
    JSON.stringify(value, null, typeof indent === 'number' ? indent : undefined),
  );
  // A string literal in generated TypeScript: JSON.stringify's, in the quotes Prettier prints (`{{{ts x}}}`).
  env.registerHelper('ts', (value: unknown) => tsString(String(value)));
  env.registerHelper('doc', (value: unknown) => docComment(String(value)));
  env.registerHelper('cell', (value: unknown) => markdownCell(String(value)));
  return env;
}

/** A template's source, LF whatever the checkout has (git on Windows with core.autocrlf writes CRLF), as for the runtime files. */
export function templateSource(name: TemplateName): string {
  return readFileSync(new URL(`${name}.hbs`, TEMPLATE_DIR), 'utf8').replace(/\r\n?/g, '\n');
}

export const sourceHash = (source: string): string => createHash('sha256').update(source).digest('hex');

/** The precompiled module's file name for a template. */
export const precompiledFile = (name: TemplateName): string => `${name}.cjs`;

let runtime: Environment | undefined;
let compiler: Environment | undefined;

/** The template made from the precompiled spec when it was made from this very source; undefined otherwise. */
function precompiled(name: TemplateName, source: string, dir: URL): HandlebarsTemplateDelegate | undefined {
  let module: PrecompiledTemplate;
  try {
    module = require(fileURLToPath(new URL(precompiledFile(name), dir))) as PrecompiledTemplate;
  } catch {
    return undefined;
  }
  if (module.sourceHash !== sourceHash(source)) return undefined;
  // Handlebars' runtime alone: the same environment as the full package's, without its compiler.
  runtime ??= withHelpers((require('handlebars/runtime') as typeof Handlebars).create());
  return runtime.template(module.spec);
}

function compiled(source: string): HandlebarsTemplateDelegate {
  // The compiler only when a template was not precompiled (a build from the sources, or an edited template).
  compiler ??= withHelpers((require('handlebars') as typeof Handlebars).create());
  return compiler.compile(source, COMPILE_OPTIONS);
}

export interface LoadedTemplate {
  template: HandlebarsTemplateDelegate;
  /** Made from the precompiled form in `dir` (not compiled from the source here). */
  precompiled: boolean;
}

/** A template, from its precompiled form in `dir` when that was made from the current source, else compiled. */
export function loadTemplate(name: TemplateName, dir: URL = PRECOMPILED_DIR): LoadedTemplate {
  const source = templateSource(name);
  const fromSpec = precompiled(name, source, dir);
  return fromSpec ? { template: fromSpec, precompiled: true } : { template: compiled(source), precompiled: false };
}

const templates = new Map<TemplateName, LoadedTemplate>();

function loaded(name: TemplateName): LoadedTemplate {
  let found = templates.get(name);
  if (!found) {
    found = loadTemplate(name);
    templates.set(name, found);
  }
  return found;
}

export function renderTemplate(name: TemplateName, view: object): string {
  return loaded(name).template(view);
}

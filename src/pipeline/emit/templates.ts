// Handlebars templates from `templates/`, compiled strict with no HTML escaping and only formatting helpers.

import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { docComment, markdownCell, tsString } from './text.js';

const TEMPLATE_DIR = new URL('../../../templates/', import.meta.url);

export type TemplateName =
  | 'tool.ts'
  | 'tools-index.ts'
  | 'types.ts'
  | 'names.ts'
  | 'client.ts'
  | 'bin.ts'
  | 'index.ts'
  | 'gitignore'
  | 'gitattributes'
  | 'prettierrc.json'
  | 'prettierignore'
  | 'README.md';

function createEnvironment(): typeof Handlebars {
  const env = Handlebars.create();
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

const environment = createEnvironment();
const compiled = new Map<TemplateName, Handlebars.TemplateDelegate>();

export function renderTemplate(name: TemplateName, view: object): string {
  let template = compiled.get(name);
  if (!template) {
    // LF whatever the checkout has (git on Windows with core.autocrlf writes CRLF), as for the runtime files.
    const source = readFileSync(new URL(`${name}.hbs`, TEMPLATE_DIR), 'utf8').replace(/\r\n?/g, '\n');
    template = environment.compile(source, { strict: true, noEscape: true });
    compiled.set(name, template);
  }
  return template(view);
}

// Prints json-schema-to-typescript's unformatted declarations as Prettier prints them (the package's settings:
// single quotes, print width 140), without a Prettier run: a small parser of the shapes that library emits, and a
// printer of Prettier's layout rules for them. Only the layout changes; literal text stays exact.

import { displayWidth as width, PRINT_WIDTH } from './text.js';

type TypeNode =
  | { kind: 'word'; text: string }
  | { kind: 'string'; raw: string }
  | { kind: 'object'; members: Member[] }
  | { kind: 'array'; element: TypeNode }
  | { kind: 'tuple'; elements: TypeNode[] }
  | { kind: 'union'; types: TypeNode[] }
  | { kind: 'intersection'; types: TypeNode[] };

interface Member {
  comments: string[];
  /** `name`, `name?`, `'quoted-name'?` or `[k: string]`, as printed before the colon (quotes decided later). */
  key: { text: string; quoted: boolean; optional: boolean; index: string | null };
  type: TypeNode;
}

type Declaration =
  { kind: 'comment'; text: string } | { kind: 'interface'; name: string; body: Member[] } | { kind: 'alias'; name: string; type: TypeNode };

/** Thrown on a shape the parser does not know: the caller then keeps the plain indentation. */
class UnknownShape extends Error {}

const TOKEN = /\s+|\/\*[\s\S]*?\*\/|"(?:[^"\\\n]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[A-Za-z_$][\w$]*|\.\.\.|[{}()[\]|&:;?,=<>]/y;

function tokenize(code: string): string[] {
  const tokens: string[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < code.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(code);
    if (match === null) throw new UnknownShape(`unexpected text at ${at}`);
    if (!/^\s/.test(match[0])) tokens.push(match[0]);
  }
  return tokens;
}

class Parser {
  private at = 0;
  constructor(private readonly tokens: string[]) {}

  private peek(): string | undefined {
    return this.tokens[this.at];
  }

  private next(): string {
    const token = this.tokens[this.at++];
    if (token === undefined) throw new UnknownShape('unexpected end');
    return token;
  }

  private expect(token: string): void {
    if (this.next() !== token) throw new UnknownShape(`expected ${token}`);
  }

  declarations(): Declaration[] {
    const out: Declaration[] = [];
    while (this.peek() !== undefined) {
      const token = this.next();
      if (token.startsWith('/*')) {
        out.push({ kind: 'comment', text: token });
        continue;
      }
      if (token !== 'export') throw new UnknownShape(`unexpected ${token}`);
      const kind = this.next();
      const name = this.next();
      if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new UnknownShape('a declaration name');
      if (kind === 'interface') out.push({ kind: 'interface', name, body: this.objectBody() });
      else if (kind === 'type') {
        this.expect('=');
        out.push({ kind: 'alias', name, type: this.type() });
      } else throw new UnknownShape(`export ${kind}`);
      if (this.peek() === ';') this.next();
    }
    return out;
  }

  private objectBody(): Member[] {
    this.expect('{');
    const members: Member[] = [];
    let comments: string[] = [];
    for (;;) {
      const token = this.next();
      if (token === '}') break;
      if (token.startsWith('/*')) {
        comments.push(token);
        continue;
      }
      let key: Member['key'];
      if (token === '[') {
        const name = this.next();
        this.expect(':');
        const keyType = this.next();
        this.expect(']');
        key = { text: `[${name}: ${keyType}]`, quoted: false, optional: false, index: name };
      } else if (/^[A-Za-z_$][\w$]*$/.test(token) || /^\d/.test(token)) key = { text: token, quoted: false, optional: false, index: null };
      else if (token.startsWith('"')) key = { text: token, quoted: true, optional: false, index: null };
      else throw new UnknownShape(`a member key ${token}`);
      if (this.peek() === '?') {
        this.next();
        key.optional = true;
      }
      this.expect(':');
      members.push({ comments, key, type: this.type() });
      comments = [];
      if (this.peek() === ';' || this.peek() === ',') this.next();
    }
    if (comments.length > 0) throw new UnknownShape('a comment after the last member');
    return members;
  }

  private type(): TypeNode {
    const types = [this.intersection()];
    while (this.peek() === '|') {
      this.next();
      types.push(this.intersection());
    }
    return types.length === 1 ? types[0]! : { kind: 'union', types };
  }

  private intersection(): TypeNode {
    const types = [this.postfix()];
    while (this.peek() === '&') {
      this.next();
      types.push(this.postfix());
    }
    return types.length === 1 ? types[0]! : { kind: 'intersection', types };
  }

  private postfix(): TypeNode {
    let node = this.primary();
    while (this.peek() === '[' && this.tokens[this.at + 1] === ']') {
      this.at += 2;
      node = { kind: 'array', element: node };
    }
    return node;
  }

  private primary(): TypeNode {
    const token = this.peek();
    if (token === '(') {
      this.next();
      const inner = this.type();
      this.expect(')');
      return inner;
    }
    if (token === '{') return { kind: 'object', members: this.objectBody() };
    if (token === '[') {
      this.next();
      const elements: TypeNode[] = [];
      while (this.peek() !== ']') {
        if (this.peek() === '...') throw new UnknownShape('a rest element');
        elements.push(this.type());
        if (this.peek() === ',') this.next();
        else if (this.peek() !== ']') throw new UnknownShape('a tuple');
      }
      this.next();
      return { kind: 'tuple', elements };
    }
    const word = this.next();
    if (word.startsWith('"')) return { kind: 'string', raw: word };
    if (/^-?\d/.test(word)) return { kind: 'word', text: word.replace(/[eE]\+?/, 'e').replace(/^(-?\d+)\.0+(?=e|$)/, '$1') };
    if (!/^[A-Za-z_$][\w$]*$/.test(word) || this.peek() === '<') throw new UnknownShape(`a type ${word}`);
    return { kind: 'word', text: word };
  }
}

/**
 * A double-quoted literal as Prettier prints it with singleQuote: single quotes unless the text holds more single
 * than double quotes; only the quotes' escapes change, every other escape stays as it was.
 */
export function requoted(raw: string): string {
  const content = raw.slice(1, -1);
  const unescaped = content.replace(/\\[\s\S]/g, (escape) => (escape === '\\"' || escape === "\\'" ? escape[1]! : ''));
  const doubles = (unescaped.match(/"/g) ?? []).length;
  const singles = (unescaped.match(/'/g) ?? []).length;
  const quote = singles > doubles ? '"' : "'";
  const body = content.replace(/\\([\s\S])|(["'])/g, (match, escaped: string | undefined, bare: string | undefined) => {
    if (escaped !== undefined) return escaped === '"' || escaped === "'" ? (escaped === quote ? match : escaped) : match;
    return bare === quote ? `\\${bare}` : bare!;
  });
  return `${quote}${body}${quote}`;
}

const isObject = (node: TypeNode): boolean => node.kind === 'object';
const isNull = (node: TypeNode): boolean => node.kind === 'word' && (node.text === 'null' || node.text === 'undefined');

/** Prettier keeps `{…} | null` together, the object broken open, rather than one member a line. */
const hugs = (node: TypeNode & { kind: 'union' }): boolean =>
  node.types.some(isObject) && node.types.filter(isNull).length === node.types.length - 1;

/** The type on one line, or null when it cannot be (a non-empty object always breaks open, as the source has it). */
function flat(node: TypeNode): string | null {
  switch (node.kind) {
    case 'word':
      return node.text;
    case 'string':
      return requoted(node.raw);
    case 'object':
      return node.members.length === 0 ? '{}' : null;
    case 'array': {
      const element = flat(node.element);
      if (element === null) return null;
      return node.element.kind === 'union' || node.element.kind === 'intersection' ? `(${element})[]` : `${element}[]`;
    }
    case 'tuple': {
      const elements = node.elements.map(flat);
      return elements.includes(null) ? null : `[${elements.join(', ')}]`;
    }
    case 'union':
    case 'intersection': {
      // A union inside a union keeps its parentheses, as Prettier keeps them.
      const parts = node.types.map((type) => {
        const part = flat(type);
        // An intersection inside an intersection keeps them too; an intersection needs none in a union.
        const parenthesized = type.kind === 'union' || (node.kind === 'intersection' && type.kind === 'intersection');
        return part !== null && parenthesized ? `(${part})` : part;
      });
      return parts.includes(null) ? null : parts.join(node.kind === 'union' ? ' | ' : ' & ');
    }
  }
}

class Printer {
  /**
   * `node` printed where the current line already holds `column` columns and will end with `suffix`, its broken
   * parts indented from `indent`. In a member or an alias a breaking union starts on the next line (`lead`).
   */
  type(node: TypeNode, indent: number, column: number, suffix: string, place: 'member' | 'alias' | 'inner'): string {
    const one = flat(node);
    if (one !== null && column + width(one) + width(suffix) <= PRINT_WIDTH) return one;
    switch (node.kind) {
      case 'word':
      case 'string':
        // An alias's long name moves to the next line when it fits there; a member's stays.
        if (place === 'alias' && indent + 2 + width(one!) + width(suffix) <= PRINT_WIDTH) return `\n${' '.repeat(indent + 2)}${one!}`;
        return one!;
      case 'tuple':
        if (one === null) throw new UnknownShape('a tuple that breaks');
        return one;
      case 'object':
        return this.object(node.members, indent);
      case 'array': {
        if (node.element.kind === 'union' && !hugs(node.element)) {
          const pad = ' '.repeat(indent + 2);
          // The parentheses open first, the union flat between them if it fits there; else one member a line.
          const inner = flat(node.element);
          if (inner !== null && indent + 2 + width(inner) <= PRINT_WIDTH) return `(\n${pad}${inner}\n${' '.repeat(indent)})[]`;
          const lines = node.element.types.map((type) => `${pad}| ${this.type(type, indent + 4, indent + 4, '', 'inner')}`);
          return `(\n${lines.join('\n')}\n${' '.repeat(indent)})[]`;
        }
        if (node.element.kind === 'union' || node.element.kind === 'intersection') throw new UnknownShape('a parenthesized array');
        return `${this.type(node.element, indent, column, `[]${suffix}`, 'inner')}[]`;
      }
      case 'union': {
        if (hugs(node))
          return node.types.map((type) => (isObject(type) ? this.type(type, indent, column, '', 'inner') : flat(type))).join(' | ');
        if (one !== null && place !== 'inner') {
          // A `Name | null` member stays on its line however long; any other union moves to the next line when it
          // fits there whole.
          const nonNull = node.types.filter((type) => !isNull(type));
          if (place === 'member' && nonNull.length === 1 && nonNull[0]!.kind === 'word') return one;
          if (indent + 2 + width(one) + width(suffix) <= PRINT_WIDTH) return `\n${' '.repeat(indent + 2)}${one}`;
        }
        if (node.types.some((type) => type.kind === 'union')) throw new UnknownShape('a union in a union');
        const base = place === 'inner' ? indent : indent + 2;
        const pad = ' '.repeat(base);
        const lines = node.types.map((type) => `${pad}| ${this.type(type, base + 2, base + 2, '', 'inner')}`);
        if (place === 'inner') return lines.join('\n').slice(pad.length);
        return `\n${lines.join('\n')}`;
      }
      case 'intersection': {
        // Prettier's layout: two non-objects side by side break onto a new line one level in (` &\n  B`); an object
        // beside anything stays on the line, joined by ` & `, and only breaks open.
        if (node.types.some((type) => type.kind === 'union')) throw new UnknownShape('a union in an intersection');
        let out = '';
        let wasIndented = false;
        node.types.forEach((type, index) => {
          const lastLine = out.slice(out.lastIndexOf('\n') + 1);
          const at = out.includes('\n') ? width(lastLine) : column + width(out);
          const part = (level: number, from: number): string =>
            type.kind === 'intersection'
              ? `(${this.type(type, level, from + 1, ')', 'inner')})`
              : this.type(type, level, from, '', 'inner');
          if (index === 0) out = part(indent, at);
          else {
            const before = node.types[index - 1]!;
            if (!isObject(before) && !isObject(type)) out += ` &\n${' '.repeat(indent + 2)}${part(indent + 2, indent + 2)}`;
            else if (isObject(before) && isObject(type)) out += ` & ${part(wasIndented ? indent + 2 : indent, at + 3)}`;
            else {
              if (index > 1) wasIndented = true;
              out += ` & ${part(index > 1 ? indent + 2 : indent, at + 3)}`;
            }
          }
        });
        return out;
      }
    }
  }

  object(members: Member[], indent: number): string {
    if (members.length === 0) return '{}';
    const canUnquote = members.every((member) => !member.key.quoted || isEs5Identifier(JSON.parse(member.key.text) as string));
    const lines = members.map((member) => this.member(member, indent + 2, canUnquote));
    return `{\n${lines.join('\n')}\n${' '.repeat(indent)}}`;
  }

  member(member: Member, indent: number, unquote: boolean): string {
    const pad = ' '.repeat(indent);
    const comments = member.comments.map((comment) => `${printComment(comment, indent)}\n`).join('');
    const { key } = member;
    const name = key.quoted ? (unquote ? (JSON.parse(key.text) as string) : requoted(key.text)) : key.text;
    const head = `${pad}${name}${key.optional ? '?' : ''}:`;
    const printed = this.type(member.type, indent, width(head) + 1, ';', 'member');
    return `${comments}${head}${printed.startsWith('\n') ? '' : ' '}${printed};`;
  }

  declaration(declaration: Declaration): string {
    switch (declaration.kind) {
      case 'comment':
        return printComment(declaration.text, 0);
      case 'interface':
        return `export interface ${declaration.name} ${this.object(declaration.body, 0)}`;
      case 'alias': {
        const head = `export type ${declaration.name} =`;
        const printed = this.type(declaration.type, 0, width(head) + 1, ';', 'alias');
        return `${head}${printed.startsWith('\n') ? '' : ' '}${printed};`;
      }
    }
  }
}

/** ES5 identifier names, which Prettier prints unquoted when no key beside them needs quotes. */
const isEs5Identifier = (name: string): boolean => /^[$_\p{L}\p{Nl}][$_\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}\u200c\u200d]*$/u.test(name);

/** A `/** … *\/` comment indented as Prettier indents one whose lines all start with `*`. */
function printComment(comment: string, indent: number): string {
  const lines = comment.split('\n');
  const pad = ' '.repeat(indent);
  if (lines.length > 1 && !lines.slice(1).every((line) => line.trimStart().startsWith('*'))) throw new UnknownShape('a comment');
  return lines.map((line, index) => (index === 0 ? `${pad}${line.trim()}` : `${pad} ${line.trim()}`)).join('\n');
}

/** The declarations printed as Prettier would, or null for a shape this printer does not know. */
export function prettierDeclarations(code: string): string | null {
  try {
    const declarations = new Parser(tokenize(code)).declarations();
    const printer = new Printer();
    return `${declarations.map((declaration) => printer.declaration(declaration)).join('\n')}\n`;
  } catch (error) {
    if (error instanceof UnknownShape) return null;
    throw error;
  }
}

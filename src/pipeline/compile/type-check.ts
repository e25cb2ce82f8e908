// The compile stage's work with the compiler: type-checks the written package and emits `dist/` with the TypeScript
// compiler that ts-morph bundles, incrementally (build info kept in the build cache) so a rebuild rechecks only what
// changed, and bundles the bin into one file (dev/bundle-bin.ts) meanwhile; or writes again, without a type-check, the
// modules whose changes a type-check does not read. Loaded only when one of these is to be done (see compile-package.ts).

import { existsSync, readFileSync } from 'node:fs';
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { getLibFiles } from '@ts-morph/common';
import { ts } from 'ts-morph';
import { binBundle, writeBinBundle } from '../../runtime/dev/bundle-bin.js';
import { cacheDir } from '../cache/build-cache.js';
import { TSCONFIG } from '../emit/package-json.js';
import { PipelineError, type Problem } from '../problems.js';
import { generatorModules, packageNameOf, type GeneratorModules } from './generator-modules.js';
import type { PrebuiltRuntime } from './runtime-prebuilt.js';
import { splicedDeclarations } from './spliced-declarations.js';
import { transpileModules, writeTranspiled, type TranspiledFile } from './transpile-modules.js';

function compilerOptions(root: string, incremental: boolean, modules: GeneratorModules): ts.CompilerOptions {
  const { options, errors } = ts.convertCompilerOptionsFromJson(TSCONFIG.compilerOptions, root);
  if (errors.length > 0) throw new PipelineError(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n'));
  return {
    ...options,
    rootDir: join(root, 'src'),
    outDir: join(root, 'dist'),
    typeRoots: [join(root, 'node_modules', '@types'), modules.nodeTypesRoot],
    ...(incremental ? { incremental: true, tsBuildInfoFile: join(cacheDir(root), 'tsbuildinfo.json') } : {}),
  };
}

// ts-morph ships TypeScript's lib files in memory, not on disk: serve them from a folder that exists only here.
const LIB_DIR = '/node_modules/typescript/lib';
let libTexts: Map<string, string> | undefined;

function withLibFiles(host: ts.CompilerHost): void {
  libTexts ??= new Map(getLibFiles().map((file) => [`${LIB_DIR}/${file.fileName}`, file.text]));
  const libs = libTexts;
  const { getSourceFile, fileExists, readFile } = host;
  host.getDefaultLibLocation = () => LIB_DIR;
  host.getDefaultLibFileName = (options) => `${LIB_DIR}/${ts.getDefaultLibFileName(options)}`;
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const text = libs.get(fileName);
    if (text === undefined) return getSourceFile.call(host, fileName, languageVersion, ...rest);
    const sourceFile = ts.createSourceFile(fileName, text, languageVersion);
    // The incremental builder compares files by version; lib files never change within one generator.
    (sourceFile as ts.SourceFile & { version: string }).version = ts.version;
    return sourceFile;
  };
  host.fileExists = (fileName) => libs.has(fileName) || fileExists.call(host, fileName);
  host.readFile = (fileName) => libs.get(fileName) ?? readFile.call(host, fileName);
}

function withGeneratorFallback(host: ts.CompilerHost, options: ts.CompilerOptions, modules: GeneratorModules): void {
  const cache = ts.createModuleResolutionCache(
    host.getCurrentDirectory(),
    (f) => (host.useCaseSensitiveFileNames() ? f : f.toLowerCase()),
    options,
  );
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, _options, containingSourceFile) =>
    literals.map((literal) => {
      const mode = ts.getModeForUsageLocation(containingSourceFile, literal, options);
      const own = ts.resolveModuleName(literal.text, containingFile, options, host, cache, redirectedReference, mode);
      const folder = own.resolvedModule ? undefined : modules.folders.get(packageNameOf(literal.text) ?? '');
      if (folder === undefined) return own;
      // Resolved as from a file beside that node_modules folder: the lookup then starts in it.
      return ts.resolveModuleName(literal.text, join(folder, '..', 'package-anchor.ts'), options, host, cache, redirectedReference, mode);
    });
}

function describe(root: string, diagnostic: ts.Diagnostic): Problem {
  const file = diagnostic.file ? diagnostic.file.fileName.slice(root.length + 1) : '';
  const line =
    diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
  return {
    severity: 'error',
    slug: null,
    pointer: `${file}${line ? `:${line}` : ''}`,
    message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '),
  };
}

/**
 * Serves the prebuilt runtime's declarations at `src/runtime/**\/*.d.ts` of the package, and the constant entry
 * modules' at `src/<entry>.d.ts`, and hides their `.ts` sources, so imports of them resolve to the declarations and
 * every path the compiler writes into emitted declarations stays inside the package.
 */
function withPrebuiltDeclarations(host: ts.CompilerHost, root: string, prebuilt: PrebuiltRuntime): void {
  const src = `${join(root, 'src').split('\\').join('/')}/`;
  const runtimeSrc = `${src}runtime/`;
  const entries = new Map(
    Object.keys(prebuilt.entries).map((entry) => [
      `${src}${entry.slice(0, -'.ts'.length)}.d.ts`,
      join(prebuilt.dir, 'entries', `${entry.slice(0, -'.ts'.length)}.d.ts`),
    ]),
  );
  const hiddenEntries = new Set(Object.keys(prebuilt.entries).map((entry) => `${src}${entry}`));
  const declarationOf = (fileName: string): string | undefined => {
    if (fileName.startsWith(runtimeSrc) && fileName.endsWith('.d.ts'))
      return join(prebuilt.dir, 'runtime', fileName.slice(runtimeSrc.length));
    return entries.get(fileName);
  };
  const hidden = (fileName: string): boolean =>
    hiddenEntries.has(fileName) || (fileName.startsWith(runtimeSrc) && /\.[cm]?tsx?$/.test(fileName));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (fileName) => {
    const declaration = declarationOf(fileName);
    if (declaration !== undefined) return existsSync(declaration);
    return !hidden(fileName) && fileExists.call(host, fileName);
  };
  host.readFile = (fileName) => {
    const declaration = declarationOf(fileName);
    if (declaration !== undefined) return existsSync(declaration) ? readFileSync(declaration, 'utf8') : undefined;
    return hidden(fileName) ? undefined : readFile.call(host, fileName);
  };
  host.getSourceFile = (fileName, languageVersion, ...rest) => {
    const declaration = declarationOf(fileName);
    if (declaration === undefined) return getSourceFile.call(host, fileName, languageVersion, ...rest);
    const sourceFile = ts.createSourceFile(fileName, readFileSync(declaration, 'utf8'), languageVersion);
    // One fingerprint, one set of declarations: the incremental builder's version of each.
    (sourceFile as ts.SourceFile & { version: string }).version = `${prebuilt.fingerprint}:${fileName.slice(src.length)}`;
    return sourceFile;
  };
}

export interface TypeCheckOptions {
  /** Check against and copy this prebuilt runtime instead of checking and emitting `src/runtime/`. */
  prebuilt: PrebuiltRuntime | null;
  /** Keep build info in the build cache so a rebuild rechecks only what changed. */
  incremental: boolean;
  /** Also bundle `dist/bin.js`, written only once the package type-checks. */
  bundle: boolean;
}

/**
 * Type-checks the sources under `root/src` and writes `root/dist`: declarations by the compiler, the runtime's
 * JavaScript by the compiler (or copied from the prebuilt runtime), the package's own modules' JavaScript by esbuild,
 * which works meanwhile, as does the bin's bundling. Throws the type errors, with nothing written. Returns how many files.
 */
export async function typeCheckAndEmit(
  root: string,
  { prebuilt, incremental, bundle }: TypeCheckOptions,
): Promise<{ files: number; bundled: string[] }> {
  const modules = generatorModules();
  const options = compilerOptions(root, incremental, modules);
  const runtimeSrc = `${join(root, 'src', 'runtime').split('\\').join('/')}/`;
  const sources = ts.sys.readDirectory(join(root, 'src'), ['.ts'], ['**/*.d.ts'], ['**/*']);
  const own = sources.filter((file) => !file.startsWith(runtimeSrc));
  // What is checked here: all of it, or, with the prebuilt runtime, what it does not hold.
  const constant = new Set(prebuilt ? Object.keys(prebuilt.entries).map((entry) => join(root, 'src', entry).split('\\').join('/')) : []);
  const rootNames = prebuilt ? own.filter((file) => !constant.has(file)) : sources;
  const transpiling = transpileModules(root, own);
  const bundling = bundle ? binBundle(root, modules.nodePaths) : Promise.resolve(null);
  try {
    const host = ts.createIncrementalCompilerHost(options);
    // As tsc itself parses: JSDoc only where it can change a type error (@see, @link), not the tool docs' prose.
    host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors;
    withLibFiles(host);
    if (prebuilt) withPrebuiltDeclarations(host, root, prebuilt);
    withGeneratorFallback(host, options, modules);
    const program = ts.createIncrementalProgram({ rootNames, options, host });
    const diagnostics = [
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program.getSyntacticDiagnostics(),
      ...program.getSemanticDiagnostics(),
    ];
    if (diagnostics.length > 0) {
      const problems = diagnostics.slice(0, 50).map((d) => describe(root, d));
      throw new PipelineError(
        `the generated package does not type-check (${diagnostics.length} errors); first: ${problems[0]!.pointer} ${problems[0]!.message}`,
        problems,
      );
    }
    // The package's own modules: JavaScript from esbuild, declarations spliced from their text where they need no
    // inference (spliced-declarations.ts); the compiler writes the rest, and the runtime's JavaScript when it is here.
    const spliced: TranspiledFile[] = [];
    const emitted = program.getProgram();
    for (const file of rootNames) {
      const sourceFile = emitted.getSourceFile(file)!;
      const isOwn = !file.startsWith(runtimeSrc);
      const declarations = isOwn ? splicedDeclarations(sourceFile) : null;
      if (declarations !== null) {
        spliced.push({ path: join(root, 'dist', `${file.slice(root.length + '/src/'.length, -'.ts'.length)}.d.ts`), text: declarations });
        continue;
      }
      const result = emitted.emit(sourceFile, undefined, undefined, isOwn);
      if (result.diagnostics.length > 0) throw new PipelineError(`emit failed: ${describe(root, result.diagnostics[0]!).message}`);
    }
    // The build info (what the next build need not recheck), which the builder writes at the end of its own full emit.
    if (incremental) (program as ts.EmitAndSemanticDiagnosticsBuilderProgram & { emitBuildInfo?: () => ts.EmitResult }).emitBuildInfo?.();
    await writeTranspiled(spliced);
    await writeTranspiled(await transpiling);
    if (prebuilt) {
      await cp(join(prebuilt.dir, 'runtime'), join(root, 'dist', 'runtime'), { recursive: true });
      for (const entry of Object.keys(prebuilt.entries)) {
        const declarations = `${entry.slice(0, -'.ts'.length)}.d.ts`;
        await cp(join(prebuilt.dir, 'entries', declarations), join(root, 'dist', declarations));
      }
    }
    const bin = await bundling;
    if (bin) await writeBinBundle(bin);
    return { files: rootNames.length + constant.size, bundled: bin?.sources ?? [] };
  } catch (error) {
    // Settled before the failure is reported: no esbuild result arrives after it.
    await Promise.allSettled([transpiling, bundling]);
    throw error;
  }
}

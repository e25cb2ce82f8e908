// The compile stage: type-checks the written package and emits `dist/` with the TypeScript compiler that ts-morph
// bundles, incrementally (build info kept in the build cache) so a rebuild rechecks only what changed; then bundles
// the bin into one file (dev/bundle-bin.ts). Imports and Node's types that do not resolve from the package (its own
// `npm install` may not have run yet) resolve from wherever the generator's dependencies are installed
// (generator-modules.ts).

import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getLibFiles } from '@ts-morph/common';
import { ts } from 'ts-morph';
import { bundleBin } from '../../runtime/dev/bundle-bin.js';
import { cacheDir } from '../cache/build-cache.js';
import { TSCONFIG } from '../emit/package-json.js';
import { PipelineError, type Problem } from '../problems.js';
import { generatorModules, packageNameOf, type GeneratorModules } from './generator-modules.js';

export interface CompileSummary {
  files: number;
}

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

/** Whether the build cache's folder can be made: where it cannot (node_modules read-only, or a file), compile in full. */
async function cacheFolderUsable(root: string): Promise<boolean> {
  try {
    await mkdir(cacheDir(root), { recursive: true });
    return true;
  } catch {
    return false;
  }
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
  const cache = ts.createModuleResolutionCache(host.getCurrentDirectory(), (f) => (host.useCaseSensitiveFileNames() ? f : f.toLowerCase()), options);
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
  const line = diagnostic.file && diagnostic.start !== undefined ? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1 : 0;
  return { severity: 'error', slug: null, pointer: `${file}${line ? `:${line}` : ''}`, message: ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ') };
}

export async function compilePackage(outDir: string): Promise<CompileSummary> {
  const root = resolve(outDir);
  const modules = generatorModules();
  const options = compilerOptions(root, await cacheFolderUsable(root), modules);
  const host = ts.createIncrementalCompilerHost(options);
  withLibFiles(host);
  withGeneratorFallback(host, options, modules);
  const rootNames = ts.sys.readDirectory(join(root, 'src'), ['.ts'], ['**/*.d.ts'], ['**/*']);
  const program = ts.createIncrementalProgram({ rootNames, options, host });
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...program.getSyntacticDiagnostics(),
    ...program.getSemanticDiagnostics(),
  ];
  if (diagnostics.length > 0) {
    const problems = diagnostics.slice(0, 50).map((d) => describe(root, d));
    throw new PipelineError(`the generated package does not type-check (${diagnostics.length} errors); first: ${problems[0]!.pointer} ${problems[0]!.message}`, problems);
  }
  const emitted = program.emit();
  if (emitted.diagnostics.length > 0) throw new PipelineError(`emit failed: ${describe(root, emitted.diagnostics[0]!).message}`);
  await bundleBin(root, modules.nodePaths);
  return { files: rootNames.length };
}

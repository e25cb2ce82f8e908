// The compile stage: type-checks the written package with ts-morph and emits `dist/`, resolving the runtime's
// dependencies from the generator's own node_modules so the package compiles before its own `npm install`.

import { chmod } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project, ts } from 'ts-morph';
import { TSCONFIG } from '../emit/package-json.js';
import { PipelineError, type Problem } from '../problems.js';

const GENERATOR_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));
const GENERATOR_ANCHOR = fileURLToPath(new URL('../../../package-anchor.ts', import.meta.url));

export interface CompileSummary {
  files: number;
}

export async function compilePackage(outDir: string): Promise<CompileSummary> {
  const root = resolve(outDir);
  const { options, errors } = ts.convertCompilerOptionsFromJson(TSCONFIG.compilerOptions, root);
  if (errors.length > 0) throw new PipelineError(ts.flattenDiagnosticMessageText(errors[0]!.messageText, '\n'));
  const project = new Project({
    compilerOptions: {
      ...options,
      // ts-morph's host does not report the package.json "type" scope, so under NodeNext every file would be taken
      // for CommonJS. ESNext modules with bundler resolution check the same imports and emit the same ESM.
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      rootDir: join(root, 'src'),
      outDir: join(root, 'dist'),
      typeRoots: [join(root, 'node_modules', '@types'), join(GENERATOR_MODULES, '@types')],
    },
    skipAddingFilesFromTsConfig: true,
    // The package's own node_modules may not exist yet: what does not resolve from it resolves from the generator's.
    resolutionHost: (host, getOptions) => ({
      resolveModuleNames: (moduleNames, containingFile) =>
        moduleNames.map((name) => {
          const options = getOptions();
          const own = ts.resolveModuleName(name, containingFile, options, host);
          return (own.resolvedModule ?? ts.resolveModuleName(name, GENERATOR_ANCHOR, options, host).resolvedModule) as ts.ResolvedModuleFull | undefined as ts.ResolvedModule;
        }),
    }),
  });
  project.addSourceFilesAtPaths(join(root, 'src', '**', '*.ts'));
  const diagnostics = project.getPreEmitDiagnostics();
  if (diagnostics.length > 0) {
    const problems: Problem[] = diagnostics.slice(0, 50).map((d) => {
      const file = d.getSourceFile()?.getFilePath().slice(root.length + 1) ?? '';
      const line = d.getLineNumber();
      const text = ts.flattenDiagnosticMessageText(d.compilerObject.messageText, ' ');
      return { severity: 'error', slug: null, pointer: `${file}${line ? `:${line}` : ''}`, message: text };
    });
    throw new PipelineError(`the generated package does not type-check (${diagnostics.length} errors); first: ${problems[0]!.pointer} ${problems[0]!.message}`, problems);
  }
  const result = await project.emit();
  const emitDiagnostics = result.getDiagnostics();
  if (emitDiagnostics.length > 0) throw new PipelineError(`emit failed: ${emitDiagnostics[0]!.getMessageText().toString()}`);
  await chmod(join(root, 'dist', 'bin.js'), 0o755);
  return { files: project.getSourceFiles().length };
}

#!/usr/bin/env node
import module from 'node:module'

// V8's code cache for every module the generator loads (Node 22.1 and later; Node 20 has no such function): a build
// after the first one compiles none of them again. The cache lives in the OS temp folder, keyed by file content.
module.enableCompileCache?.()

// oclif checks the running Node against its own engines field as it is imported, loading semver to do so: some 20 ms
// of every command. The generator's own engines field (>=20) is the stricter one, and the package manager checks it.
process.env.OCLIF_DISABLE_ENGINE_WARNING ??= 'true'
const {execute} = await import('@oclif/core')

await execute({dir: import.meta.url})

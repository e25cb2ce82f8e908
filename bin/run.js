#!/usr/bin/env node
import module from 'node:module'
import {execute} from '@oclif/core'

// V8's code cache for every module the generator loads (Node 22.1 and later; Node 20 has no such function): a build
// after the first one compiles none of them again. The cache lives in the OS temp folder, keyed by file content.
module.enableCompileCache?.()

await execute({dir: import.meta.url})

// Reads the optional generator config file: names and package options, NexusBloom defaults for the rest.

import { readFile } from 'node:fs/promises';
import type { ConfigOverrides } from '../pipeline/config.js';
import { unreadableReason } from '../pipeline/source/bundle-source.js';
import { withoutByteOrderMark } from '../runtime/json-text.js';
import { policyDefaultsProblems, type PolicyDefaults } from '../runtime/policy/index.js';

const KNOWN_KEYS = new Set(['packageName', 'packageVersion', 'serverName', 'productName', 'metaToolName', 'uriScheme', 'envPrefix', 'defaultApiUrl', 'description', 'registryName', 'toolNames']);
const TOOL_NAMES_MODES = ['withheld', 'sanitize'];

export async function loadConfigFile(path: string): Promise<ConfigOverrides> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read config ${path}: ${unreadableReason(error)}`);
  }
  let parsed: unknown;
  try {
    // As for a bundle: editors on Windows save JSON with a byte order mark.
    parsed = JSON.parse(withoutByteOrderMark(text)) as unknown;
  } catch (error) {
    throw new Error(`config ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error(`config ${path} must be a JSON object`);
  const out: Record<string, string> & { policy?: PolicyDefaults } = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'policy') {
      // The tool policy the server applies unless its environment overrides it (see src/runtime/policy/).
      const problems = policyDefaultsProblems(value);
      if (problems.length > 0) throw new Error(`config ${path}: ${problems.join('; ')}`);
      out.policy = value as PolicyDefaults;
      continue;
    }
    if (!KNOWN_KEYS.has(key)) throw new Error(`config ${path}: unknown option ${JSON.stringify(key)} (known: ${[...KNOWN_KEYS, 'policy'].join(', ')})`);
    if (typeof value !== 'string' || value === '') throw new Error(`config ${path}: ${key} must be a non-empty string`);
    if (key === 'toolNames' && !TOOL_NAMES_MODES.includes(value)) {
      throw new Error(`config ${path}: toolNames must be "withheld" (slugs outside the tool-name grammar stay out of tools/list) or "sanitize" (listed under a valid name), not ${JSON.stringify(value)}`);
    }
    out[key] = value;
  }
  return out;
}

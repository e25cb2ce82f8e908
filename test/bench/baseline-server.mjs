#!/usr/bin/env node
// The benchmark's yardstick: the least an MCP server over a catalogue bundle can be. The SDK's low-level Server
// with every tool's raw JSON Schemas, tools/list, and tools/call POSTed to the API as is (no validation, no
// meta-tool, no resources). Plain JS so that its start-up is node's, not a TypeScript loader's.
//
// Usage: NEXUSBLOOM_API_URL=http://127.0.0.1:4010/api node test/bench/baseline-server.mjs BUNDLE.json

import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const bundlePath = process.argv[2];
if (bundlePath === undefined) {
  process.stderr.write('usage: baseline-server.mjs BUNDLE.json\n');
  process.exit(2);
}
const apiUrl = (process.env.NEXUSBLOOM_API_URL ?? 'http://127.0.0.1:4010/api').replace(/\/+$/, '');
const bundle = JSON.parse(readFileSync(bundlePath, 'utf8'));

const tools = bundle.tools.map((manifest) => {
  const tool = {
    name: manifest.slug,
    title: manifest.name,
    description: manifest.description,
    inputSchema: manifest.input_schema ?? { type: 'object', properties: {} },
  };
  if (manifest.output_schema?.type === 'object') tool.outputSchema = manifest.output_schema;
  if (manifest.annotations) tool.annotations = manifest.annotations;
  return tool;
});

const server = new Server({ name: 'baseline', version: '0.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));

server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const { name, arguments: args } = request.params;
  try {
    const response = await fetch(`${apiUrl}/tools/${encodeURIComponent(name)}/run`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ params: args ?? {} }),
    });
    const body = await response.json();
    if (!response.ok || body?.success !== true) return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
    const text = JSON.stringify(body.result);
    return body.result !== null && typeof body.result === 'object' && !Array.isArray(body.result)
      ? { content: [{ type: 'text', text }], structuredContent: body.result }
      : { content: [{ type: 'text', text }] };
  } catch (error) {
    return { isError: true, content: [{ type: 'text', text: String(error) }] };
  }
});

await server.connect(new StdioServerTransport());

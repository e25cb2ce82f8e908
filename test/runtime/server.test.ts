import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  ResourceListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { createServer } from '../../src/runtime/transport/server.js';
import type { ServedCatalogueFile } from '../../src/runtime/shared/contracts.js';
import { captureLog, manifest, sendJson, servedTool, startHttp, testNames } from './core-fixtures.js';

const catalogue: ServedCatalogueFile = {
  format: 'nexusbloom-served-catalogue/1',
  tools: [
    servedTool(
      manifest({
        slug: 'data-generator',
        name: 'Data Generator',
        description: 'Generates fake rows.',
        input_schema: { type: 'object', properties: { count: { type: 'integer', minimum: 1 } } },
      }),
    ),
    servedTool(
      manifest({
        slug: 'env-validator',
        name: 'Env Validator',
        description: 'Validates a .env file.',
        input_schema: { type: 'object', required: ['env_content'], properties: { env_content: { type: 'string' } } },
        output_schema: { type: 'object', properties: { valid: { type: 'boolean' } } },
        annotations: { readOnlyHint: true },
      }),
    ),
    servedTool(manifest({ slug: 'slash/tool', description: 'Has a slash.' }), 'contains characters outside [A-Za-z0-9_-]: "/"'),
  ],
};

async function connect(env: Record<string, string>, served: ServedCatalogueFile = catalogue) {
  const { log, lines } = captureLog();
  const created = createServer({ names: testNames, catalogue: served, env, log });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await created.server.connect(serverTransport);
  await client.connect(clientTransport);
  return {
    client,
    created,
    lines,
    close: async () => {
      await client.close();
      await created.close();
    },
  };
}

/** The live API's listing entry for a tool with no schema and no source. */
function listedEntry(entry: { slug: string; version: string }) {
  return { ...entry, name: entry.slug, description: 'd', category: 'c', tags: [], has_schema: false, has_source: false };
}

function api() {
  return startHttp((req, res) => {
    if (req.url === '/api/tools/env-validator/run') return sendJson(res, 200, { success: true, result: { valid: true }, duration_ms: 2 });
    if (req.url === '/api/tools/data-generator/run')
      return sendJson(res, 200, { success: true, result: { rows: JSON.parse(req.body).params.count }, duration_ms: 2 });
    return sendJson(res, 404, { success: false, error: 'unknown tool', code: 'TOOL_NOT_FOUND', retryable: false });
  });
}

test('initialize carries instructions and capabilities; withheld slugs are reported once', async () => {
  const session = await connect({});
  try {
    const caps = session.client.getServerCapabilities();
    assert.deepEqual(caps?.tools, { listChanged: true });
    for (const cap of ['resources', 'prompts', 'completions', 'logging'] as const) assert.ok(caps?.[cap], cap);
    assert.deepEqual(session.client.getServerVersion(), { name: 'nexusbloom', title: 'NexusBloom', version: '1.2.3' });
    assert.match(session.client.getInstructions() ?? '', /"command":"search"/);
    const withheldLines = session.lines.filter((line) => line.includes('withheld'));
    assert.equal(withheldLines.length, 1);
    assert.match(withheldLines[0] ?? '', /"slash\/tool" \(contains characters outside/);
    assert.ok(
      session.lines.every((line) => !line.includes('WARNING')),
      'no local-execution warning in remote mode',
    );
  } finally {
    await session.close();
  }
});

test('tools/list advertises real schemas plus the meta-tool, never withheld slugs', async () => {
  const session = await connect({});
  try {
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['data-generator', 'env-validator', 'nexusbloom'],
    );
    const env = tools.find((t) => t.name === 'env-validator');
    assert.deepEqual(env?.inputSchema, catalogue.tools[1]?.manifest.input_schema);
    assert.equal(env?.title, 'Env Validator');
    assert.deepEqual(env?.annotations, { readOnlyHint: true });
  } finally {
    await session.close();
  }
});

test('direct calls reach the API; invalid ones cost no request', async () => {
  const http = await api();
  const session = await connect({ NEXUSBLOOM_API_URL: http.url });
  try {
    const ok = (await session.client.callTool({ name: 'env-validator', arguments: { env_content: 'DEBUG=true' } })) as CallToolResult;
    assert.notEqual(ok.isError, true, JSON.stringify(ok));
    assert.deepEqual(ok.structuredContent, { valid: true });
    assert.equal(http.requests.length, 1);
    assert.deepEqual(JSON.parse(http.requests[0]?.body ?? ''), { params: { env_content: 'DEBUG=true' } });

    const bad = (await session.client.callTool({ name: 'env-validator', arguments: {} })) as CallToolResult;
    assert.equal(bad.isError, true);
    const text = (bad.content[0] as { text: string }).text;
    assert.match(text, /VALIDATION_ERROR/);
    assert.match(text, /env_content/);
    assert.equal(http.requests.length, 1);
  } finally {
    await session.close();
    await http.close();
  }
});

test("an in-process client's undefined members are dropped as JSON would drop them, directly and through the meta-tool", async () => {
  // A map-typed input: every entry must be a string, so an entry left undefined fails validation unless it is dropped.
  const mapTool = servedTool(
    manifest({
      slug: 'query-builder',
      input_schema: {
        type: 'object',
        required: ['params'],
        properties: { params: { type: 'object', additionalProperties: { type: 'string' } } },
      },
    }),
  );
  const http = await startHttp((_req, res) => sendJson(res, 200, { success: true, result: { ok: true } }));
  const session = await connect({ NEXUSBLOOM_API_URL: http.url }, { format: catalogue.format, tools: [mapTool] });
  try {
    // The in-memory transport hands objects over as they are, undefined members included, where stdio would drop them.
    const params = { q: 'x', page: undefined };
    const calls = [
      { name: 'query-builder', arguments: { params } },
      { name: 'nexusbloom', arguments: { command: 'run', slug: 'query-builder', params: { params } } },
      { name: 'nexusbloom', arguments: { command: 'batch', runs: [{ slug: 'query-builder', params: { params } }] } },
    ];
    for (const call of calls) {
      const result = (await session.client.callTool(call)) as CallToolResult;
      assert.notEqual(result.isError, true, JSON.stringify(result));
    }
    assert.deepEqual(
      http.requests.map((req) => JSON.parse(req.body)),
      Array(3).fill({ params: { params: { q: 'x' } } }),
    );
    assert.ok('page' in params, "the caller's object keeps its member");
  } finally {
    await session.close();
    await http.close();
  }
});

test('an unreachable API explains itself and the server keeps working', async () => {
  const session = await connect({ NEXUSBLOOM_API_URL: 'http://127.0.0.1:9/api', NEXUSBLOOM_MCP_TIMEOUT_MS: '2000' });
  try {
    const failed = (await session.client.callTool({ name: 'data-generator', arguments: { count: 1 } })) as CallToolResult;
    assert.equal(failed.isError, true);
    assert.match((failed.content[0] as { text: string }).text, /API_UNREACHABLE/);
    const { tools } = await session.client.listTools();
    assert.equal(tools.length, 3);
  } finally {
    await session.close();
  }
});

test('a cancelled call is recorded as CANCELLED, not TIMEOUT, and a cancelled batch records only the run it sent', async () => {
  // The API never answers, so a call ends only when the client cancels it (notifications/cancelled).
  const http = await startHttp(() => undefined);
  const session = await connect({ NEXUSBLOOM_API_URL: http.url });
  const cancelOnRequest = async (call: (signal: AbortSignal) => Promise<unknown>, requests: number): Promise<void> => {
    const controller = new AbortController();
    const pending = call(controller.signal).catch(() => undefined);
    while (http.requests.length < requests) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort('cancelled by the user');
    await pending;
    // The server learns of the cancellation through a notification; give it a moment to finish and record.
    await new Promise((resolve) => setTimeout(resolve, 100));
  };
  const history = async () =>
    ((await session.client.callTool({ name: 'nexusbloom', arguments: { command: 'history' } })) as CallToolResult).structuredContent as {
      runs: { id: string; status: string; code?: string }[];
      total_recorded: number;
    };
  try {
    await cancelOnRequest(
      (signal) => session.client.callTool({ name: 'data-generator', arguments: { count: 1 } }, undefined, { signal }),
      1,
    );
    assert.deepEqual(
      (await history()).runs.map((run) => [run.id, run.status, run.code]),
      [['r1', 'failed', 'CANCELLED']],
    );

    const runs = Array.from({ length: 4 }, () => ({ slug: 'data-generator', params: { count: 1 } }));
    await cancelOnRequest(
      (signal) => session.client.callTool({ name: 'nexusbloom', arguments: { command: 'batch', runs } }, undefined, { signal }),
      2,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(http.requests.length, 2, 'the three runs after the cancelled one are never sent');
    const after = await history();
    assert.deepEqual(
      after.runs.map((run) => [run.id, run.status, run.code]),
      [
        ['r2', 'failed', 'CANCELLED'],
        ['r1', 'failed', 'CANCELLED'],
      ],
    );
    assert.equal(after.total_recorded, 2);
  } finally {
    await session.close();
    await http.close();
  }
});

test('an unknown slug is "not in this server\'s catalogue" while the list is pinned, with the live switch under the configured prefix', async () => {
  const ask = async (env: Record<string, string>) => {
    const created = createServer({ names: { ...testNames, envPrefix: 'ACME_' }, catalogue, env, log: () => undefined });
    const direct = await created.surface.callTool(
      'new-upstream-tool',
      {},
      { signal: new AbortController().signal, sendProgress: async () => undefined },
    );
    const viaRun = await created.surface.callTool(
      'nexusbloom',
      { command: 'run', slug: 'new-upstream-tool' },
      { signal: new AbortController().signal, sendProgress: async () => undefined },
    );
    await created.close();
    return [direct, viaRun].map((result) => result.structuredContent as { code: string; error: string });
  };
  for (const failure of await ask({})) {
    assert.equal(failure.code, 'TOOL_NOT_FOUND');
    assert.match(failure.error, /^No tool named "new-upstream-tool" is in this server's catalogue .*ACME_MCP_CATALOGUE=live/);
    assert.doesNotMatch(failure.error, /NEXUSBLOOM_/);
  }
  for (const failure of await ask({ ACME_MCP_CATALOGUE: 'live', ACME_API_URL: 'http://127.0.0.1:9/api' })) {
    assert.equal(failure.code, 'TOOL_NOT_FOUND');
    assert.match(failure.error, /^No tool named "new-upstream-tool" is published\./);
    assert.doesNotMatch(failure.error, /MCP_CATALOGUE/);
  }
});

test('a batch with a progress token sends monotonic progress', async () => {
  const http = await api();
  const session = await connect({ NEXUSBLOOM_API_URL: http.url });
  try {
    const ticks: number[] = [];
    const result = (await session.client.callTool(
      {
        name: 'nexusbloom',
        arguments: {
          command: 'batch',
          runs: [
            { slug: 'env-validator', params: { env_content: 'A=1' } },
            { slug: 'data-generator', params: { count: 2 } },
          ],
        },
      },
      undefined,
      { onprogress: (p) => ticks.push(p.progress) },
    )) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.ok(ticks.length >= 2, `progress ticks: ${JSON.stringify(ticks)}`);
    assert.deepEqual(
      [...ticks].sort((a, b) => a - b),
      ticks,
    );
    assert.equal(http.requests.length, 2);
  } finally {
    await session.close();
    await http.close();
  }
});

test('resources, prompts, completion and logging/setLevel are wired to the surface', async () => {
  const session = await connect({});
  try {
    const { resources } = await session.client.listResources();
    assert.ok(resources.some((r) => r.uri === 'nexusbloom://catalogue'));
    const { resourceTemplates } = await session.client.listResourceTemplates();
    assert.ok(resourceTemplates.length > 0);
    const read = await session.client.readResource({ uri: 'nexusbloom://catalogue' });
    assert.match(JSON.stringify(read.contents), /slash\/tool/);
    await assert.rejects(session.client.readResource({ uri: 'nexusbloom://tools/no-such-tool' }));
    const { prompts } = await session.client.listPrompts();
    assert.ok(prompts.some((p) => p.name === 'use-tool'));
    const completion = await session.client.complete({
      ref: { type: 'ref/prompt', name: 'use-tool' },
      argument: { name: 'slug', value: 'env' },
    });
    assert.ok(completion.completion.values.includes('env-validator'), JSON.stringify(completion));
    assert.deepEqual(await session.client.setLoggingLevel('debug'), {});
  } finally {
    await session.close();
  }
});

test('local execution prints the threat-model warning once', async () => {
  const session = await connect({ NEXUSBLOOM_MCP_EXECUTION: 'auto' });
  try {
    assert.equal(session.lines.filter((line) => line.includes('not a security sandbox')).length, 1);
  } finally {
    await session.close();
  }
});

test('live catalogue: a new upstream tool is listed and list_changed is sent', async () => {
  const entries = [
    { slug: 'env-validator', version: '1.0.0' },
    { slug: 'data-generator', version: '1.0.0' },
    { slug: 'fresh-tool', version: '1.0.0' },
  ];
  const http = await startHttp((req, res) => {
    if (req.url === '/api/tools') {
      return sendJson(res, 200, {
        tools: entries.map(listedEntry),
      });
    }
    if (req.url === '/api/tools/fresh-tool')
      return sendJson(res, 200, manifest({ slug: 'fresh-tool', description: 'Fresh from upstream.' }));
    return sendJson(res, 404, { success: false, error: 'unknown', code: 'TOOL_NOT_FOUND', retryable: false });
  });
  const session = await connect({ NEXUSBLOOM_API_URL: http.url, NEXUSBLOOM_MCP_CATALOGUE: 'live' });
  try {
    let changed = 0;
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed += 1;
    });
    const { tools } = await session.client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ['data-generator', 'env-validator', 'fresh-tool', 'nexusbloom'],
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(changed, 1);
    const slash = session.created.catalogueStore.getTools().tools.find((t) => t.slug === 'slash/tool');
    assert.equal(slash?.manifest.removed_upstream, true);
  } finally {
    await session.close();
    await http.close();
  }
});

test('live catalogue: calls, resources and prompts see the API list without a tools/list, and resources/list_changed is sent', async () => {
  const entries = [
    { slug: 'env-validator', version: '1.0.0' },
    { slug: 'data-generator', version: '1.0.0' },
  ];
  let listRequests = 0;
  const http = await startHttp((req, res) => {
    if (req.url === '/api/tools') {
      listRequests += 1;
      return sendJson(res, 200, {
        tools: entries.map(listedEntry),
      });
    }
    if (req.url === '/api/tools/fresh-tool')
      return sendJson(res, 200, manifest({ slug: 'fresh-tool', description: 'Fresh from upstream.' }));
    if (req.url === '/api/tools/fresh-tool/run') return sendJson(res, 200, { success: true, result: { fresh: true }, duration_ms: 1 });
    return sendJson(res, 404, { success: false, error: 'unknown', code: 'TOOL_NOT_FOUND', retryable: false });
  });
  const session = await connect({ NEXUSBLOOM_API_URL: http.url, NEXUSBLOOM_MCP_CATALOGUE: 'live', NEXUSBLOOM_MCP_CACHE_TTL_MS: '0' });
  try {
    let resourcesChanged = 0;
    let toolsChanged = 0;
    session.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      resourcesChanged += 1;
    });
    session.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      toolsChanged += 1;
    });
    assert.deepEqual(session.client.getServerCapabilities()?.resources, { listChanged: true });
    const listed = async (): Promise<string[]> => {
      const result = await session.client.callTool({ name: 'nexusbloom', arguments: { command: 'list' } });
      return (result.structuredContent as { tools: { slug: string }[] }).tools.map((tool) => tool.slug);
    };
    assert.ok(!(await listed()).includes('fresh-tool'));
    entries.push({ slug: 'fresh-tool', version: '1.0.0' });
    assert.ok((await listed()).includes('fresh-tool'), 'TTL 0: the next call sees the new upstream tool');
    const ran = (await session.client.callTool({ name: 'fresh-tool', arguments: {} })) as CallToolResult;
    assert.deepEqual(ran.structuredContent, { fresh: true });
    const read = await session.client.readResource({ uri: 'nexusbloom://tools/fresh-tool' });
    assert.match(JSON.stringify(read.contents), /Fresh from upstream/);
    const prompt = await session.client.getPrompt({ name: 'use-tool', arguments: { slug: 'fresh-tool' } });
    assert.match(JSON.stringify(prompt.messages), /fresh-tool/);
    assert.ok(listRequests >= 5, `every call asked the API for its list (${listRequests} requests)`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Once when slash/tool turned out removed upstream, once when fresh-tool appeared: each tools change is a resources one.
    assert.equal(resourcesChanged, 2);
    assert.equal(toolsChanged, resourcesChanged);
  } finally {
    await session.close();
    await http.close();
  }
});

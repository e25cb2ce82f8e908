// The operator policy and the confirmation rule, through the built server over real stdio and Streamable HTTP with
// the SDK client, with and without the elicitation capability, against the mock API on loopback.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ElicitRequestSchema, type ElicitRequest, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { startMockApi, type MockApi } from '../../src/runtime/dev/mock-api.js';
import { BILLING_BUNDLE, BILLING_MANIFESTS } from '../fixtures/billing-catalogue.js';
import { join } from 'node:path';
import { Client as ClientV2, StreamableHTTPClientTransport as HttpTransportV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import {
  builtPackage,
  call,
  connectOver,
  connectServer,
  dataOf,
  serverEnv,
  startHttpBin,
  startRawServer,
  type ClientSetup,
  type ServerSession,
} from '../helpers/mcp.js';

let dir: string;
let api: MockApi;

before(async () => {
  dir = await builtPackage('billing', BILLING_BUNDLE);
  api = await startMockApi({ manifests: BILLING_MANIFESTS });
});
after(() => api.close());

const runsOf = (slug: string): number => api.requests.filter((request) => request.endpoint === 'run' && request.slug === slug).length;
const codeOf = (result: Awaited<ReturnType<typeof call>>): string | undefined =>
  result.isError ? (result.structuredContent as { code?: string }).code : undefined;

async function withSession<T>(
  transport: 'stdio' | 'http',
  env: Record<string, string>,
  use: (session: ServerSession) => Promise<T>,
  setup: ClientSetup = {},
): Promise<T> {
  const session = await connectOver(transport, dir, { NEXUSBLOOM_API_URL: api.url, ...env }, setup);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

/** A client that declares elicitation and answers every confirmation with `answer`, recording what it was asked. */
function confirmingClient(
  answer: { action: 'accept' | 'decline' | 'cancel'; content?: { confirm: boolean } },
  asked: ElicitRequest['params'][],
): ClientSetup {
  return {
    capabilities: { elicitation: {} },
    prepare(client) {
      client.setRequestHandler(ElicitRequestSchema, (request) => {
        asked.push(request.params);
        return answer;
      });
    },
  };
}

const DENY_REFUNDS = { NEXUSBLOOM_MCP_DENY: 'refund-*' };

describe('a tool outside the policy is absent everywhere and refused with TOOL_NOT_ALLOWED', () => {
  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}`, async () => {
      await withSession(transport, DENY_REFUNDS, async (session) => {
        const names = (await session.client.listTools()).tools.map((tool) => tool.name);
        assert.deepEqual(
          names.filter((name) => name.startsWith('refund')),
          [],
        );
        assert.ok(names.includes('delete-customer') && names.includes('nexusbloom'), names.join(', '));

        const search = dataOf<{ results: Array<{ slug: string }> }>(
          await call(session, 'nexusbloom', { command: 'search', query: 'refund a payment' }),
        );
        assert.deepEqual(
          search.results.filter((hit) => hit.slug.startsWith('refund')),
          [],
          'search',
        );
        const list = dataOf<{ tools: Array<{ slug: string }> }>(await call(session, 'nexusbloom', { command: 'list' }));
        assert.equal(list.tools.length, 7);
        assert.ok(list.tools.every((tool) => !tool.slug.startsWith('refund')));

        const before = runsOf('refund-payment');
        for (const [name, args] of [
          ['nexusbloom', { command: 'run', slug: 'refund-payment', params: { id: 'p1' } }],
          ['nexusbloom', { command: 'run', slug: 'refund-pay', params: { id: 'p1' } }],
          ['refund-payment', { id: 'p1' }],
        ] as const) {
          const refused = await call(session, name, args);
          assert.equal(codeOf(refused), 'TOOL_NOT_ALLOWED', JSON.stringify(refused.structuredContent));
          const failure = refused.structuredContent as { error: string; details: { slug: string; closest?: unknown } };
          assert.equal(failure.details.slug, 'refund-payment');
          assert.equal(failure.details.closest, undefined, 'no suggestions pointing at it');
          assert.match(failure.error, /denied by "refund-\*"/);
        }
        const batch = await call(session, 'nexusbloom', {
          command: 'batch',
          runs: [
            { slug: 'get-invoice', params: {} },
            { slug: 'refund-partial', params: {} },
          ],
        });
        assert.equal(codeOf(batch), 'TOOL_NOT_ALLOWED');
        assert.equal(runsOf('refund-payment'), before, 'nothing refused reached the API');
        assert.equal(runsOf('get-invoice'), 0, 'a batch with a refused item runs nothing');

        const resources = (await session.client.listResources()).resources.map((resource) => resource.uri);
        assert.ok(resources.includes('nexusbloom://tools/get-invoice'));
        assert.ok(!resources.some((uri) => uri.includes('refund')), resources.join(', '));
        await assert.rejects(session.client.readResource({ uri: 'nexusbloom://tools/refund-payment' }));
        await assert.rejects(session.client.getPrompt({ name: 'use-tool', arguments: { slug: 'refund-payment' } }));
        const completed = await session.client.complete({
          ref: { type: 'ref/prompt', name: 'use-tool' },
          argument: { name: 'slug', value: 'ref' },
        });
        assert.deepEqual(completed.completion.values, []);
      });
    });
  }

  it('a risk ceiling of read lists only read-only tools, and the meta-tool says it is read-only', async () => {
    await withSession('stdio', { NEXUSBLOOM_MCP_MAX_RISK: 'read' }, async (session) => {
      const tools = (await session.client.listTools()).tools;
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['get-invoice', 'list-invoices', 'nexusbloom', 'search-customers']);
      const meta = tools.find((tool) => tool.name === 'nexusbloom') as Tool;
      assert.equal(meta.annotations?.readOnlyHint, true);
      assert.equal(meta.annotations?.destructiveHint, false);
      assert.equal(codeOf(await call(session, 'nexusbloom', { command: 'run', slug: 'send-reminder', params: {} })), 'TOOL_NOT_ALLOWED');
      assert.match(
        session.stderr(),
        /tools\/list shows 3 of 9 tools plus the meta-tool \(6 outside the tool policy \(risk at most read\)\)/,
      );
    });
  });
});

describe("destructive runs through the meta-tool need the user's confirmation", () => {
  it('without elicitation: CONFIRMATION_REQUIRED names the tool to call directly; a direct call and undeclared tools run', async () => {
    await withSession('stdio', {}, async (session) => {
      const meta = (await session.client.listTools()).tools.find((tool) => tool.name === 'nexusbloom') as Tool;
      assert.equal(meta.annotations?.readOnlyHint, false);
      assert.equal(meta.annotations?.destructiveHint, true, 'it reaches destructive tools');
      const before = runsOf('delete-customer');
      const refused = await call(session, 'nexusbloom', {
        command: 'run',
        slug: 'delete-customer',
        params: { id: 'c1', api_token: 'sk-live-123' },
      });
      assert.equal(codeOf(refused), 'CONFIRMATION_REQUIRED');
      const details = (
        refused.structuredContent as { details: { call_directly: string[]; runs: Array<{ arguments: Record<string, unknown> }> } }
      ).details;
      assert.deepEqual(details.call_directly, ['delete-customer']);
      assert.equal(details.runs[0]?.arguments.api_token, '[redacted]');
      assert.equal(runsOf('delete-customer'), before, 'nothing was run');
      assert.equal((await call(session, 'delete-customer', { id: 'c1' })).isError, undefined, "a direct call is the host's to gate");
      assert.equal(runsOf('delete-customer'), before + 1);
      assert.equal(
        (await call(session, 'nexusbloom', { command: 'run', slug: 'send-reminder', params: { id: 'i1' } })).isError,
        undefined,
        'undeclared tools run',
      );
      assert.equal(
        codeOf(await call(session, 'nexusbloom', { command: 'run', slug: 'delete-customer', params: { id: 5 } })),
        'VALIDATION_ERROR',
        'validated before asking',
      );
    });
  });

  it('with elicitation: one question per batch listing the destructive runs with redacted arguments; yes runs them', async () => {
    const asked: ElicitRequest['params'][] = [];
    await withSession(
      'stdio',
      {},
      async (session) => {
        const before = runsOf('void-invoice');
        const result = await call(session, 'nexusbloom', {
          command: 'batch',
          runs: [
            { slug: 'delete-customer', params: { id: 'c2', api_token: 'sk-live-456' } },
            { slug: 'get-invoice', params: { id: 'i2' } },
            { slug: 'void-invoice', params: { id: 'i3' } },
          ],
        });
        assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
        assert.equal(dataOf<{ succeeded: number }>(result).succeeded, 3);
        assert.equal(asked.length, 1, 'one confirmation for the batch');
        const question = asked[0] as { mode?: string; message: string; requestedSchema: { required?: string[] } };
        assert.equal(question.mode, 'form');
        assert.match(question.message, /delete-customer/);
        assert.match(question.message, /void-invoice/);
        assert.doesNotMatch(question.message, /get-invoice/, 'read-only runs are not asked about');
        assert.doesNotMatch(question.message, /sk-live-456/);
        assert.match(question.message, /\[redacted\]/);
        assert.deepEqual(question.requestedSchema.required, ['confirm']);
        assert.equal(runsOf('void-invoice'), before + 1);
      },
      confirmingClient({ action: 'accept', content: { confirm: true } }, asked),
    );
  });

  it('with elicitation: declining runs nothing and answers CONFIRMATION_DECLINED', async () => {
    for (const answer of [{ action: 'decline' as const }, { action: 'accept' as const, content: { confirm: false } }]) {
      const asked: ElicitRequest['params'][] = [];
      await withSession(
        'stdio',
        {},
        async (session) => {
          const before = api.requests.filter((request) => request.endpoint === 'run').length;
          const result = await call(session, 'nexusbloom', {
            command: 'batch',
            runs: [
              { slug: 'get-invoice', params: {} },
              { slug: 'void-invoice', params: {} },
            ],
          });
          assert.equal(codeOf(result), 'CONFIRMATION_DECLINED', JSON.stringify(answer));
          assert.equal(api.requests.filter((request) => request.endpoint === 'run').length, before, 'nothing was run');
          assert.equal(asked.length, 1);
        },
        confirmingClient(answer, asked),
      );
    }
  });

  it('over stateless HTTP a client declaring elicitation still gets CONFIRMATION_REQUIRED (its answer could not reach the call)', async () => {
    const asked: ElicitRequest['params'][] = [];
    await withSession(
      'http',
      {},
      async (session) => {
        assert.equal(
          codeOf(await call(session, 'nexusbloom', { command: 'run', slug: 'refund-payment', params: {} })),
          'CONFIRMATION_REQUIRED',
        );
        assert.equal(asked.length, 0);
      },
      confirmingClient({ action: 'accept', content: { confirm: true } }, asked),
    );
  });

  it('the operator widens the rule to undeclared tools (unless-safe) or turns it off', async () => {
    await withSession('stdio', { NEXUSBLOOM_MCP_CONFIRM: 'unless-safe' }, async (session) => {
      assert.equal(
        codeOf(await call(session, 'nexusbloom', { command: 'run', slug: 'send-reminder', params: {} })),
        'CONFIRMATION_REQUIRED',
      );
      assert.equal(
        (await call(session, 'nexusbloom', { command: 'run', slug: 'create-invoice', params: {} })).isError,
        undefined,
        'declared non-destructive',
      );
    });
    await withSession('stdio', { NEXUSBLOOM_MCP_CONFIRM: 'off' }, async (session) => {
      assert.equal((await call(session, 'nexusbloom', { command: 'run', slug: 'void-invoice', params: {} })).isError, undefined);
    });
  });
});

describe('the split surface', () => {
  it('a read-only discovery tool and a separate runner, each annotated for what it reaches', async () => {
    const session = await connectServer(dir, {
      NEXUSBLOOM_API_URL: api.url,
      NEXUSBLOOM_MCP_SURFACE: 'split',
      NEXUSBLOOM_MCP_CONFIRM: 'off',
    });
    try {
      const tools = (await session.client.listTools()).tools;
      const discovery = tools.find((tool) => tool.name === 'nexusbloom') as Tool;
      const runner = tools.find((tool) => tool.name === 'nexusbloom-run') as Tool;
      assert.equal(tools.length, 11);
      assert.deepEqual(
        [discovery.annotations?.readOnlyHint, discovery.annotations?.destructiveHint, discovery.annotations?.openWorldHint],
        [true, false, false],
      );
      assert.deepEqual([runner.annotations?.readOnlyHint, runner.annotations?.destructiveHint], [false, true]);
      assert.deepEqual((discovery.inputSchema.properties as { command: { enum: string[] } }).command.enum, [
        'search',
        'list',
        'schema',
        'history',
        'diff',
      ]);
      const refused = await call(session, 'nexusbloom', { command: 'run', slug: 'get-invoice', params: {} });
      assert.equal(codeOf(refused), 'INVALID_COMMAND');
      assert.match((refused.structuredContent as { error: string }).error, /nexusbloom-run/);
      assert.equal(
        (await call(session, 'nexusbloom-run', { command: 'run', slug: 'get-invoice', params: { id: 'i9' } })).isError,
        undefined,
      );
      const history = dataOf<{ runs: Array<{ slug: string }> }>(await call(session, 'nexusbloom', { command: 'history' }));
      assert.equal(history.runs[0]?.slug, 'get-invoice');
    } finally {
      await session.close();
    }
  });
});

describe('catalogue-check (what verify runs) expects the policy and the confirmation rule', () => {
  it('passes when refused tools are absent and refused, and destructive meta-tool runs ask first', async () => {
    const { checkCatalogue } = await import('../../src/runtime/dev/catalogue-check.js');
    const report = await checkCatalogue({ packageRoot: dir, mock: true, env: serverEnv({ NEXUSBLOOM_MCP_DENY: 'refund-*' }) });
    assert.deepEqual(report.problems, []);
    assert.deepEqual(
      report.results.filter((result) => !result.ok),
      [],
    );
    assert.equal(report.outsidePolicy, 2);
    assert.equal(report.ok, true);
    const refund = report.results.find((result) => result.slug === 'refund-payment');
    assert.deepEqual(refund?.passed, ['listing', 'description', 'example', 'run', 'batch', 'resource']);
  });
});

describe('2026-07-28: the confirmation is an input_required round trip, on stdio and stateless HTTP alike', () => {
  type Answer = { action: 'accept' | 'decline' | 'cancel'; content?: { confirm: boolean } };
  /** The SDK's v2 client negotiating 2026-07-28; with `answer`, it declares elicitation and answers every question so. */
  async function withModern<T>(
    transport: 'stdio' | 'http',
    answer: Answer | null,
    asked: unknown[],
    use: (client: ClientV2) => Promise<T>,
  ): Promise<T> {
    const client = new ClientV2(
      { name: 'v2-policy', version: '1.0.0' },
      { versionNegotiation: { mode: 'auto' }, capabilities: answer === null ? {} : { elicitation: { form: {} } } },
    );
    if (answer !== null) {
      client.setRequestHandler('elicitation/create', (request) => {
        asked.push(request.params);
        return answer;
      });
    }
    const env = serverEnv({ NEXUSBLOOM_API_URL: api.url });
    let stop = async (): Promise<void> => {};
    if (transport === 'stdio') {
      await client.connect(
        new StdioTransportV2({ command: process.execPath, args: [join(dir, 'dist', 'bin.js')], env, stderr: 'ignore', cwd: dir }),
      );
    } else {
      const bin = await startHttpBin(dir, { NEXUSBLOOM_API_URL: api.url });
      stop = bin.stop;
      await client.connect(new HttpTransportV2(new URL(bin.url)));
    }
    try {
      assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
      return await use(client);
    } finally {
      await client.close();
      await stop();
    }
  }
  const failureCode = (result: { isError?: boolean; structuredContent?: unknown }): string | undefined =>
    result.isError === true ? (result.structuredContent as { code?: string }).code : undefined;

  for (const transport of ['stdio', 'http'] as const) {
    it(`over ${transport}: one question for the batch, asked by the client; yes runs it, no runs nothing`, async () => {
      const asked: unknown[] = [];
      await withModern(transport, { action: 'accept', content: { confirm: true } }, asked, async (client) => {
        const before = runsOf('void-invoice');
        const result = await client.callTool({
          name: 'nexusbloom',
          arguments: {
            command: 'batch',
            runs: [
              { slug: 'delete-customer', params: { id: 'c2', api_token: 'sk-live-789' } },
              { slug: 'get-invoice', params: { id: 'i2' } },
              { slug: 'void-invoice', params: { id: 'i3' } },
            ],
          },
        });
        assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
        assert.equal((result.structuredContent as { succeeded: number }).succeeded, 3);
        assert.equal(asked.length, 1, 'one question for the batch');
        const question = asked[0] as { message: string };
        assert.match(question.message, /void-invoice/);
        assert.doesNotMatch(question.message, /sk-live-789/);
        assert.equal(runsOf('void-invoice'), before + 1);
      });
      const declined: unknown[] = [];
      await withModern(transport, { action: 'decline' }, declined, async (client) => {
        const before = runsOf('refund-payment');
        const result = await client.callTool({ name: 'nexusbloom', arguments: { command: 'run', slug: 'refund-payment', params: {} } });
        assert.equal(failureCode(result), 'CONFIRMATION_DECLINED');
        assert.equal(declined.length, 1);
        assert.equal(runsOf('refund-payment'), before, 'nothing was run');
      });
    });
  }

  it('a client that declares no elicitation gets CONFIRMATION_REQUIRED, naming the tool to call directly', async () => {
    await withModern('stdio', null, [], async (client) => {
      const result = await client.callTool({ name: 'nexusbloom', arguments: { command: 'run', slug: 'refund-payment', params: {} } });
      assert.equal(failureCode(result), 'CONFIRMATION_REQUIRED');
    });
  });

  it('an answer counts only for the question it answers (raw requests: another requestState is asked again)', async () => {
    const server = startRawServer(dir, { NEXUSBLOOM_API_URL: api.url });
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const params = { name: 'nexusbloom', arguments: { command: 'run', slug: 'refund-payment', params: {} }, _meta: meta };
    try {
      const before = runsOf('refund-payment');
      server.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });
      const first = (await server.response(1)).result as {
        resultType: string;
        requestState: string;
        inputRequests: Record<string, { method: string }>;
      };
      assert.equal(first.resultType, 'input_required');
      assert.equal(first.inputRequests.confirm?.method, 'elicitation/create');
      const yes = { confirm: { action: 'accept', content: { confirm: true } } };
      server.send({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { ...params, inputResponses: yes, requestState: 'confirm-v1:forged' },
      });
      assert.equal(((await server.response(2)).result as { resultType: string }).resultType, 'input_required');
      assert.equal(runsOf('refund-payment'), before);
      server.send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { ...params, inputResponses: yes, requestState: first.requestState },
      });
      const done = (await server.response(3)).result as { resultType: string; isError?: boolean };
      assert.equal(done.resultType, 'complete');
      assert.notEqual(done.isError, true);
      assert.equal(runsOf('refund-payment'), before + 1);
    } finally {
      await server.close();
    }
  });
});

// createServer(): the MCP server of a generated package, wired from settings, catalogue, runner and agent surface.
// No side effects: connecting a transport is main.ts's job.

import { AsyncLocalStorage } from 'node:async_hooks';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ElicitResultSchema,
  ErrorCode,
  GetPromptRequestSchema,
  type JSONRPCMessage,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  LoggingLevelSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  SetLevelRequestSchema,
  type LoggingLevel,
  type LoggingMessageNotification,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import {
  type DiagnosticLog,
  type EnvironmentVariables,
  ProtocolError,
  type ServedCatalogueFile,
  type ServerNames,
} from '../shared/contracts.js';
import { createToolAdvertiser, isAdvertised } from '../catalogue/advertise.js';
import { createApiClient } from '../execution/api-client.js';
import { createCatalogueStore, type CatalogueStore } from '../catalogue/catalogue-store.js';
import type { ToolList } from '../catalogue/slug-index.js';
import { createStderrLog, httpEnvVarNames, readSettings, type Settings } from '../settings/config.js';
import { createRunHistory, type ServedOver } from '../history/history.js';
import { createCallerHistory } from '../callers/caller-history.js';
import { readLocalLimits } from '../execution/local-limits.js';
import { createDeferredLocalExecutor, localExecutionWarning } from '../execution/local-exec-gate.js';
import { createOperationCaller } from '../execution/openapi-call.js';
import { createRunner } from '../execution/runner.js';
import { packageToolSearch } from '../search/index.js';
import { createAgentSurface, type AgentSurface, type CallExtra } from '../surface/surface.js';
import { createValidator } from '../schema/validation.js';
import {
  discoverResult,
  modernEnvelope,
  modernResult,
  REMOVED_IN_MODERN,
  type ModernEnvelope,
  type ResultDressing,
} from '../protocol/eras.js';
import { createSubscriptions, type NotificationFilter } from '../protocol/subscriptions.js';
import { inputRequiredConfirmation } from '../protocol/input-required.js';
import { pageOf } from '../listing/index.js';
import { listingReport, type ListingReport } from '../listing/index.js';
import {
  createPolicyView,
  describePolicy,
  elicitationChannel,
  readPolicySettings,
  supportsFormElicitation,
  type PolicySettings,
} from '../policy/index.js';

export interface CreateServerOptions {
  names: ServerNames;
  catalogue: ServedCatalogueFile;
  /** Where settings are read from; process.env by default. */
  env?: EnvironmentVariables;
  /** Diagnostics sink; stderr by default. */
  log?: DiagnosticLog;
  /** The transport this process answers on; over HTTP, history answers say runs may sit on another replica. */
  servedOver?: ServedOver;
  /** Results are behind a bearer token: 2026-07-28 cacheable results say shared caches must not keep them. */
  privateResults?: boolean;
}

export interface CreatedServer {
  server: Server;
  surface: AgentSurface;
  settings: Settings;
  /** The operator policy and confirmation rule in force (build defaults overridden by the environment). */
  policy: PolicySettings;
  /** What tools/list shows now, for the start-up line. */
  listing(): ListingReport;
  catalogueStore: CatalogueStore;
  /** Closes the MCP session and kills local runs still in progress. */
  close(): Promise<void>;
  /** Kills local runs still in progress, synchronously (for a process 'exit' handler). */
  killLocalRuns(): void;
}

/**
 * Shared state behind stateless serving: one catalogue, runner and history per process, and a fresh MCP `Server` per
 * request (stateless Streamable HTTP), all answering from the same surface.
 */
export interface ServerFactory {
  surface: AgentSurface;
  settings: Settings;
  policy: PolicySettings;
  listing(): ListingReport;
  catalogueStore: CatalogueStore;
  /** A new MCP server wired to the shared surface; it sends log notifications only within the request it serves. */
  newServer(): Server;
  /** Kills local runs still in progress. */
  killLocalRuns(): void;
}

/** Where a log line goes as a notification while one request is being handled. */
type RequestLogSink = (notification: LoggingMessageNotification) => Promise<void>;

/**
 * The request being handled, for the log lines it causes: where they go as notifications, and (for a 2026-07-28
 * request) the level its `_meta` asked for, or null when it asked for none, which means no notifications at all.
 * A 2025-era request follows the session's logging/setLevel instead.
 */
interface RequestContext {
  sink?: RequestLogSink;
  modernLogLevel?: string | null;
  /** A 2026-07-28 request's envelope and its params as sent (the SDK's parse keeps only the fields it knows). */
  modern?: { envelope: ModernEnvelope; params: Record<string, unknown> };
}

/** How long a confirmation question waits for the user (the SDK's default of 60 s is short for a person deciding). */
const CONFIRMATION_TIMEOUT_MS = 10 * 60_000;

/** Completion values are capped by the MCP spec at 100 per response. */
const MAX_COMPLETION_VALUES = 100;

export function serverInstructions(names: ServerNames): string {
  const meta = names.metaToolName;
  return (
    `Tools from the ${names.productName} catalogue. Each published tool is callable directly by its slug, with its ` +
    `own JSON Schema. When unsure which tool fits, call the \`${meta}\` tool with {"command":"search","query":"<what you want to do>"} ` +
    `first, then {"command":"schema","slug":"<slug>"} for exact parameters and a ready-to-send call; {"command":"batch"} runs up ` +
    'to 10 tools in one call. Failures come back with a stable `code` and a `retryable` flag: fix a VALIDATION_ERROR instead of ' +
    `retrying it unchanged. The catalogue is also readable as resources (${names.uriScheme}://catalogue, ` +
    `${names.uriScheme}://tools/{slug}, ${names.uriScheme}://guide).`
  );
}

export function createServer(options: CreateServerOptions): CreatedServer {
  const wiring = wireServer(options);
  const mcp = wiring.newServer();
  wiring.attachSession(mcp);
  return {
    server: mcp,
    surface: wiring.surface,
    settings: wiring.settings,
    policy: wiring.policy,
    listing: wiring.listing,
    catalogueStore: wiring.catalogueStore,
    close: async () => {
      wiring.killLocalRuns();
      wiring.endSubscriptions();
      await mcp.close();
    },
    killLocalRuns: wiring.killLocalRuns,
  };
}

/** For stateless HTTP: shared state once, a fresh `Server` per request (see ServerFactory). */
export function createServerFactory(options: CreateServerOptions): ServerFactory {
  const { surface, settings, policy, listing, catalogueStore, newServer, killLocalRuns } = wireServer({
    ...options,
    servedOver: options.servedOver ?? 'http',
  });
  return { surface, settings, policy, listing, catalogueStore, newServer, killLocalRuns };
}

function wireServer(options: CreateServerOptions): ServerFactory & { attachSession(server: Server): void; endSubscriptions(): void } {
  const { names, catalogue } = options;
  const env = options.env ?? process.env;
  const stderrLog = options.log ?? createStderrLog(names.serverName);
  // Shared by every Server this wiring builds: over stateless HTTP a level set in one request applies to later ones.
  let clientLogLevel: LoggingLevel | null = null;
  let sessionServer: Server | undefined;
  const requestContext = new AsyncLocalStorage<RequestContext>();

  // Diagnostics always go to stderr; a client that asked for logs (logging/setLevel in 2025, the request's _meta in
  // 2026-07-28) also gets them as notifications: within the request being handled when there is one (the only way
  // over stateless HTTP and in 2026-07-28), else on the 2025 session.
  const log: DiagnosticLog = (line) => {
    stderrLog(line);
    const context = requestContext.getStore();
    const level = context?.modernLogLevel !== undefined ? context.modernLogLevel : clientLogLevel;
    if (level === null || !isLoggingLevel(level) || levelIndex('info') < levelIndex(level)) return;
    const params = { level: 'info' as const, logger: names.serverName, data: line };
    if (context?.sink !== undefined) context.sink({ method: 'notifications/message', params }).catch(() => undefined);
    else if (sessionServer !== undefined && context?.modernLogLevel === undefined)
      sessionServer.sendLoggingMessage(params).catch(() => undefined);
  };

  const settings = readSettings(names, env, log);
  if (settings.execution !== 'remote') log(localExecutionWarning(names, settings.execution));
  const withheld = catalogue.tools.filter((tool) => !isAdvertised(tool));
  if (withheld.length > 0) {
    log(
      `${withheld.length} tool(s) withheld from tools/list (slug outside the MCP tool-name grammar [A-Za-z0-9_-]{1,64}); ` +
        `they stay reachable through the ${names.metaToolName} tool's run command and ${names.uriScheme}://catalogue: ` +
        withheld.map((tool) => `${JSON.stringify(tool.slug)} (${tool.withheldReason ?? 'withheld'})`).join(', '),
    );
  }
  const metaClash = catalogue.tools.find((tool) => tool.slug === names.metaToolName && isAdvertised(tool));
  if (metaClash !== undefined) {
    log(
      `Tool ${JSON.stringify(metaClash.slug)} has the meta-tool's name; it is not listed directly, only through the meta-tool's run command.`,
    );
  }

  const apiClient = createApiClient(names, settings, log);
  const localExecutor = createDeferredLocalExecutor({
    timeoutMs: settings.timeoutMs,
    log,
    env,
    executionVar: settings.vars.execution,
    limits: readLocalLimits(names, env, log),
  });
  const operations = createOperationCaller({ names, env, timeoutMs: settings.timeoutMs, debug: settings.debug, log });
  const runner = createRunner(settings, apiClient, localExecutor, log, operations);
  const validator = createValidator(log);
  const catalogueStore = createCatalogueStore({ catalogue, settings, apiClient, log });
  // The operator policy (policy/): applied here, once, to the list every surface reads; tools outside it are absent
  // from tools/list, search, list, resources, prompts and completions, and a call naming one is TOOL_NOT_ALLOWED.
  const policy = readPolicySettings(names, env, log, catalogue.policy);
  const policyView = createPolicyView(policy.policy);
  const servedTools = (): ToolList => policyView.allowed(catalogueStore.getTools());
  // Host profile and tools mode (MCP_HOST_PROFILE, MCP_TOOLS, …): advertised forms are computed once per served tool.
  const listingOptions = {
    profile: settings.hostProfile,
    mode: settings.tools,
    threshold: settings.toolsThreshold,
    pinned: settings.pinnedTools,
    metaToolName: names.metaToolName,
  };
  const advertiser = createToolAdvertiser({ ...listingOptions, prepared: catalogueStore.preparedForms });
  const surface = createAgentSurface({
    names,
    getTools: servedTools,
    search: packageToolSearch(() => servedTools().tools, catalogue.searchIndexUrl),
    runner,
    validator,
    // Over HTTP, each caller (bearer token) has a history of its own; a stdio process has one client.
    history: options.servedOver === 'http' ? createCallerHistory({ tokenVar: httpEnvVarNames(names).token }) : createRunHistory(),
    startedAt: new Date(),
    log,
    ...(settings.catalogue === 'pinned' ? { pinnedCatalogueVar: settings.vars.catalogue } : {}),
    refusal: (wanted, exactOnly) => policyView.refusal(catalogueStore.getTools(), wanted, exactOnly),
    confirmation: { mode: policy.confirm, confirmVar: policy.vars.confirm },
    surfaceMode: policy.surface,
    policySummary: describePolicy(policy.policy),
  });
  const listing = (): ListingReport =>
    listingReport({
      all: catalogueStore.getTools().tools,
      served: servedTools().tools,
      listed: advertiser.list(servedTools().tools, surface.metaTools()),
      metaEntries: surface.metaTools().length,
      options: listingOptions,
      policy,
      vars: settings.vars,
      tokenCostsUrl: catalogue.tokenCostsUrl,
    });

  // The SDK builds an ajv instance per Server for elicitation replies, which this server never requests: built on
  // first use instead, once per process rather than once per stateless HTTP request.
  let sdkAjv: AjvJsonSchemaValidator | undefined;
  const sdkSchemaValidator: jsonSchemaValidator = {
    getValidator: (schema) => (sdkAjv ??= new AjvJsonSchemaValidator()).getValidator(schema),
  };

  const serverInfo = { name: names.serverName, title: names.productName, version: names.packageVersion };
  const capabilities = { tools: { listChanged: true }, resources: { listChanged: true }, prompts: {}, completions: {}, logging: {} };
  const instructions = serverInstructions(names);
  // 2026-07-28 results say how long a client may keep them: as long as this server keeps its own tool list.
  const dressing: ResultDressing = {
    serverInfo,
    ttlMs: settings.cacheTtlMs,
    cacheScope: options.privateResults === true ? 'private' : 'public',
  };
  const subscriptions = createSubscriptions((listener) => catalogueStore.onListChanged(listener));
  /** Runs a handler for the era its request names: a 2026-07-28 request gets its own log level and a dressed result. */
  const inEra: EraRunner = async (method, envelope, params, extra, handle) => {
    if (envelope === null) return handle();
    const sink: RequestLogSink = (notification) => extra.sendNotification(notification);
    const result = await requestContext.run({ sink, modernLogLevel: envelope.logLevel, modern: { envelope, params } }, handle);
    return modernResult(method, result as Record<string, unknown>, dressing) as ServerResult;
  };

  const newServer = (): Server => {
    const mcp = new Server(serverInfo, { capabilities, instructions, jsonSchemaValidator: sdkSchemaValidator });
    const onRequest = <T extends RequestSchema>(
      schema: T,
      handler: (request: z.output<T>, extra: RequestExtra) => ServerResult | Promise<ServerResult>,
    ): void => onEraRequest(mcp, schema, handler, inEra);

    onRequest(ListToolsRequestSchema, async (request) => {
      await catalogueStore.ensureFresh();
      const tools: Tool[] = advertiser.list(servedTools().tools, surface.metaTools());
      const { page, nextCursor } = pageOf(tools, request.params?.cursor, request.method);
      return nextCursor === undefined ? { tools: page } : { tools: page, nextCursor };
    });

    onRequest(CallToolRequestSchema, async (request, extra) => {
      const progressToken = request.params._meta?.progressToken;
      // 2026-07-28 asks through an input_required result when the request's capabilities take form elicitation. Over
      // 2025 stdio the client's capabilities are known from its initialize; a stateless 2025 HTTP request has none, so
      // it cannot be asked (its answer would arrive at another Server).
      const modern = requestContext.getStore()?.modern;
      const roundTrip =
        modern !== undefined && supportsFormElicitation(modern.envelope.clientCapabilities as Parameters<typeof supportsFormElicitation>[0])
          ? inputRequiredConfirmation(modern.params)
          : undefined;
      const confirmationChannel =
        modern !== undefined
          ? roundTrip?.channel
          : supportsFormElicitation(mcp.getClientCapabilities())
            ? elicitationChannel(async (params, signal) =>
                extra.sendRequest({ method: 'elicitation/create', params: params as never }, ElicitResultSchema, {
                  signal,
                  timeout: CONFIRMATION_TIMEOUT_MS,
                }),
              )
            : undefined;
      const callExtra: CallExtra = {
        signal: extra.signal,
        ...(confirmationChannel === undefined ? {} : { confirmationChannel }),
        ...(progressToken === undefined ? {} : { progressToken }),
        async sendProgress(progress, total, message) {
          // Unsolicited progress is a protocol violation, and a failed notification must never fail the call.
          if (progressToken === undefined) return;
          try {
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress, ...(total === undefined ? {} : { total }), ...(message === undefined ? {} : { message }) },
            });
          } catch {
            // The host may have gone away mid-call; the call's own result is still worth returning.
          }
        },
      };
      // A live list is refreshed before any call that reads it, not only on tools/list: a host that never lists again
      // still reaches new tools, and a TTL of 0 means every call sees the API's list.
      await catalogueStore.ensureFresh();
      const result = await requestContext.run(
        { ...requestContext.getStore(), sink: (notification) => extra.sendNotification(notification) },
        // Keys the host profile advertised under aliases go back to the manifest's keys before validation.
        () =>
          surface.callTool(
            request.params.name,
            advertiser.argumentsFor(servedTools(), request.params.name, request.params.arguments),
            callExtra,
          ),
      );
      // Nothing ran: the confirmation question goes back for the client to ask, and the answer comes with the retry.
      return (roundTrip?.inputRequired() ?? result) as ServerResult;
    });

    onRequest(ListResourcesRequestSchema, async (request) => {
      await catalogueStore.ensureFresh();
      const listed = surface.listResources();
      const { page, nextCursor } = pageOf(listed.resources, request.params?.cursor, request.method);
      return nextCursor === undefined ? { ...listed, resources: page } : { ...listed, resources: page, nextCursor };
    });
    onRequest(ListResourceTemplatesRequestSchema, (request) => {
      refuseCursor(request);
      return surface.listResourceTemplates();
    });
    onRequest(ReadResourceRequestSchema, async (request) => {
      await catalogueStore.ensureFresh();
      return surface.readResource(request.params.uri);
    });
    onRequest(ListPromptsRequestSchema, (request) => {
      refuseCursor(request);
      return surface.listPrompts();
    });
    onRequest(GetPromptRequestSchema, async (request) => {
      await catalogueStore.ensureFresh();
      return surface.getPrompt(request.params.name, request.params.arguments ?? {});
    });
    onRequest(CompleteRequestSchema, (request) => {
      const ref = request.params.ref;
      const completed = surface.complete(
        { type: ref.type, ...('name' in ref ? { name: ref.name } : {}), ...('uri' in ref ? { uri: ref.uri } : {}) },
        request.params.argument,
      );
      const values = completed.values.slice(0, MAX_COMPLETION_VALUES);
      const hasMore = completed.hasMore === true || completed.values.length > values.length;
      return {
        completion: {
          values,
          ...(completed.total === undefined ? {} : { total: completed.total }),
          ...(hasMore ? { hasMore } : {}),
        },
      };
    });
    // Replaces the SDK's own ping handler, so that a 2026-07-28 ping is told the method is gone.
    onRequest(PingRequestSchema, () => ({}));
    onRequest(SetLevelRequestSchema, (request) => {
      clientLogLevel = request.params.level;
      return {};
    });
    // 2026-07-28: discovery instead of the handshake, and one stream for list changes instead of session notifications.
    onRequest(DiscoverRequestSchema, () => discoverResult(capabilities, instructions) as ServerResult);
    onRequest(ListenRequestSchema, (request, extra) => {
      const filter = (request.params?.notifications ?? {}) as NotificationFilter;
      return subscriptions.listen(filter, {
        requestId: extra.requestId,
        signal: extra.signal,
        sendNotification: (notification) => extra.sendNotification(notification as ServerNotification),
      }) as Promise<ServerResult>;
    });
    return mcp;
  };

  return {
    surface,
    settings,
    policy,
    listing,
    catalogueStore,
    newServer,
    killLocalRuns: () => localExecutor.killAll(),
    endSubscriptions: () => subscriptions.endAll(),
    // A long-lived session (stdio) also gets log lines outside requests and list_changed notifications: a changed tool
    // list changes the per-tool resources too.
    attachSession(mcp) {
      sessionServer = mcp;
      catalogueStore.onListChanged(() => {
        if (mcp.transport === undefined) return;
        mcp.sendToolListChanged().catch(() => undefined);
        mcp.sendResourceListChanged().catch(() => undefined);
      });
    },
  };
}

/**
 * A request without its task augmentation (`params.task`). MCP 2025-11-25: a receiver that declares no task capability
 * for a request type MUST process such requests normally, ignoring the metadata. The SDK instead refuses them with
 * -32603, before any handler runs, so each transport strips it from what it hands the SDK. Other messages are returned
 * as they are.
 */
export function withoutTaskAugmentation(message: JSONRPCMessage): JSONRPCMessage {
  if (!('method' in message) || !('id' in message) || message.params === undefined || !('task' in message.params)) return message;
  const { task: _task, ...params } = message.params;
  return { ...message, params };
}

/** A request schema of the SDK: an object whose `method` is one literal. */
type RequestSchema = z.ZodObject<{ method: z.ZodLiteral<string> } & z.ZodRawShape>;
type RequestExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** Runs one request's handler in the era its `_meta` names (null: a 2025-era request) and dresses its result. */
type EraRunner = (
  method: string,
  envelope: ModernEnvelope | null,
  params: Record<string, unknown>,
  extra: RequestExtra,
  handle: () => ServerResult | Promise<ServerResult>,
) => Promise<ServerResult>;

/**
 * Registers `handler` for the method of `schema`, for both eras. The SDK parses a request before its handler runs and
 * answers params that do not fit with -32603 Internal error and the validator's raw output, which tells a host the
 * server broke; MCP wants -32602 Invalid params. So the SDK is given a schema that checks only the method, and the
 * params are checked here, answering -32602 with a message that names each offending field. (tools/call is also
 * checked by the SDK's Server itself, which already answers -32602.) A 2026-07-28 request naming an unserved revision
 * is answered -32022 before anything else, and one for a method that revision removed, -32601 with its replacement.
 */
function onEraRequest<T extends RequestSchema>(
  mcp: Server,
  schema: T,
  handler: (request: z.output<T>, extra: RequestExtra) => ServerResult | Promise<ServerResult>,
  inEra: EraRunner,
): void {
  const method = schema.shape.method.value;
  const methodOnly = z.object({ method: schema.shape.method }).loose();
  mcp.setRequestHandler(methodOnly, (request, extra) => {
    const envelope = modernEnvelope((request as { params?: unknown }).params);
    const removed = REMOVED_IN_MODERN[method];
    if (envelope !== null && removed !== undefined)
      throw new ProtocolError(ErrorCode.MethodNotFound, `Method not found: ${method}; ${removed}.`);
    const params = (request as { params?: unknown }).params;
    const rawParams = params !== null && typeof params === 'object' ? (params as Record<string, unknown>) : {};
    return inEra(method, envelope, rawParams, extra, () => handler(parseRequest(schema, request), extra));
  });
}

/**
 * The short lists (templates, prompts) are answered in one page and issue no nextCursor, so any cursor a client sends
 * them is invalid, which MCP says to answer with -32602 rather than with the first page again (a client paging would
 * loop or duplicate). tools/list and resources/list page (see list-pages.ts).
 */
function refuseCursor(request: { method: string; params?: { cursor?: string | undefined } | undefined }): void {
  const cursor = request.params?.cursor;
  if (cursor === undefined) return;
  throw new ProtocolError(
    ErrorCode.InvalidParams,
    `Invalid cursor ${JSON.stringify(cursor)}: ${request.method} answers everything in one page ` +
      'and issues no cursors; send it without one.',
  );
}

function parseRequest<T extends RequestSchema>(schema: T, request: unknown): z.output<T> {
  const parsed = schema.safeParse(request);
  if (parsed.success) return parsed.data;
  const method = schema.shape.method.value;
  const problems = parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || 'the request'}: ${issue.message}`);
  throw new ProtocolError(
    ErrorCode.InvalidParams,
    `Invalid params for ${method}: ${problems.join('; ')}. Fix the params and send the request again.`,
  );
}

function levelIndex(level: LoggingLevel): number {
  return LoggingLevelSchema.options.indexOf(level);
}

function isLoggingLevel(level: string): level is LoggingLevel {
  return (LoggingLevelSchema.options as readonly string[]).includes(level);
}

/** server/discover (2026-07-28): no params beyond `_meta`. */
const DiscoverRequestSchema = z.object({ method: z.literal('server/discover'), params: z.object({}).loose().optional() });

/** subscriptions/listen (2026-07-28): which change notifications the client wants. */
const ListenRequestSchema = z.object({
  method: z.literal('subscriptions/listen'),
  params: z
    .object({
      notifications: z
        .object({
          toolsListChanged: z.boolean().optional(),
          promptsListChanged: z.boolean().optional(),
          resourcesListChanged: z.boolean().optional(),
          resourceSubscriptions: z.array(z.string()).optional(),
        })
        .loose()
        .optional(),
    })
    .loose()
    .optional(),
});

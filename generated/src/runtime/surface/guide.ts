// The usage guide served as `<scheme>://guide`, and the per-error-code advice shared with the recover prompt.
import { ERROR_RETRYABLE, type ErrorCode, type ServerNames } from '../shared/contracts.js';
import { HISTORY_CAPACITY } from '../history/history.js';
import { MAX_PAYLOAD_CHARS, MAX_REDACTION_DEPTH, SECRET_KEY_PARTS } from '../secrets/redact.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../protocol/eras.js';

/** Runs one batch may hold: anonymous use allows 30 requests a minute and one turn should not spend it all. */
export const MAX_BATCH_RUNS = 10;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_SEARCH_LIMIT = 50;

export interface ErrorAdvice {
  meaning: string;
  action: string;
}

export const ERROR_ADVICE: Readonly<Record<ErrorCode, ErrorAdvice>> = {
  TOOL_NOT_FOUND: {
    meaning: 'No published tool has that slug (slugs resolve by exact match or unambiguous prefix only).',
    action: 'Use one of the closest matches in the error, or search by intent. Do not guess a slug.',
  },
  TOOL_NOT_ALLOWED: {
    meaning:
      "The tool exists but is outside this server's tool policy (set by its operator); it is not listed, searchable or runnable here.",
    action: 'Tell the user it is blocked by policy; do not retry it or look for another way to run it.',
  },
  CONFIRMATION_REQUIRED: {
    meaning:
      'The meta-tool was asked to run a tool that may change or delete data, and this client cannot be asked to confirm; nothing was run.',
    action: 'Call the tool named in details.call_directly directly, so the host asks the user; or tell the user.',
  },
  CONFIRMATION_DECLINED: {
    meaning: 'The user was asked to confirm the run and did not; nothing was run.',
    action: 'Do not retry unless the user asks for it again.',
  },
  AMBIGUOUS_SLUG: {
    meaning: 'The abbreviation is a prefix of several tools.',
    action: 'Pick the full slug from the candidates listed in the error.',
  },
  VALIDATION_ERROR: {
    meaning: "The arguments do not match the tool's input schema; nothing was sent.",
    action: 'Fix the field named in the error (see the schema command); retrying unchanged fails the same way.',
  },
  INVALID_COMMAND: {
    meaning: 'The meta-tool call itself is malformed (unknown command or a bad field).',
    action: 'Fix the field named in the error; the guide lists every command.',
  },
  BATCH_TOO_LARGE: {
    meaning: `A batch holds at most ${MAX_BATCH_RUNS} runs.`,
    action: `Split it into batches of ${MAX_BATCH_RUNS} or fewer.`,
  },
  TIMEOUT: {
    meaning: 'The request took longer than the configured timeout.',
    action: 'Retry once; if it keeps timing out, reduce the input size.',
  },
  CANCELLED: {
    meaning:
      'The client cancelled the call (notifications/cancelled) while the run was in progress; the tool may or may not have finished.',
    action: 'Run it again only if the user still wants it; check history first, since a cancelled run may have had effects.',
  },
  RATE_LIMITED: { meaning: 'The API rate limit was reached.', action: 'Wait for retry_after seconds (in details when given), then retry.' },
  API_UNREACHABLE: {
    meaning: 'The API could not be reached (network, DNS, refused connection).',
    action: 'Retry later; tell the user if it persists.',
  },
  UPSTREAM_ERROR: { meaning: 'The API failed on its side (5xx).', action: 'Retry after a short wait.' },
  AUTH_ERROR: {
    meaning: 'The API key was rejected or lacks access.',
    action: 'Ask the user to check the API key configuration; retrying will not help.',
  },
  CONFIG_ERROR: {
    meaning: "The server's configuration is unusable (the error names the environment variable); nothing was sent.",
    action: 'Tell the user which variable to fix and what a valid value looks like (both are in the error); retrying will not help.',
  },
  EXECUTION_ERROR: {
    meaning: 'The tool ran and reported an error for this input.',
    action: 'Read the message; change the input rather than retrying unchanged.',
  },
  NO_LOCAL_SOURCE: {
    meaning: 'Local execution is on but this tool publishes no source.',
    action: 'Ask the user to switch execution to remote or auto.',
  },
  OUTPUT_MISMATCH: {
    meaning: "The tool's result did not match its declared output schema; the payload is in details.result.",
    action: 'Treat the result with care; report the mismatch rather than relying on its shape.',
  },
  BAD_RESPONSE: {
    meaning: 'The API answered with something that is not a valid response, or cut its answer off.',
    action: 'Retry; if it persists, the API is misbehaving.',
  },
  RUN_NOT_FOUND: {
    meaning: 'No run with that id is in this process history.',
    action: 'List runs with {"command":"history"} and use an id it shows, or -1/-2.',
  },
};

export const ERROR_CODES = Object.keys(ERROR_ADVICE) as ErrorCode[];

export function errorCodeTable(): string {
  const rows = ERROR_CODES.map(
    (code) => `| ${code} | ${ERROR_RETRYABLE[code] ? 'yes' : 'no'} | ${ERROR_ADVICE[code].meaning} | ${ERROR_ADVICE[code].action} |`,
  );
  return ['| code | retryable | means | what to do |', '|---|---|---|---|', ...rows].join('\n');
}

/** The policy and confirmation rule a server applies, as the guide states them. */
export interface GuidePolicy {
  /** The operator policy in words ("every tool", "deny refund-*; risk at most medium"). */
  policy: string;
  confirm: 'declared' | 'unless-safe' | 'off';
  surface: 'single' | 'split';
}

const CONFIRM_RULES: Readonly<Record<GuidePolicy['confirm'], string>> = {
  declared: 'a tool whose annotations declare `destructiveHint: true`',
  'unless-safe': 'any tool not declared read-only (`readOnlyHint: true`) or non-destructive (`destructiveHint: false`)',
  off: '',
};

function policySection(names: ServerNames, policy: GuidePolicy): string {
  const meta = names.metaToolName;
  const runner = policy.surface === 'split' ? `${meta}-run` : meta;
  const confirm =
    policy.confirm === 'off'
      ? `Runs through \`${runner}\` are not confirmed here (turned off by the operator); the host gates direct calls as usual.`
      : `Running ${CONFIRM_RULES[policy.confirm]} through \`${runner}\` (\`run\` or \`batch\`) first asks the user to confirm: one question ` +
        'per call, listing the tools and their arguments with secrets masked. A client that cannot be asked (no elicitation ' +
        'capability, or a 2025-era client over stateless HTTP; in 2026-07-28 the question is an input_required result) gets CONFIRMATION_REQUIRED, nothing runs, and the error names the tool to call directly, ' +
        'so the host asks as it does for any tool. A "no" is CONFIRMATION_DECLINED. Tools that declare nothing run as usual.';
  const surface =
    policy.surface === 'split'
      ? `\`${meta}\` only finds and describes tools (search, list, schema, history, diff) and is read-only; \`${meta}-run\` runs them (run, batch).`
      : `One meta-tool, \`${meta}\`, finds and runs tools; its annotations say what it can reach (read-only when every tool it reaches is).`;
  return `## Tool policy and confirmation

- Tools served: ${policy.policy}. The operator sets this (patterns with \`*\` and \`?\`, \`category:\`/\`tag:\` selectors, a risk
  ceiling read < low < medium < high from each tool's annotations). A tool outside it is not listed, searched, described or
  completed, and a call naming it answers TOOL_NOT_ALLOWED: tell the user, do not look for a way around it.
- ${confirm}
- ${surface}
`;
}

/** Markdown usage guide for agents; names only, no catalogue text, so it is stable across catalogue refreshes. */
export function buildGuide(
  names: ServerNames,
  policy: GuidePolicy = { policy: 'every tool', confirm: 'declared', surface: 'single' },
): string {
  const meta = names.metaToolName;
  const scheme = names.uriScheme;
  return `# ${names.productName} MCP server: usage guide

Every advertised tool is an MCP tool named by its slug, called with its own JSON Schema arguments.
The \`${meta}\` meta-tool finds, describes and runs tools when you do not know the slug yet.

## Meta commands (tool \`${meta}\`)

| call | does |
|---|---|
| \`{"command":"search","query":"validate env file"}\` | Ranks tools by intent (optional \`limit\`, default ${DEFAULT_SEARCH_LIMIT}, max ${MAX_SEARCH_LIMIT}): each hit with its purpose, matched words, required parameters and effect (read-only, writes, destructive); near ties are flagged; with no good match it says so and suggests \`list\` and categories. |
| \`{"command":"list"}\` | Every published tool, one line each. |
| \`{"command":"schema","slug":"<slug>"}\` | Exact input and output schema, plus a ready-to-send example call. |
| \`{"command":"run","slug":"<slug>","params":{}}\` | Runs a tool, including tools withheld from the tool list. |
| \`{"command":"batch","runs":[{"slug":"<slug>","params":{}}]}\` | Runs up to ${MAX_BATCH_RUNS} tools in one call. |
| \`{"command":"history"}\` | Runs this server process performed, newest first. |
| \`{"command":"history","show":"r3"}\` | One run in full: input, result, timing. |
| \`{"command":"diff","from":"-2","to":"-1"}\` | Two runs compared field by field (\`-1\` is the newest run). |

## Resources

- \`${scheme}://guide\`: this guide.
- \`${scheme}://catalogue\`: every tool as JSON (no full schemas), with the URI of its manifest.
- \`${scheme}://tools/{slug}\`: one tool's full manifest plus \`call: {tool, arguments}\`, ready to send. The slug is
  percent-encoded (\`encodeURIComponent\`).
- \`${scheme}://history\`: the run history index.

## Rules worth knowing

- Slugs resolve by exact match or unambiguous prefix only; nothing is guessed. A wrong slug returns TOOL_NOT_FOUND
  with the closest matches.
- Arguments are validated against the tool's schema before anything is sent; an invalid call costs no quota and names
  the field.
- A batch is validated as a whole first: one bad item rejects the batch, names the item index, and runs nothing. After
  that, runs are independent: failures are listed first and successes are kept.
- Tools withheld from the tool list (slugs that strict hosts reject: spaces, slashes, non-ASCII, over 64 characters)
  are still reachable with \`{"command":"run"}\` and the resources.
- Protocol revisions: MCP ${MODERN_PROTOCOL_VERSIONS.join(', ')} (per request, by \`_meta\`) and ${LEGACY_PROTOCOL_VERSIONS.join(', ')} (after
  \`initialize\`); everything in this guide works the same in each.

${policySection(names, policy)}
## Limits

- Batch: at most ${MAX_BATCH_RUNS} runs.
- History: in memory only, scoped to this server process over stdio (it spans every conversation the process served
  and is not reset between them), and per caller (bearer token) over HTTP, where it is off without a token; every
  history answer names its scope. The last ${HISTORY_CAPACITY} runs; each payload capped at ${MAX_PAYLOAD_CHARS.toLocaleString('en-US')} characters of JSON, truncation
  recorded. A run the client cancelled while it ran is recorded as CANCELLED; the runs of a cancelled batch that were
  never sent did not happen and are not recorded. Inputs and results are redacted before storage: keys with a word
  among ${SECRET_KEY_PARTS.join(', ')} are masked, and so are secrets inside values (URL userinfo, \`Password=\` pairs,
  bearer tokens, JWTs, the value of a \`{name: "Authorization", value}\` entry), up to ${MAX_REDACTION_DEPTH} levels deep; anything deeper is
  stored as "[deep]". A diff compares masked values as their masks: it cannot tell one secret from another.

## Recovering from errors

Failures are \`isError\` results with \`{success:false, error, code, retryable, details?}\`. Retry only when
\`retryable\` is true; otherwise change something first.

${errorCodeTable()}
`;
}

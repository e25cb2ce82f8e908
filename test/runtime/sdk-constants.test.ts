// The runtime spells a few of the MCP SDK's constants itself, so that modules the generator loads too need no SDK
// module at generation time; these tests hold them equal to the pinned SDK's, and fail when an SDK upgrade moves them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErrorCode, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../src/runtime/protocol/eras.js';
import { JSON_RPC_ERRORS } from '../../src/runtime/shared/contracts.js';

test('the revisions served after initialize are the ones the SDK negotiates, in its order', () => {
  assert.deepEqual(LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS);
});

test("JSON-RPC's error codes are the SDK's", () => {
  assert.deepEqual(JSON_RPC_ERRORS, {
    invalidRequest: ErrorCode.InvalidRequest,
    methodNotFound: ErrorCode.MethodNotFound,
    invalidParams: ErrorCode.InvalidParams,
  });
});

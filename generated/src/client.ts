// The client the typed wrappers share: same configuration, API client and validation as the server.
import { bindSdk } from './runtime/execution/sdk.js';
import { catalogueUrl, names } from './names.js';

export const sdk = bindSdk({ names, catalogueUrl });

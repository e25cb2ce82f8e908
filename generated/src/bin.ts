#!/usr/bin/env node
// Starts the MCP server on stdio. stdout carries the protocol only; every diagnostic goes to stderr.
import { main } from './runtime/transport/main.js';
import { catalogueUrl, names } from './names.js';

await main({ names, catalogueUrl });

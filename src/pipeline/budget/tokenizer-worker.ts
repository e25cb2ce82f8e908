// A worker thread that loads the tokenizer as soon as it starts, then counts each batch of texts it is sent.

import { parentPort } from 'node:worker_threads';
import { loadTokenCounter } from './token-count.js';

const loading = loadTokenCounter();

parentPort?.on('message', (texts: string[]) => {
  // A tokenizer that cannot load fails the worker, and the thread's owner counts in-process instead.
  void loading.then((count) => parentPort?.postMessage(texts.map(count)));
});

// Entry of the docs package-index thread: registers the TypeScript loader (as bin/tooldex.js does), then loads the thread.
import { register } from 'tsx/esm/api';

register();
await import('./index-thread.ts');

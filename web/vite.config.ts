// Vite build of the web pages, Preact via esbuild's automatic JSX: the explorer (index.html, served at /) and the
// dashboard (dashboard/index.html, served at /dashboard/), sharing one assets folder (/assets/) and the Preact chunk.
import path from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: 'dist', emptyOutDir: true, sourcemap: false, target: 'es2022', assetsInlineLimit: 0,
    rollupOptions: {
      input: { explorer: path.join(import.meta.dirname, 'index.html'), dashboard: path.join(import.meta.dirname, 'dashboard/index.html') },
    },
  },
  logLevel: 'warn',
});

// The web console's build (#50): Preact through its Vite preset, into dist/console, served by the gateway at
// /console (apps/gateway/src/http/console-site.ts). Every script and style is a file of its own (the pages'
// CSP allows no inline one); the modulepreload polyfill, which Vite would add to the entry, is left out
// (every browser the console supports has modulepreload).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [preact()],
  logLevel: 'warn',
  build: {
    outDir: path.resolve(here, '..', '..', 'dist', 'console'),
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    // Data URLs would be inline assets; the CSP allows data: images only, so nothing is inlined.
    assetsInlineLimit: 0,
    sourcemap: true,
    target: 'es2022',
  },
});

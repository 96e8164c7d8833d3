import { defineConfig } from 'vite';

// Built files go to web/dist, which `plateau serve` serves at http://localhost:8080/.
export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  test: { environment: 'jsdom', include: ['tests/unit/**/*.test.ts?(x)'] },
});

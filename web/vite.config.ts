import { defineConfig } from 'vite';

// Built files go to web/dist, which `plateau serve` serves at http://localhost:8080/.
// `npm run dev` proxies the server's endpoints to PLATEAU_SERVER (default localhost:8080).
const server = process.env.PLATEAU_SERVER ?? 'localhost:8080';

export default defineConfig({
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/ws': { target: `ws://${server}`, ws: true },
      '/api': `http://${server}`,
      '/records': `http://${server}`,
      '/healthz': `http://${server}`,
    },
  },
  test: { environment: 'jsdom', include: ['tests/unit/**/*.test.ts?(x)'] },
});

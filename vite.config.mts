import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The renderer is one static build served by both shells: app:// in the desktop app, http on
// loopback in browser mode. Relative base so both work.
export default defineConfig({
  root: 'renderer',
  base: './',
  plugins: [react()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    chunkSizeWarningLimit: 1200,
  },
});

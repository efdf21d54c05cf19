import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/swagger': 'http://127.0.0.1:3000' } },
  build: { outDir: 'dist', sourcemap: false, manifest: true, modulePreload: { polyfill: false } },
});

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * sonner (the toasts) puts its stylesheet into the page at load as a runtime <style> without a nonce,
 * which the CSP's style-src refuses: two console errors on every full load of a signed-in page. The
 * same CSS is bundled from sonner/dist/styles.css (components/toast.tsx), so the injection is dropped
 * rather than the CSP loosened. Fails the build if sonner stops injecting that way (re-check then).
 */
function sonnerWithoutRuntimeStyle(): Plugin {
  return {
    name: 'simdock:sonner-without-runtime-style',
    enforce: 'pre',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]sonner[\\/]dist[\\/]index\.m?js$/.test(id)) return null;
      const call = /^__insertCSS\(/m;
      if (!call.test(code)) throw new Error(`sonner no longer injects its CSS with __insertCSS (${id})`);
      return { code: code.replace(call, 'void ('), map: null };
    },
  };
}

export default defineConfig({
  plugins: [sonnerWithoutRuntimeStyle(), react(), tailwindcss()],
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/swagger': 'http://127.0.0.1:3000' } },
  build: { outDir: 'dist', sourcemap: false, manifest: true, modulePreload: { polyfill: false } },
});

// The app's web font, shipped with the app (no CDN): Inter, variable weight, with Vietnamese glyphs.
import '@fontsource-variable/inter';
import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { setNonce } from 'get-nonce';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { prefetchDashboard } from './api/dashboard-data.ts';
import { AppRouterProvider, createAppRouter, preloadShell } from './app/router.tsx';
import { I18nProvider, loadLanguage, storedLanguage } from './i18n/index.tsx';
import { createQueryClient } from './lib/queryClient.ts';
import { ThemeProvider } from './lib/theme.tsx';
import { prefetchSession } from './session/session.tsx';

// The page's CSP allows runtime <style> tags only with this response's nonce: the dialogs' scroll
// lock (Radix) adds one through get-nonce. (The Vite dev server has no CSP; its placeholder is harmless.)
const nonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce;
if (nonce) setNonce(nonce);

const queryClient = createQueryClient();
// Signed in: the user info and the shell's chunk load at once, beside the page's chunk and data,
// instead of one after another; the Dashboard's lists too (no wait for its chunk).
if (prefetchSession(queryClient)) {
  void preloadShell();
  if (/^\/dashboard\/?$/i.test(window.location.pathname)) prefetchDashboard(queryClient);
}
const router = createAppRouter(queryClient);

function render() {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nProvider>
        <ThemeProvider>
          <QueryClientProvider client={queryClient}>
            <AppRouterProvider router={router} />
          </QueryClientProvider>
        </ThemeProvider>
      </I18nProvider>
    </StrictMode>,
  );
}

// English is in this bundle; another stored language is a chunk of its own: wait for it (it loads
// beside the page's chunks), so the first paint is already in that language. If it can't load, render
// in English rather than not at all.
loadLanguage(storedLanguage()).then(render, render);

import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useI18n } from '../i18n/index.tsx';
import { LanguageSwitch, Logo, SkipLink, ThemeToggle } from './controls.tsx';

/** Header of the public pages (after the skip link): logo (to the landing page), optional links, language and theme. */
export function PublicHeader({ children }: { children?: ReactNode }) {
  return (
    <>
      <SkipLink />
      <header className="sticky top-0 z-30 border-b border-line bg-surface/90 backdrop-blur">
        <div className="mx-auto flex h-14 max-w-6xl items-center gap-2 px-4">
          <Logo to="/home" />
          <div className="ml-auto flex items-center gap-1">
            {children}
            <LanguageSwitch />
            <ThemeToggle />
          </div>
        </div>
      </header>
    </>
  );
}

export function PublicFooter() {
  const { t } = useI18n();
  return (
    <footer className="border-t border-line">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-[13px] text-muted">
        <span>{t('landing.footer', { year: new Date().getFullYear() })}</span>
        <nav className="flex gap-4">
          <Link to="/privacy" className="hover:text-fg hover:underline">
            {t('landing.privacy')}
          </Link>
          <Link to="/terms" className="hover:text-fg hover:underline">
            {t('landing.terms')}
          </Link>
        </nav>
      </div>
    </footer>
  );
}

/** Login and register: a centred card under the public header. */
export function AuthLayout({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:items-center">
        <div className="w-full max-w-sm">
          <div className="rounded-xl border border-line bg-surface p-6 shadow-sm sm:p-7">
            <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
            {subtitle ? <p className="mt-1 text-muted">{subtitle}</p> : null}
            <div className="mt-6">{children}</div>
          </div>
        </div>
      </main>
      <PublicFooter />
    </div>
  );
}

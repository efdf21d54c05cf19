import { useQuery } from '@tanstack/react-query';
import { Check, Code, MessagesSquare, Send, Smartphone } from 'lucide-react';
import { Link } from 'react-router';
import { servicesQuery } from '../../api/orders.ts';
import { buttonClass } from '../../components/Button.tsx';
import { PublicFooter, PublicHeader } from '../../components/PublicLayout.tsx';
import { EmptyState, QueryState, SkeletonLines } from '../../components/StateViews.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useSession } from '../../session/session.tsx';

const FEATURES = [
  { icon: Smartphone, title: 'landing.feature1Title', text: 'landing.feature1Text' },
  { icon: Send, title: 'landing.feature2Title', text: 'landing.feature2Text' },
  { icon: MessagesSquare, title: 'landing.feature3Title', text: 'landing.feature3Text' },
  { icon: Code, title: 'landing.feature4Title', text: 'landing.feature4Text' },
] as const;

const PRICES = [
  ['landing.price1Title', 'landing.price1Text'],
  ['landing.price2Title', 'landing.price2Text'],
  ['landing.price3Title', 'landing.price3Text'],
] as const;

const FAQ = [
  ['landing.faq1Q', 'landing.faq1A'],
  ['landing.faq2Q', 'landing.faq2A'],
  ['landing.faq3Q', 'landing.faq3A'],
  ['landing.faq4Q', 'landing.faq4A'],
] as const;

const ANCHORS: ReadonlyArray<readonly [string, MessageKey]> = [
  ['features', 'landing.features'],
  ['pricing', 'landing.pricing'],
  ['faq', 'landing.faq'],
  ['contact', 'landing.contact'],
];

/** The live service price list (the public list the Dashboard rents from). */
function PriceList() {
  const { t } = useI18n();
  const services = useQuery({ ...servicesQuery, refetchInterval: 60_000 });
  return (
    <div className="mx-auto mt-10 max-w-3xl rounded-xl border border-line bg-page" data-testid="price-list">
      <div className="border-b border-line px-5 py-3">
        <h3 className="font-semibold">{t('landing.priceListTitle')}</h3>
        <p className="text-[13px] text-muted">{t('landing.priceListText')}</p>
      </div>
      <QueryState
        query={services}
        errorTitle={t('landing.priceListFailed')}
        compact
        loading={<SkeletonLines lines={4} />}
        isEmpty={(list) => list.length === 0}
        empty={<EmptyState compact title={t('landing.priceListEmpty')} />}
      >
        {(list) => (
          <table className="w-full text-sm">
            <caption className="sr-only">{t('landing.priceListTitle')}</caption>
            <thead>
              <tr className="text-left text-xs text-muted uppercase">
                <th scope="col" className="px-5 py-2 font-semibold">
                  {t('landing.colService')}
                </th>
                <th scope="col" className="px-5 py-2 text-right font-semibold">
                  {t('landing.colPrice')}
                </th>
                <th scope="col" className="px-5 py-2 text-right font-semibold">
                  {t('landing.colAvailable')}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={s.id} className="border-t border-line">
                  <td className="px-5 py-2 font-medium">{s.name}</td>
                  <td className="px-5 py-2 text-right tabular">{formatMoney(s.price)}</td>
                  <td className="px-5 py-2 text-right text-muted tabular">{formatNumber(s.available)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </div>
  );
}

function SectionTitle({ id, children }: { id: string; children: string }) {
  return (
    <h2 id={`${id}-title`} className="text-center text-2xl font-semibold tracking-tight sm:text-[26px]">
      {children}
    </h2>
  );
}

/** /home: the public landing page. Its header shows Login, or Dashboard when a user is loaded. */
export function LandingPage() {
  const { t } = useI18n();
  const { user } = useSession();
  const email = t('legal.supportEmail');
  useDocumentTitle(t('app.tagline'));
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader>
        <nav aria-label={t('landing.sections')} className="mr-2 hidden items-center gap-1 md:flex">
          {ANCHORS.map(([id, label]) => (
            <a
              key={id}
              href={`#${id}`}
              className="rounded-md px-2.5 py-1.5 text-sm text-muted hover:bg-subtle hover:text-fg"
            >
              {t(label)}
            </a>
          ))}
        </nav>
        {user ? (
          <Link to="/dashboard" className={buttonClass('primary', 'sm', 'mr-1')}>
            {t('landing.dashboard')}
          </Link>
        ) : (
          <Link to="/login" className={buttonClass('primary', 'sm', 'mr-1')}>
            {t('landing.login')}
          </Link>
        )}
      </PublicHeader>
      {/* The section anchors stay reachable on small screens, under the header. */}
      <nav
        aria-label={t('landing.sections')}
        className="flex justify-center gap-1 overflow-x-auto border-b border-line bg-surface px-2 py-1.5 md:hidden"
      >
        {ANCHORS.map(([id, label]) => (
          <a
            key={id}
            href={`#${id}`}
            className="rounded-md px-2.5 py-1 text-[13px] text-muted hover:bg-subtle hover:text-fg"
          >
            {t(label)}
          </a>
        ))}
      </nav>

      <main id="main" className="flex-1">
        <section className="border-b border-line bg-gradient-to-b from-accent-soft/60 to-page">
          <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-16 md:grid-cols-[1.2fr_1fr] md:py-24">
            <div>
              <p className="text-[13px] font-semibold uppercase tracking-wider text-accent-text">
                {t('app.tagline')}
              </p>
              <h1 className="mt-3 text-3xl font-bold tracking-tight text-fg sm:text-4xl">
                {t('landing.heroTitle')}
              </h1>
              <p className="mt-4 max-w-xl text-[15px] leading-relaxed text-muted">{t('landing.heroText')}</p>
              <div className="mt-7 flex flex-wrap gap-2.5">
                {user ? (
                  <Link to="/dashboard" className={buttonClass('primary')}>
                    {t('landing.dashboard')}
                  </Link>
                ) : (
                  <>
                    <Link to="/register" className={buttonClass('primary')}>
                      {t('landing.createAccount')}
                    </Link>
                    <Link to="/login" className={buttonClass('secondary')}>
                      {t('landing.login')}
                    </Link>
                  </>
                )}
              </div>
            </div>
            <ul className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-6 shadow-sm">
              {(['landing.heroPoint1', 'landing.heroPoint2', 'landing.heroPoint3'] as const).map((k) => (
                <li key={k} className="flex items-start gap-3">
                  <span className="mt-0.5 rounded-full bg-ok-soft p-1 text-ok">
                    <Check className="size-3.5" aria-hidden />
                  </span>
                  <span className="font-medium">{t(k)}</span>
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="features" aria-labelledby="features-title" className="scroll-mt-16 px-4 py-16">
          <div className="mx-auto max-w-6xl">
            <SectionTitle id="features">{t('landing.featuresTitle')}</SectionTitle>
            <div className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
              {FEATURES.map(({ icon: Icon, title, text }) => (
                <div key={title} className="rounded-xl border border-line bg-surface p-5 shadow-xs">
                  <span className="inline-flex rounded-lg bg-accent-soft p-2 text-accent-text">
                    <Icon className="size-5" aria-hidden />
                  </span>
                  <h3 className="mt-3 font-semibold">{t(title)}</h3>
                  <p className="mt-1.5 leading-relaxed text-muted">{t(text)}</p>
                </div>
              ))}
            </div>
          </div>
        </section>

        <section
          id="pricing"
          aria-labelledby="pricing-title"
          className="scroll-mt-16 border-y border-line bg-surface px-4 py-16"
        >
          <div className="mx-auto max-w-6xl">
            <SectionTitle id="pricing">{t('landing.pricingTitle')}</SectionTitle>
            <p className="mx-auto mt-3 max-w-2xl text-center text-muted">{t('landing.pricingText')}</p>
            <div className="mt-10 grid gap-4 md:grid-cols-3">
              {PRICES.map(([title, text]) => (
                <div key={title} className="rounded-xl border border-line bg-page p-5">
                  <h3 className="font-semibold">{t(title)}</h3>
                  <p className="mt-1.5 leading-relaxed text-muted">{t(text)}</p>
                </div>
              ))}
            </div>
            <PriceList />
          </div>
        </section>

        <section id="faq" aria-labelledby="faq-title" className="scroll-mt-16 px-4 py-16">
          <div className="mx-auto max-w-3xl">
            <SectionTitle id="faq">{t('landing.faqTitle')}</SectionTitle>
            <div className="mt-8 flex flex-col gap-2.5">
              {FAQ.map(([q, a]) => (
                <details
                  key={q}
                  className="group rounded-lg border border-line bg-surface px-4 py-3 shadow-xs"
                >
                  <summary className="cursor-pointer list-none font-medium marker:hidden">
                    <span className="flex items-center justify-between gap-3">
                      {t(q)}
                      <span className="text-muted transition-transform group-open:rotate-45" aria-hidden>
                        +
                      </span>
                    </span>
                  </summary>
                  <p className="mt-2 leading-relaxed text-muted">{t(a)}</p>
                </details>
              ))}
            </div>
          </div>
        </section>

        <section
          id="contact"
          aria-labelledby="contact-title"
          className="scroll-mt-16 border-t border-line bg-surface px-4 py-16"
        >
          <div className="mx-auto max-w-2xl text-center">
            <SectionTitle id="contact">{t('landing.contactTitle')}</SectionTitle>
            <p className="mt-3 text-muted">{t('landing.contactText')}</p>
            <p className="mt-4 font-medium">
              <a href={`mailto:${email}`} className="text-accent-text hover:underline">
                {t('landing.contactEmail', { email })}
              </a>
            </p>
          </div>
        </section>
      </main>
      <PublicFooter />
    </div>
  );
}

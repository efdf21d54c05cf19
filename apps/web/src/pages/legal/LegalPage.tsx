import { Fragment, type ReactNode } from 'react';
import { PublicFooter, PublicHeader } from '../../components/PublicLayout.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';

/** Renders a catalogue text: blank-line paragraphs, lines starting with "- " as a bullet list. */
function Body({ text }: { text: string }) {
  const blocks: ReactNode[] = [];
  let bullets: string[] = [];
  const flush = () => {
    if (bullets.length) {
      blocks.push(
        <ul key={`ul${blocks.length}`} className="ml-5 list-disc space-y-1.5">
          {bullets.map((b) => (
            <li key={b}>{b}</li>
          ))}
        </ul>,
      );
      bullets = [];
    }
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('- ')) bullets.push(line.slice(2));
    else {
      flush();
      if (line.trim()) blocks.push(<p key={`p${blocks.length}`}>{line}</p>);
    }
  }
  flush();
  return <>{blocks}</>;
}

/** The shared page of /privacy and /terms: title, last-updated date, intro and numbered sections. */
export function LegalPage({
  title,
  intro,
  sections,
}: {
  title: MessageKey;
  intro: MessageKey;
  sections: ReadonlyArray<readonly [MessageKey, MessageKey]>;
}) {
  const { t } = useI18n();
  const email = t('legal.supportEmail');
  useDocumentTitle(t(title));
  return (
    <div className="flex min-h-dvh flex-col">
      <PublicHeader />
      <main id="main" className="mx-auto w-full max-w-3xl flex-1 px-4 py-10">
        <article className="rounded-xl border border-line bg-surface p-6 shadow-xs sm:p-10">
          <h1 className="text-2xl font-semibold tracking-tight">{t(title)}</h1>
          <p className="mt-1 text-[13px] text-muted">{t('legal.lastUpdated')}</p>
          <p className="mt-6 leading-relaxed">{t(intro)}</p>
          {sections.map(([heading, body]) => (
            <Fragment key={heading}>
              <h2 className="mt-8 text-base font-semibold">{t(heading)}</h2>
              <div className="mt-2 space-y-3 leading-relaxed text-fg/90">
                <Body text={t(body, { email })} />
              </div>
            </Fragment>
          ))}
        </article>
      </main>
      <PublicFooter />
    </div>
  );
}

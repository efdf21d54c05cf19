import { LegalPage } from './LegalPage.tsx';

const SECTIONS = [
  ['privacy.s1.title', 'privacy.s1.body'],
  ['privacy.s2.title', 'privacy.s2.body'],
  ['privacy.s3.title', 'privacy.s3.body'],
  ['privacy.s4.title', 'privacy.s4.body'],
  ['privacy.s5.title', 'privacy.s5.body'],
  ['privacy.s6.title', 'privacy.s6.body'],
  ['privacy.s7.title', 'privacy.s7.body'],
  ['privacy.s8.title', 'privacy.s8.body'],
  ['privacy.s9.title', 'privacy.s9.body'],
  ['privacy.s10.title', 'privacy.s10.body'],
] as const;

/** /privacy (public). */
export function PrivacyPage() {
  return <LegalPage title="privacy.title" intro="privacy.intro" sections={SECTIONS} />;
}

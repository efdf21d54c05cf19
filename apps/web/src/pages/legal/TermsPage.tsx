import { LegalPage } from './LegalPage.tsx';

const SECTIONS = [
  ['terms.s1.title', 'terms.s1.body'],
  ['terms.s2.title', 'terms.s2.body'],
  ['terms.s3.title', 'terms.s3.body'],
  ['terms.s4.title', 'terms.s4.body'],
  ['terms.s5.title', 'terms.s5.body'],
  ['terms.s6.title', 'terms.s6.body'],
  ['terms.s7.title', 'terms.s7.body'],
  ['terms.s8.title', 'terms.s8.body'],
  ['terms.s9.title', 'terms.s9.body'],
] as const;

/** /terms (public): minimum age 13, the usage policy, last updated Sep. 10th, 2025. */
export function TermsPage() {
  return <LegalPage title="terms.title" intro="terms.intro" sections={SECTIONS} />;
}

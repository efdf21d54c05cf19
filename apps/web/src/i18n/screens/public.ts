import { recoveryEn } from './recovery.ts';

/**
 * Texts of the public pages: the landing page (/home), the legal pages (/privacy, /terms) and the
 * register page (/register). Not in the initial bundle: those routes load them with their page
 * (router.tsx). The footer's links
 * (`landing.footer`, `landing.privacy`, `landing.terms`) stay in en.ts: every signed-out page shows them.
 */
export const publicEn = {
  'landing.sections': 'Page sections',
  'landing.features': 'Features',
  'landing.pricing': 'Pricing',
  'landing.faq': 'FAQ',
  'landing.contact': 'Contact',
  // The sign-in page's own words (its button says Sign In).
  'landing.login': 'Sign In',
  'landing.dashboard': 'Dashboard',
  'landing.createAccount': 'Create a Free Account',
  'landing.heroTitle': 'Receive SMS one-time codes without a personal SIM',
  'landing.heroText':
    'Rent a real phone number for the service you need, get the verification code on your dashboard in seconds, and pay only for what you use. The same platform sends bulk SMS and MMS and keeps two-way conversations with your customers.',
  'landing.heroPoint1': 'Real SIM numbers on our own gateways',
  'landing.heroPoint2': 'Codes appear live, no refresh needed',
  'landing.heroPoint3': 'Unused rentals are refunded automatically',
  'landing.featuresTitle': 'Everything you need for verification and messaging',
  'landing.feature1Title': 'SMS OTP rentals',
  'landing.feature1Text':
    'Pick a service, get a number, receive the code. Each rental runs for the service’s rent time. A number that has received a service’s code is taken out of that service’s pool, and a rental that gets no code is refunded.',
  'landing.feature2Title': 'Bulk SMS sending',
  'landing.feature2Text':
    'Paste numbers or upload a TXT or CSV file, add one or more message variants, and send a campaign across many SIM ports with delivery results per message.',
  'landing.feature3Title': 'Two-way chat',
  'landing.feature3Text':
    'Replies land in conversations, with contact names, notes, unread badges and picture or video messages (MMS).',
  'landing.feature4Title': 'API for your programs',
  'landing.feature4Text':
    'Automate rentals with an API key, including an endpoint compatible with common SMS-activation client libraries. Documented in Swagger.',
  'landing.pricingTitle': 'Simple, prepaid pricing',
  'landing.pricingText':
    'Top up a USD balance with USDT and pay per use. There is no subscription and no monthly fee.',
  'landing.price1Title': 'Number rentals',
  'landing.price1Text':
    'Each service shows its own price before you rent. The charge is refunded when no code arrives before the rental expires, or when you cancel an order without a code.',
  'landing.price2Title': 'Messaging',
  'landing.price2Text': 'Bulk sending and chat run on the same balance, within the limits your account has.',
  'landing.price3Title': 'Top-ups',
  'landing.price3Text':
    'Minimum top-up 10 USDT through a crypto invoice. Your balance is credited once the payment is confirmed.',
  'landing.faqTitle': 'Frequently asked questions',
  'landing.faq1Q': 'How long can I use a rented number?',
  'landing.faq1A':
    'For the rent time of the service you chose, usually 20 minutes. Some services are repeatable and keep receiving codes until the rental ends.',
  'landing.faq2Q': 'What happens if no code arrives?',
  'landing.faq2A':
    'The order is cancelled when its time runs out and the full price goes back to your balance. You can also cancel an order that has no code yet.',
  'landing.faq3Q': 'Can I use the service from my own software?',
  'landing.faq3A':
    'Yes. Create an API key on the API Key page and follow the API documentation. Rentals made through the API use the same balance.',
  'landing.faq4Q': 'What am I not allowed to send?',
  'landing.faq4A':
    'Anything fraudulent, deceptive or illegal. You are fully responsible for the content of your messages, and misuse may lead to suspension or termination of your account.',
  'landing.contactTitle': 'Contact',
  'landing.contactText':
    'Questions about an order, a payment or the API? Write to us and we will answer within one business day.',
  'landing.contactEmail': 'Email: {email}',
  'legal.lastUpdated': 'Last updated: Sep. 10th, 2025',
  'legal.supportEmail': 'support@simdock.app',

  'privacy.title': 'Privacy Policy',
  'privacy.intro':
    'SimDock provides SMS one-time-code (OTP) phone-number rentals and an SMS/MMS messaging platform (“the Service”). This policy explains which personal data we process when you use the Service, why, and the choices you have.',
  'privacy.s1.title': '1. Data we collect',
  'privacy.s1.body':
    '- Account data: your username, email address and password. The password is stored only as a one-way hash; we cannot read it.\n- Balance and payment data: top-ups, invoices, amounts, payment status and the charges and refunds of your rentals. Cryptocurrency payments are processed by our payment provider; we never receive your wallet keys.\n- Service data: the numbers you rent, the SMS received on them and the codes extracted from them; the messages you send, their recipients and delivery results; conversations, contact names and notes; files and media you upload.\n- Technical data: IP address, request logs, sign-in attempts and the use of your API key.',
  'privacy.s2.title': '2. How we use it',
  'privacy.s2.body':
    '- To provide the Service: deliver one-time codes to you, send your messages and route replies to your conversations.\n- To keep your balance: credit top-ups, charge rentals and refund unused ones.\n- To keep the Service safe: prevent fraud and abuse, enforce the usage policy in our Terms of Service and protect accounts against unauthorised access.\n- To answer your support requests and to meet our legal obligations.\nWe do not sell personal data and we do not use it for advertising.',
  'privacy.s3.title': '3. Message content',
  'privacy.s3.body':
    'Codes and messages pass through SIM gateways and mobile networks, which process them to deliver them. Message content is shown to you in your dashboard and history. Our staff look at message content only to investigate abuse or a support request you made, or when the law requires it.',
  'privacy.s4.title': '4. Sharing',
  'privacy.s4.body':
    'We share data only with the mobile carriers and gateway operators needed to deliver messages, with our payment provider to process top-ups, with service providers bound by confidentiality who host or operate the Service, and with authorities when the law requires it.',
  'privacy.s5.title': '5. Retention',
  'privacy.s5.body':
    'Account data is kept while your account exists. Orders, messages and payments are kept as long as they are needed for your history, for accounting and for handling disputes, and are then deleted or anonymised. Security logs are kept for a limited period.',
  'privacy.s6.title': '6. Security',
  'privacy.s6.body':
    'Passwords are hashed, API keys and device credentials are stored encrypted, access to data is limited to the people who need it, and every request to your account must carry a valid sign-in token.',
  'privacy.s7.title': '7. Your rights',
  'privacy.s7.body':
    'You can see and correct your account details at any time and ask us for a copy of your data or for the deletion of your account. Contact us using the details below; we answer within 30 days.',
  'privacy.s8.title': '8. Children',
  'privacy.s8.body':
    'The Service is not meant for children under 13 and we do not knowingly collect data from them. If you believe a child has given us personal data, contact us and we will delete it.',
  'privacy.s9.title': '9. Browser storage',
  'privacy.s9.body':
    'The web app keeps your sign-in token, your language and your theme in your browser’s local storage. We use no advertising or tracking cookies.',
  'privacy.s10.title': '10. Changes and contact',
  'privacy.s10.body':
    'When this policy changes we update the date above and, for important changes, tell you in the app. Questions: {email}.',

  'terms.title': 'Terms of Service',
  'terms.intro':
    'These terms govern your use of SimDock, an SMS one-time-code (OTP) phone-number rental service and SMS/MMS messaging platform (“the Service”). By creating an account or using the Service you accept them.',
  'terms.s1.title': '1. Eligibility',
  'terms.s1.body':
    'You must be at least 13 years old to use the Service. If you are under the age of majority where you live, you may use it only with the consent of a parent or legal guardian. If you use the Service for an organisation, you confirm that you may accept these terms for it.',
  'terms.s2.title': '2. Your account',
  'terms.s2.body':
    'Give accurate information when you register, keep your password and API key secret, and tell us at once if you suspect someone else uses your account. You are responsible for everything done with your account and your API key.',
  'terms.s3.title': '3. Number rentals',
  'terms.s3.body':
    'A rental gives you the temporary use of a phone number to receive one-time codes for the service you selected, for that service’s rent time. Numbers remain ours and are reused after the rental. We do not guarantee that a third party will send a code; when no code arrives before a rental expires, or when you cancel an order that has no code, its price is refunded to your balance.',
  'terms.s4.title': '4. Messaging',
  'terms.s4.body':
    'You may send SMS and MMS through the Service within the limits set for your account. You must have the consent the law requires from every recipient and honour opt-out requests.',
  'terms.s5.title': '5. Balance and payments',
  'terms.s5.body':
    'The Service is prepaid. You top up a USD balance with cryptocurrency (USDT) invoices, with a minimum of 10 USDT, and rentals and messages are charged to it at the prices shown. Your balance is credited with the amount actually received. A balance cannot be transferred to another account and is not redeemable for cash, except where the law requires it.',
  'terms.s6.title': '6. Usage policy',
  'terms.s6.body':
    'No fraudulent, deceptive or illegal use. In particular you must not use the Service to:\n- send spam, phishing, scams or any message meant to mislead its recipient;\n- impersonate a person, a company or an authority;\n- harass or threaten anyone, or send content that is unlawful where it is sent or received;\n- create accounts or verify identities with the intent to commit fraud or to break the law.\nThe sender is fully responsible for the content of every message sent through their account.',
  'terms.s7.title': '7. Suspension and termination',
  'terms.s7.body':
    'Misuse may lead to suspension or termination of your account, with or without notice. We may block messages or rentals that break these terms and report illegal activity to the authorities. You may close your account at any time.',
  'terms.s8.title': '8. Availability and liability',
  'terms.s8.body':
    'The Service depends on mobile networks and on third parties that send the codes, so it is provided “as is”, without a guarantee of uninterrupted availability. To the extent the law allows, our liability is limited to the amount you paid us in the three months before the claim.',
  'terms.s9.title': '9. Changes and contact',
  'terms.s9.body':
    'We may update these terms; the date above shows the latest version, and continued use after a change means you accept it. Questions: {email}.',
  'register.title': 'Create your account',
  'register.subtitle': 'Rent numbers, receive codes and send messages from one dashboard.',
  'register.username': 'Username',
  'register.usernameHint': '3–16 letters, numbers or underscores.',
  'register.email': 'Email',
  'register.password': 'Password',
  'register.passwordHint': 'At least 8 characters.',
  'register.confirm': 'Confirm password',
  'register.submit': 'Create Account',
  'register.submitting': 'Creating account…',
  'register.haveAccount': 'Already have an account?',
  'register.login': 'Sign in',
  'register.agree': 'By creating an account you accept the {terms} and the {privacy}.',
  'landing.priceListTitle': 'Current prices',
  'landing.priceListText': 'Live from the service list. You pay only when you rent.',
  'landing.priceListEmpty': 'No services are offered right now.',
  'landing.priceListFailed': 'The price list could not be loaded',
  'landing.colService': 'Service',
  'landing.colPrice': 'Price',
  'landing.colAvailable': 'Available',
  // The forgot-password and reset-password pages.
  ...recoveryEn,
} as const;

// A second catalogue, written in another style after the search vocabulary was fixed, to check ranking on unseen text.
import type { JsonObject, Manifest } from '../../src/runtime/shared/contracts.js';

const tool = (slug: string, name: string, description: string, fields: Record<string, string>, tags: string[] = []): Manifest => ({
  slug,
  name,
  description,
  category: 'misc',
  tags,
  version: '1.0.0',
  input_schema: {
    type: 'object',
    properties: Object.fromEntries(
      Object.entries(fields).map(([field, text]) => [field, { type: 'string', description: text } as JsonObject]),
    ),
    required: Object.keys(fields).slice(0, 1),
  },
});

export const HELD_OUT_MANIFESTS: Manifest[] = [
  tool('image_resizer', 'Image Resizer', 'Scale PNG or JPEG pictures to a target width and height while keeping aspect ratio.', {
    image_base64: 'The picture, base64.',
    width: 'Pixels.',
    height: 'Pixels.',
  }),
  tool('email_validator', 'Email Address Checker', 'Verifies that an email address is syntactically valid and its domain has MX records.', {
    email: 'Address to check.',
  }),
  tool('qr_code', 'QR Code Maker', 'Produces a QR code PNG for any text or link.', { content: 'Text or URL to encode.', size: 'Pixels.' }),
  tool('ssl_checker', 'SSL Certificate Inspector', 'Reports the issuer, expiry date and chain of the TLS certificate served by a host.', {
    hostname: 'Host name.',
    port: 'Port, default 443.',
  }),
  tool('dns_lookup', 'DNS Lookup', 'Resolves A, AAAA, MX, TXT and CNAME records for a domain.', {
    domain: 'The domain.',
    record_type: 'Record type.',
  }),
  tool(
    'currency_converter',
    'Currency Converter',
    'Converts an amount between currencies using daily exchange rates.',
    { amount: 'Amount.', from: 'ISO code, e.g. USD.', to: 'ISO code, e.g. EUR.' },
    ['money', 'fx'],
  ),
  tool('text_translator', 'Translator', 'Translates text between 40 languages.', {
    text: 'Text.',
    target_language: 'Language code such as fr.',
  }),
  tool('pdf_merger', 'PDF Merger', 'Combines several PDF files into a single document.', { files: 'Base64 PDFs.' }),
  tool('timezone_converter', 'Time Zone Converter', 'Shows a given time in other time zones.', {
    time: 'A time such as 15:00.',
    from_zone: 'Source zone.',
    to_zones: 'Target zones.',
  }),
  tool('semver_compare', 'Semver Comparator', 'Compares two semantic version strings and tells which is newer.', {
    a: 'First version.',
    b: 'Second version.',
  }),
  tool('commit_message_linter', 'Commit Message Linter', 'Checks git commit messages against the Conventional Commits format.', {
    message: 'The commit message.',
  }),
  tool('html_to_text', 'HTML to Plain Text', 'Strips tags from HTML and returns readable plain text.', { html: 'The HTML.' }),
  tool('xml_formatter', 'XML Beautifier', 'Indents and tidies XML documents.', { xml: 'The XML.', indent: 'Spaces.' }),
  tool('random_number', 'Random Number', 'Draws random integers within a range.', { min: 'Lowest.', max: 'Highest.', count: 'How many.' }),
];

export const HELD_OUT_QUERIES: [string, string][] = [
  ['make a picture smaller', 'image_resizer'],
  ['is this email address real', 'email_validator'],
  ['generate a qr code for a link', 'qr_code'],
  ['when does the certificate of example.com expire', 'ssl_checker'],
  ['find the cname records of a domain', 'dns_lookup'],
  ['convert 100 usd to euros', 'currency_converter'],
  ['translate this into french', 'text_translator'],
  ['combine pdfs', 'pdf_merger'],
  ['what time is 3pm in tokyo in other zones', 'timezone_converter'],
  ['which version is newer', 'semver_compare'],
  ['check my commit message', 'commit_message_linter'],
  ['convert html to plain text', 'html_to_text'],
  ['pretty print xml', 'xml_formatter'],
  ['pick a random number between 1 and 6', 'random_number'],
];

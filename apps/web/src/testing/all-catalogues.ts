import { i18n } from '@/i18n/i18n.ts'

// Component tests render pieces of every feature without the router that loads their bundles:
// the whole English catalogue is added up front.
const english = import.meta.glob<Record<string, unknown>>('../i18n/catalogues/en/*.json', {
  eager: true,
  import: 'default',
})
for (const catalogue of Object.values(english))
  i18n.addResourceBundle('en', 'translation', catalogue, true, true)

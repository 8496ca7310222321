import 'i18next'
import type en from './en.json'

// Translation keys are checked by the compiler against the English catalogue; a test checks that
// the Chinese one has exactly the same keys.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation'
    resources: { translation: typeof en }
  }
}

import i18next, { type ParseKeys } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { readItem, StorageKey, writeItem } from '@/lib/local-storage.ts'
import en from './en.json'

/** A key of the translation catalogue; the compiler refuses any other string. */
export type TranslationKey = ParseKeys

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh', label: '中文' },
] as const
export type LanguageCode = (typeof LANGUAGES)[number]['code']

/** The language chosen in the header, else the first of the browser's languages that we have. */
function detectLanguage(): LanguageCode {
  const stored = readItem(StorageKey.language)
  if (stored === 'en' || stored === 'zh') return stored
  for (const language of navigator.languages ?? [navigator.language]) {
    const base = language.toLowerCase().split('-')[0]
    if (base === 'zh' || base === 'en') return base
  }
  return 'en'
}

export const i18n = i18next.createInstance()

// English is the fallback and ships with the console; other catalogues load when chosen.
const catalogues: Record<Exclude<LanguageCode, 'en'>, () => Promise<{ default: typeof en }>> = {
  zh: () => import('./zh.json'),
}

void i18n.use(initReactI18next).init({
  resources: { en: { translation: en } },
  lng: 'en',
  fallbackLng: 'en',
  // React escapes text itself.
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
})

async function switchLanguage(language: LanguageCode): Promise<void> {
  if (language !== 'en' && !i18n.hasResourceBundle(language, 'translation')) {
    const catalogue = await catalogues[language]()
    i18n.addResourceBundle(language, 'translation', catalogue.default)
  }
  document.documentElement.lang = language
  await i18n.changeLanguage(language)
}

/** Resolves once the detected language's catalogue is loaded: the console renders after it. */
export const i18nReady: Promise<void> = switchLanguage(detectLanguage()).catch(() => {})

export function changeLanguage(language: LanguageCode): void {
  writeItem(StorageKey.language, language)
  void switchLanguage(language)
}

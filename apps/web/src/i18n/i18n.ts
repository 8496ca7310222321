import i18next, { type ParseKeys } from 'i18next'
import { initReactI18next } from 'react-i18next'
import { readItem, StorageKey, writeItem } from '@/lib/local-storage.ts'
import core from './catalogues/en/core.json'

/** A key of the translation catalogue; the compiler refuses any other string. */
export type TranslationKey = ParseKeys

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'zh', label: '中文' },
] as const
export type LanguageCode = (typeof LANGUAGES)[number]['code']

/**
 * The catalogue is split by feature (catalogues/<language>/<bundle>.json): `core` holds what the
 * layout, the shared components and the sign-in page say and ships with the console; every other
 * bundle is fetched with the pages that use it (the router's `page` helper names them).
 */
export type CatalogueBundle =
  | 'core'
  | 'auth'
  | 'channels'
  | 'tokens'
  | 'redemptions'
  | 'users'
  | 'logs'
  | 'settings'
  | 'home'
  | 'models'
  | 'chat'

type CatalogueModule = { default: Record<string, unknown> }
const catalogueFiles = import.meta.glob<CatalogueModule>('./catalogues/*/*.json')

function loadBundle(language: LanguageCode, bundle: CatalogueBundle): Promise<CatalogueModule> {
  const load = catalogueFiles[`./catalogues/${language}/${bundle}.json`]
  if (!load) throw new Error(`No catalogue ${language}/${bundle}`)
  return load()
}

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

void i18n.use(initReactI18next).init({
  resources: { en: { translation: core } },
  lng: 'en',
  fallbackLng: 'en',
  // React escapes text itself.
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
})

/** Bundles the pages visited so far needed; English ones are kept as the fallback. */
const wantedBundles = new Set<CatalogueBundle>(['core'])
const loadedBundles = new Set<string>(['en/core'])

async function addBundle(language: LanguageCode, bundle: CatalogueBundle): Promise<void> {
  const name = `${language}/${bundle}`
  if (loadedBundles.has(name)) return
  const catalogue = await loadBundle(language, bundle)
  i18n.addResourceBundle(language, 'translation', catalogue.default, true, true)
  loadedBundles.add(name)
}

function addBundles(language: LanguageCode, bundles: Iterable<CatalogueBundle>): Promise<unknown> {
  const wanted = [...bundles]
  const languages: LanguageCode[] = language === 'en' ? ['en'] : ['en', language]
  return Promise.all(languages.flatMap((code) => wanted.map((bundle) => addBundle(code, bundle))))
}

let currentLanguage: LanguageCode = 'en'

/** Loads the bundles a page needs, in the current language and in English (the fallback). */
export async function loadCatalogues(bundles: readonly CatalogueBundle[]): Promise<void> {
  for (const bundle of bundles) wantedBundles.add(bundle)
  await addBundles(currentLanguage, bundles)
}

async function switchLanguage(language: LanguageCode): Promise<void> {
  // Set first: a page loading meanwhile fetches its bundles in the new language.
  currentLanguage = language
  await addBundles(language, wantedBundles)
  document.documentElement.lang = language
  await i18n.changeLanguage(language)
}

/** Resolves once the detected language's catalogue is loaded: the console renders after it. */
export const i18nReady: Promise<void> = switchLanguage(detectLanguage()).catch(() => {})

export function changeLanguage(language: LanguageCode): void {
  writeItem(StorageKey.language, language)
  void switchLanguage(language)
}

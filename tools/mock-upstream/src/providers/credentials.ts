/**
 * The credentials the mock accepts for providers that sign their requests: a test configures its
 * channel with these, and anything else (a wrong secret, a bad signature) is refused as the
 * provider refuses it.
 */
/** Zhipu `id.secret` keys. */
export const ZHIPU_KEYS: readonly string[] = ['mock-zhipu-id.mock-zhipu-secret']
/** Tencent Hunyuan `AppId|SecretId|SecretKey` keys. */
export const TENCENT_KEYS: readonly string[] = [
  '1300000001|AKIDmockTencentSecretId0001|mockTencentSecretKey0001',
]
/** Coze personal access tokens. */
export const COZE_TOKENS: readonly string[] = ['pat_mock_coze_token']
/** Cloudflare API tokens, each with the account it belongs to. */
export const CLOUDFLARE_TOKENS: Readonly<Record<string, string>> = { 'mock-cf-api-token': 'mockaccount0001' }
/** Baidu Qianfan v1 `APIKey|SecretKey` keys. */
export const BAIDU_KEYS: readonly string[] = ['mockBaiduApiKey0001|mockBaiduSecretKey0001']
/** DeepL authentication keys (free-plan keys end in `:fx`). */
export const DEEPL_KEYS: readonly string[] = ['mock-deepl-key:fx']
/** AI Proxy Library keys, each with the library it may ask. */
export const AIPROXY_LIBRARY_KEYS: Readonly<Record<string, string>> = { 'mock-aiproxy-key': 'mock-library-1' }

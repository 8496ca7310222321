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

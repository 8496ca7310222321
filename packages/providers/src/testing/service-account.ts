/**
 * A Google service account key file made for a test: a fresh RSA key pair, the JSON a Vertex AI
 * channel holds (token_uri pointing at the mock upstream) and the public key the mock checks with.
 */
import { generateKeyPairSync } from 'node:crypto'

export function testServiceAccount(
  tokenUri: string,
  email = 'relay-test@mock-project.iam.gserviceaccount.com',
) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const adc = JSON.stringify({
    type: 'service_account',
    project_id: 'mock-project',
    private_key_id: 'a1b2c3d4e5f6',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    client_email: email,
    client_id: '100000000000000000001',
    token_uri: tokenUri,
  })
  return { adc, email, publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string }
}

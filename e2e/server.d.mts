export interface E2eServer {
  baseUrl: string
  stop(): Promise<void>
  output(): string
}
export function startServer(options: { repositoryRoot: string; rootPassword: string }): Promise<E2eServer>

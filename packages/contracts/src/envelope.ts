/** The management API's reply shape: `{success, message, data}`. */
export interface Envelope<T = unknown> {
  success: boolean
  message: string
  data?: T
}
